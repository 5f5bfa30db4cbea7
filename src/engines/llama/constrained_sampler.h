// ConstrainedSampler: samples the next token of one sequence, optionally under
// a GBNF grammar (llama.cpp's grammar sampler), and finds the text the grammar
// forces next so the engine can feed it without sampling it token by token.
//
// The grammar pass over a 151k vocabulary is the expensive part of a step, so
// sampling avoids it: where the grammar allows only a few first bytes (enum
// values, punctuation) only the tokens starting with those bytes are masked;
// elsewhere the unconstrained choice is checked first and the vocabulary is
// masked only when the grammar rejects it.
//
// Forced text: the grammar is probed with the single-byte tokens of the
// vocabulary (and the end-of-generation tokens); while exactly one byte is
// allowed, that byte is forced. Keys, punctuation, ids and the rest of an
// enum value once its first token is chosen come out this way.
//
// Not thread-safe: one per sequence, used by the engine thread only. The
// VocabInfo it points to must outlive it.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "domain/status.h"
#include "engines/llama/sampling.h"
#include "llama-cpp.h"

namespace nunchi::llama {

// Per-model tables the sampler needs, built once per engine.
struct VocabInfo {
  const llama_vocab* vocab = nullptr;
  int32_t n_vocab = 0;
  std::array<llama_token, 256> byte_token{};  // token whose text is exactly that byte, or -1
  std::vector<llama_token> eog;               // end-of-generation tokens
  std::array<std::vector<llama_token>, 256> by_first_byte;  // non-empty pieces, by first byte

  static VocabInfo Build(const llama_vocab* vocab);
  std::string Piece(llama_token t) const;
  std::vector<llama_token> Tokenize(std::string_view text, bool parse_special) const;
};

struct ForcedText {
  std::string text;       // bytes the grammar allows as the only continuation
  bool complete = false;  // the grammar is finished: only end of generation remains
};

class ConstrainedSampler {
 public:
  // kInvalidArgument when the grammar does not parse.
  static Result<std::unique_ptr<ConstrainedSampler>> Create(const VocabInfo* info,
                                                            const std::string& gbnf,
                                                            const SamplingParams& params);

  // Samples from the logits of batch output idx, and accepts the token.
  llama_token Sample(llama_context* ctx, int32_t idx);
  // Finds the forced continuation (at most max_bytes), advances the grammar
  // over it, and returns it. Empty without a grammar.
  ForcedText TakeForced(size_t max_bytes);
  // Tells the sampler (penalties) about tokens fed without sampling.
  void AcceptForced(const std::vector<llama_token>& tokens);
  bool constrained() const { return grammar_ != nullptr; }
  uint64_t full_grammar_passes() const { return full_grammar_passes_; }

 private:
  ConstrainedSampler(const VocabInfo* info, llama_sampler_ptr grammar, llama_sampler_ptr chain);
  void Fill(const float* logits);

  // Runs the sampling chain on arr and returns its choice.
  llama_token Pick(llama_token_data_array* arr);
  // The unconstrained choice broke the grammar: choose again among allowed tokens.
  llama_token Resample(const float* logits);

  const VocabInfo* info_;
  // The first bytes the grammar allows in its current state (from the last
  // probe of TakeForced), valid until the next accept.
  std::array<bool, 256> allowed_bytes_{};
  int allowed_count_ = 0;
  bool eog_allowed_ = false;
  bool probe_valid_ = false;
  llama_sampler_ptr grammar_;  // null when unconstrained
  llama_sampler_ptr chain_;    // penalties, top-k/top-p/temperature, then greedy or dist
  std::vector<llama_token_data> cur_;
  std::vector<llama_token_data> probe_;
  uint64_t full_grammar_passes_ = 0;
};

}  // namespace nunchi::llama
