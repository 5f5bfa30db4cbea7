// Batch: RAII owner of a llama_batch (llama_batch_init / llama_batch_free)
// with an Add() that fills one token for one sequence. Not thread-safe; the
// engine thread owns its batch.
#pragma once

#include "llama.h"

namespace nunchi::llama {

class Batch {
 public:
  explicit Batch(int capacity);
  ~Batch();
  Batch(const Batch&) = delete;
  Batch& operator=(const Batch&) = delete;

  void Clear() { batch_.n_tokens = 0; }
  // Appends a token; returns its index in the batch (for llama_get_logits_ith).
  int Add(llama_token token, llama_pos pos, llama_seq_id seq, bool logits);
  int size() const { return batch_.n_tokens; }
  int capacity() const { return capacity_; }
  bool full() const { return batch_.n_tokens >= capacity_; }
  const llama_batch& get() const { return batch_; }

 private:
  llama_batch batch_;
  int capacity_;
};

}  // namespace nunchi::llama
