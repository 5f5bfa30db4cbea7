#include "engines/llama/constrained_sampler.h"

#include <algorithm>
#include <cmath>

namespace nunchi::llama {

VocabInfo VocabInfo::Build(const llama_vocab* vocab) {
  VocabInfo info;
  info.vocab = vocab;
  info.n_vocab = llama_vocab_n_tokens(vocab);
  info.byte_token.fill(-1);
  char buf[256];
  for (llama_token t = 0; t < info.n_vocab; ++t) {
    if (llama_vocab_is_eog(vocab, t)) {
      info.eog.push_back(t);
      continue;
    }
    const int n = llama_token_to_piece(vocab, t, buf, sizeof(buf), 0, /*special=*/false);
    if (n == 0) continue;  // control tokens: no text, never allowed by a grammar
    const auto b = static_cast<unsigned char>(buf[0]);  // n < 0: longer than buf, first byte set
    info.by_first_byte[b].push_back(t);
    if (n == 1 && info.byte_token[b] < 0) info.byte_token[b] = t;
  }
  return info;
}

std::string VocabInfo::Piece(llama_token t) const {
  char buf[256];
  const int n = llama_token_to_piece(vocab, t, buf, sizeof(buf), 0, /*special=*/false);
  if (n >= 0) return std::string(buf, static_cast<size_t>(n));
  std::string big(static_cast<size_t>(-n), '\0');
  const int m = llama_token_to_piece(vocab, t, big.data(), -n, 0, false);
  big.resize(m > 0 ? static_cast<size_t>(m) : 0);
  return big;
}

std::vector<llama_token> VocabInfo::Tokenize(std::string_view text, bool parse_special) const {
  std::vector<llama_token> out(text.size() + 8);
  int n = llama_tokenize(vocab, text.data(), static_cast<int32_t>(text.size()), out.data(),
                         static_cast<int32_t>(out.size()), /*add_special=*/false, parse_special);
  if (n < 0) {
    out.resize(static_cast<size_t>(-n));
    n = llama_tokenize(vocab, text.data(), static_cast<int32_t>(text.size()), out.data(),
                       static_cast<int32_t>(out.size()), false, parse_special);
  }
  out.resize(n > 0 ? static_cast<size_t>(n) : 0);
  return out;
}

ConstrainedSampler::ConstrainedSampler(const VocabInfo* info, llama_sampler_ptr grammar,
                                       llama_sampler_ptr chain)
    : info_(info), grammar_(std::move(grammar)), chain_(std::move(chain)) {
  cur_.resize(static_cast<size_t>(info_->n_vocab));
}

Result<std::unique_ptr<ConstrainedSampler>> ConstrainedSampler::Create(const VocabInfo* info,
                                                                       const std::string& gbnf,
                                                                       const SamplingParams& p) {
  llama_sampler_ptr grammar;
  if (!gbnf.empty()) {
    grammar.reset(llama_sampler_init_grammar(info->vocab, gbnf.c_str(), "root"));
    if (!grammar) return Status(ErrorCode::kInvalidArgument, "grammar does not parse");
  }
  llama_sampler_ptr chain(llama_sampler_chain_init(llama_sampler_chain_default_params()));
  // Top-k first: the later samplers then see 40 candidates, not the vocabulary.
  llama_sampler_chain_add(chain.get(), llama_sampler_init_top_k(p.top_k));
  if (p.repeat_penalty != 1.0f) {
    llama_sampler_chain_add(
        chain.get(), llama_sampler_init_penalties(info->n_vocab, 64, p.repeat_penalty, 0, 0));
  }
  if (p.temperature <= 0.0f) {
    llama_sampler_chain_add(chain.get(), llama_sampler_init_greedy());
  } else {
    llama_sampler_chain_add(chain.get(), llama_sampler_init_top_p(p.top_p, 1));
    llama_sampler_chain_add(chain.get(), llama_sampler_init_temp(p.temperature));
    llama_sampler_chain_add(chain.get(), llama_sampler_init_dist(p.seed));
  }
  return std::unique_ptr<ConstrainedSampler>(
      new ConstrainedSampler(info, std::move(grammar), std::move(chain)));
}

void ConstrainedSampler::Fill(const float* logits) {
  cur_.resize(static_cast<size_t>(info_->n_vocab));
  for (int32_t t = 0; t < info_->n_vocab; ++t) cur_[t] = {t, logits[t], 0.0f};
}

llama_token ConstrainedSampler::Pick(llama_token_data_array* arr) {
  llama_sampler_apply(chain_.get(), arr);
  return arr->data[arr->selected].id;
}

llama_token ConstrainedSampler::Resample(const float* logits) {
  // The best kTop tokens first: for greedy sampling the result is exact when
  // one of them passes, and masking 1k tokens costs 1/150 of the vocabulary.
  constexpr size_t kTop = 1024;
  Fill(logits);
  std::nth_element(cur_.begin(), cur_.begin() + kTop, cur_.end(),
                   [](const auto& a, const auto& b) { return a.logit > b.logit; });
  llama_token_data_array top{cur_.data(), kTop, -1, false};
  llama_sampler_apply(grammar_.get(), &top);
  for (size_t i = 0; i < kTop; ++i) {
    if (!std::isinf(top.data[i].logit)) return Pick(&top);
  }
  ++full_grammar_passes_;
  Fill(logits);
  llama_token_data_array all{cur_.data(), cur_.size(), -1, false};
  llama_sampler_apply(grammar_.get(), &all);
  return Pick(&all);
}

llama_token ConstrainedSampler::Sample(llama_context* ctx, int32_t idx) {
  const float* logits = llama_get_logits_ith(ctx, idx);
  llama_token token = -1;
  if (grammar_ && probe_valid_ && allowed_count_ <= 32) {
    // Few first bytes allowed: only tokens starting with them can pass.
    cur_.clear();
    for (int b = 0; b < 256; ++b) {
      if (!allowed_bytes_[b]) continue;
      for (llama_token t : info_->by_first_byte[b]) cur_.push_back({t, logits[t], 0.0f});
    }
    if (eog_allowed_) {
      for (llama_token t : info_->eog) cur_.push_back({t, logits[t], 0.0f});
    }
    llama_token_data_array arr{cur_.data(), cur_.size(), -1, false};
    llama_sampler_apply(grammar_.get(), &arr);
    token = Pick(&arr);
  } else {
    Fill(logits);
    llama_token_data_array arr{cur_.data(), cur_.size(), -1, false};
    token = Pick(&arr);
    if (grammar_) {
      llama_token_data single{token, 1.0f, 0.0f};
      llama_token_data_array one{&single, 1, -1, false};
      llama_sampler_apply(grammar_.get(), &one);
      if (std::isinf(single.logit)) token = Resample(logits);
    }
  }
  if (grammar_) llama_sampler_accept(grammar_.get(), token);
  probe_valid_ = false;
  llama_sampler_accept(chain_.get(), token);
  return token;
}

ForcedText ConstrainedSampler::TakeForced(size_t max_bytes) {
  ForcedText out;
  if (!grammar_) return out;
  llama_sampler_ptr probe(llama_sampler_clone(grammar_.get()));
  bool advanced = false;
  while (out.text.size() < max_bytes) {
    probe_.clear();
    for (llama_token t : info_->byte_token) {
      if (t >= 0) probe_.push_back({t, 0.0f, 0.0f});
    }
    for (llama_token t : info_->eog) probe_.push_back({t, 0.0f, 0.0f});
    llama_token_data_array arr{probe_.data(), probe_.size(), -1, false};
    llama_sampler_apply(probe.get(), &arr);
    int allowed = 0;
    int eog_allowed = 0;
    llama_token only = -1;
    allowed_bytes_.fill(false);
    for (size_t i = 0; i < arr.size; ++i) {
      if (std::isinf(arr.data[i].logit)) continue;
      if (i >= arr.size - info_->eog.size()) {
        ++eog_allowed;
      } else {
        ++allowed;
        only = arr.data[i].id;
        allowed_bytes_[static_cast<unsigned char>(info_->Piece(only)[0])] = true;
      }
    }
    allowed_count_ = allowed;
    eog_allowed_ = eog_allowed > 0;
    probe_valid_ = true;
    if (allowed == 0 && eog_allowed > 0) {
      out.complete = true;
      break;
    }
    if (allowed != 1 || eog_allowed > 0) break;
    llama_sampler_accept(probe.get(), only);
    probe_valid_ = false;
    out.text += info_->Piece(only);
    advanced = true;
  }
  if (advanced) grammar_ = std::move(probe);
  return out;
}

void ConstrainedSampler::AcceptForced(const std::vector<llama_token>& tokens) {
  for (llama_token t : tokens) llama_sampler_accept(chain_.get(), t);
}

}  // namespace nunchi::llama
