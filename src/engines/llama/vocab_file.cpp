#include "engines/llama/vocab_file.h"

#include <filesystem>
#include <fstream>

#include "engines/llama/runtime.h"
#include "gguf.h"
#include "llama-cpp.h"

namespace nunchi::llama {

struct VocabFile::Model {
  llama_model_ptr model;
  const llama_vocab* vocab = nullptr;
};

namespace {

bool HasGgufMagic(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  char magic[4] = {};
  return in.read(magic, 4) && std::string_view(magic, 4) == "GGUF";
}

}  // namespace

Result<std::unique_ptr<VocabFile>> VocabFile::Open(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec))
    return Status(ErrorCode::kInvalidArgument, "no such model file: " + path);
  if (!HasGgufMagic(path)) return Status(ErrorCode::kInvalidArgument, path + " is not a GGUF file");
  InitLlamaRuntime();
  std::unique_ptr<VocabFile> v(new VocabFile());
  v->path_ = path;
  {
    gguf_init_params gp{/*no_alloc=*/true, /*ctx=*/nullptr};
    gguf_context* g = gguf_init_from_file(path.c_str(), gp);
    if (g == nullptr)
      return Status(ErrorCode::kInvalidArgument, path + " is not a readable GGUF file");
    v->n_tensors_ = gguf_get_n_tensors(g);
    gguf_free(g);
  }
  llama_model_params mp = llama_model_default_params();
  mp.vocab_only = true;
  v->model_ = std::make_unique<Model>();
  v->model_->model.reset(llama_model_load_from_file(path.c_str(), mp));
  if (!v->model_->model)
    return Status(ErrorCode::kIo, "llama.cpp cannot load the vocabulary of " + path);
  v->model_->vocab = llama_model_get_vocab(v->model_->model.get());
  if (const char* t = llama_model_chat_template(v->model_->model.get(), nullptr))
    v->chat_template_ = t;
  return v;
}

VocabFile::~VocabFile() = default;

std::vector<int32_t> VocabFile::Tokenize(std::string_view text, bool add_special,
                                         bool parse_special) const {
  std::vector<llama_token> out(text.size() + 8);
  const llama_vocab* vocab = model_->vocab;
  int n = llama_tokenize(vocab, text.data(), static_cast<int32_t>(text.size()), out.data(),
                         static_cast<int32_t>(out.size()), add_special, parse_special);
  if (n < 0) {
    out.resize(static_cast<size_t>(-n));
    n = llama_tokenize(vocab, text.data(), static_cast<int32_t>(text.size()), out.data(),
                       static_cast<int32_t>(out.size()), add_special, parse_special);
  }
  out.resize(n > 0 ? static_cast<size_t>(n) : 0);
  return out;
}

Result<std::string> VocabFile::ApplyChatTemplate(
    const std::vector<std::pair<std::string, std::string>>& msgs, bool add_assistant) const {
  if (!chat_template_.empty()) {
    auto own = llama::ApplyChatTemplate(chat_template_.c_str(), msgs, add_assistant);
    if (own.ok()) return own;
  }
  return llama::ApplyChatTemplate("chatml", msgs, add_assistant);
}

int32_t VocabFile::n_tokens() const { return llama_vocab_n_tokens(model_->vocab); }

std::string VocabFile::type() const {
  switch (llama_vocab_type(model_->vocab)) {
    case LLAMA_VOCAB_TYPE_SPM:
      return "SPM";
    case LLAMA_VOCAB_TYPE_BPE:
      return "BPE";
    case LLAMA_VOCAB_TYPE_WPM:
      return "WPM";
    case LLAMA_VOCAB_TYPE_UGM:
      return "UGM";
    case LLAMA_VOCAB_TYPE_RWKV:
      return "RWKV";
    case LLAMA_VOCAB_TYPE_PLAMO2:
      return "PLaMo2";
    default:
      return "none";
  }
}

std::string VocabFile::Meta(const char* key) const {
  char buf[512];
  const int32_t n = llama_model_meta_val_str(model_->model.get(), key, buf, sizeof buf);
  return n >= 0 ? std::string(buf, static_cast<size_t>(std::min<int32_t>(n, sizeof buf - 1))) : "";
}

std::string VocabFile::pre() const { return Meta("tokenizer.ggml.pre"); }

std::string VocabFile::name() const {
  std::string n = Meta("general.name");
  return n.empty() ? std::filesystem::path(path_).filename().string() : n;
}

}  // namespace nunchi::llama
