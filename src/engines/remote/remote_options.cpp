#include "engines/remote/remote_options.h"

#include <cstdlib>
#include <fstream>

namespace nunchi::remote {
namespace {
std::string Trim(std::string s) {
  const char* ws = " \t\r\n";
  size_t b = s.find_first_not_of(ws);
  if (b == std::string::npos) return "";
  size_t e = s.find_last_not_of(ws);
  return s.substr(b, e - b + 1);
}
}  // namespace

std::string_view ToString(BackendKind kind) {
  switch (kind) {
    case BackendKind::kOpenAi:
      return "openai";
    case BackendKind::kVllm:
      return "vllm";
    case BackendKind::kLlamaServer:
      return "llama-server";
  }
  return "openai";
}

std::optional<BackendKind> ParseBackendKind(std::string_view s) {
  if (s == "openai" || s == "sglang") return BackendKind::kOpenAi;
  if (s == "vllm") return BackendKind::kVllm;
  if (s == "llama-server" || s == "llama_server") return BackendKind::kLlamaServer;
  return std::nullopt;
}

Result<std::optional<std::string>> LoadApiKey(const RemoteOptions& options) {
  if (!options.api_key_env.empty()) {
    const char* value = std::getenv(options.api_key_env.c_str());
    if (value != nullptr && *value != '\0') return std::optional<std::string>(Trim(value));
    if (options.api_key_file.empty()) {
      return Status(ErrorCode::kInvalidArgument,
                    "API key variable " + options.api_key_env + " is not set");
    }
  }
  if (!options.api_key_file.empty()) {
    std::ifstream in(options.api_key_file);
    std::string line;
    if (!in || !std::getline(in, line) || Trim(line).empty()) {
      return Status(ErrorCode::kInvalidArgument,
                    "API key file " + options.api_key_file + " is missing or empty");
    }
    return std::optional<std::string>(Trim(line));
  }
  return std::optional<std::string>();
}

}  // namespace nunchi::remote
