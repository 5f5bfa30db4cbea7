#include "engines/llama/batch.h"

namespace nunchi::llama {

Batch::Batch(int capacity) : batch_(llama_batch_init(capacity, 0, 1)), capacity_(capacity) {}

Batch::~Batch() { llama_batch_free(batch_); }

int Batch::Add(llama_token token, llama_pos pos, llama_seq_id seq, bool logits) {
  const int i = batch_.n_tokens++;
  batch_.token[i] = token;
  batch_.pos[i] = pos;
  batch_.n_seq_id[i] = 1;
  batch_.seq_id[i][0] = seq;
  batch_.logits[i] = logits ? 1 : 0;
  return i;
}

}  // namespace nunchi::llama
