// VocabFile: the tokenizer of a GGUF file, loaded without its weights
// (llama.cpp's vocab_only), for `nunchi tokens`: tokenize texts exactly as the
// engine does and apply the file's chat template (ChatML when it has none,
// as LlamaEngine does). Works on full models and on the vocabulary-only
// GGUFs llama.cpp ships in models/ (ggml-vocab-*.gguf).
//
// Open() may be called from any thread; the const methods of one VocabFile
// are safe from many threads at once (llama.cpp's vocabulary is read-only
// once loaded). The VocabFile owns its llama_model and frees it.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "domain/status.h"

namespace nunchi::llama {

class VocabFile {
 public:
  // kInvalidArgument when the file is missing or not GGUF (a usage error);
  // kIo when llama.cpp cannot load its vocabulary.
  static Result<std::unique_ptr<VocabFile>> Open(const std::string& path);
  ~VocabFile();
  VocabFile(const VocabFile&) = delete;
  VocabFile& operator=(const VocabFile&) = delete;

  // Tokens of text. The engine's prompt tokens are Tokenize(prompt, false, true).
  std::vector<int32_t> Tokenize(std::string_view text, bool add_special, bool parse_special) const;
  // The file's chat template over (role, content) pairs; ChatML when it has
  // none, or when llama.cpp does not know its template.
  Result<std::string> ApplyChatTemplate(
      const std::vector<std::pair<std::string, std::string>>& msgs, bool add_assistant) const;

  int32_t n_tokens() const;  // vocabulary size
  std::string type() const;  // "SPM", "BPE", "WPM", "UGM", "RWKV", "PLaMo2", "none"
  std::string pre() const;   // tokenizer.ggml.pre ("qwen2", "llama-bpe"...), "" when absent
  std::string name() const;  // general.name, else the file name
  bool has_weights() const { return n_tensors_ > 0; }  // the file holds tensors
  bool own_chat_template() const { return !chat_template_.empty(); }
  const std::string& path() const { return path_; }

 private:
  VocabFile() = default;
  std::string Meta(const char* key) const;

  struct Model;
  std::unique_ptr<Model> model_;
  std::string path_;
  std::string chat_template_;  // the file's own, "" when none
  int64_t n_tensors_ = 0;
};

}  // namespace nunchi::llama
