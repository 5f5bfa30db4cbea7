#include "engines/llama/runtime.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <mutex>
#include <vector>

#include "gguf.h"
#include "llama.h"
#include "ops/log.h"

namespace nunchi::llama {
namespace {

void LogFilter(ggml_log_level level, const char* text, void* /*user*/) {
  static const bool verbose = [] {
    const char* v = std::getenv("NUNCHI_LLAMA_LOG");
    return v != nullptr && std::strcmp(v, "1") == 0;
  }();
  if (verbose || level == GGML_LOG_LEVEL_ERROR || level == GGML_LOG_LEVEL_WARN) {
    LogExternal("llama.cpp",
                level == GGML_LOG_LEVEL_ERROR  ? LogLevel::kError
                : level == GGML_LOG_LEVEL_WARN ? LogLevel::kWarn
                                               : LogLevel::kInfo,
                text);  // the server log, at its level and format
  }
}

struct GgufDeleter {
  void operator()(gguf_context* c) const { gguf_free(c); }
};

}  // namespace

void InitLlamaRuntime() {
  static std::once_flag once;
  std::call_once(once, [] {
    llama_log_set(LogFilter, nullptr);
    llama_backend_init();
  });
}

uint64_t Fnv1a64(const void* data, size_t size, uint64_t seed) {
  const auto* p = static_cast<const unsigned char*>(data);
  uint64_t h = seed;
  for (size_t i = 0; i < size; ++i) {
    h ^= p[i];
    h *= 1099511628211ull;
  }
  return h;
}

Result<std::string> ModelIdentity(const std::string& path) {
  std::error_code ec;
  const auto size = std::filesystem::file_size(path, ec);
  if (ec) return Status(ErrorCode::kIo, "cannot stat model " + path + ": " + ec.message());
  gguf_init_params params{/*no_alloc=*/true, /*ctx=*/nullptr};
  std::unique_ptr<gguf_context, GgufDeleter> ctx(gguf_init_from_file(path.c_str(), params));
  if (!ctx) return Status(ErrorCode::kIo, "not a GGUF file: " + path);
  std::vector<unsigned char> meta(gguf_get_meta_size(ctx.get()));
  gguf_get_meta_data(ctx.get(), meta.data());
  uint64_t h = Fnv1a64(&size, sizeof(size));
  h = Fnv1a64(meta.data(), meta.size(), h);
  char hex[17];
  std::snprintf(hex, sizeof(hex), "%016llx", static_cast<unsigned long long>(h));
  return std::filesystem::path(path).filename().string() + "@" + hex;
}

Result<std::string> ApplyChatTemplate(const char* tmpl,
                                      const std::vector<std::pair<std::string, std::string>>& msgs,
                                      bool add_assistant) {
  std::vector<llama_chat_message> chat;
  size_t total = 0;
  for (const auto& [role, content] : msgs) {
    chat.push_back({role.c_str(), content.c_str()});
    total += role.size() + content.size();
  }
  std::string buf(total * 2 + 256, '\0');
  int n = llama_chat_apply_template(tmpl, chat.data(), chat.size(), add_assistant, buf.data(),
                                    static_cast<int32_t>(buf.size()));
  if (n > static_cast<int>(buf.size())) {
    buf.resize(static_cast<size_t>(n));
    n = llama_chat_apply_template(tmpl, chat.data(), chat.size(), add_assistant, buf.data(),
                                  static_cast<int32_t>(buf.size()));
  }
  if (n < 0) return Status(ErrorCode::kInternal, "chat template not supported");
  buf.resize(static_cast<size_t>(n));
  return buf;
}

}  // namespace nunchi::llama
