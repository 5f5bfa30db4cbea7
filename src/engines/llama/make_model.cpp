#include "engines/llama/make_model.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>
#include <string_view>

#include "engines/llama/runtime.h"
#include "ggml.h"
#include "gguf.h"
#include "llama.h"

namespace nunchi::llama {
namespace {

namespace fs = std::filesystem;

struct GgufDeleter {
  void operator()(gguf_context* c) const { gguf_free(c); }
};
struct GgmlDeleter {
  void operator()(ggml_context* c) const { ggml_free(c); }
};
struct FileCloser {
  void operator()(FILE* f) const { std::fclose(f); }
};
using GgufPtr = std::unique_ptr<gguf_context, GgufDeleter>;
using GgmlPtr = std::unique_ptr<ggml_context, GgmlDeleter>;
using FilePtr = std::unique_ptr<FILE, FileCloser>;

// ChatML, which llama_chat_apply_template recognizes by its <|im_start|> marker.
constexpr const char* kChatMlTemplate =
    "{% for message in messages %}{{'<|im_start|>' + message['role'] + '\\n' + "
    "message['content'] + '<|im_end|>' + '\\n'}}{% endfor %}{% if add_generation_prompt %}"
    "{{ '<|im_start|>assistant\\n' }}{% endif %}";

// xoshiro-style fast generator; quality is irrelevant, speed is not (508 M values).
class Rng {
 public:
  explicit Rng(uint64_t seed) : s_(seed * 0x9E3779B97F4A7C15ull + 1) {}
  uint64_t Next() {
    s_ ^= s_ << 13;
    s_ ^= s_ >> 7;
    s_ ^= s_ << 17;
    return s_;
  }
  // Approximately normal (sum of four uniforms), unit variance.
  float Normal() {
    const uint64_t r = Next();
    float sum = 0;
    for (int i = 0; i < 4; ++i) sum += static_cast<float>((r >> (16 * i)) & 0xFFFF) / 65535.0f;
    return (sum - 2.0f) * 1.7320508f;  // var of sum = 4/12
  }

 private:
  uint64_t s_;
};

struct TensorSpec {
  std::string name;
  int64_t ne0 = 0;
  int64_t ne1 = 1;   // 1 for vectors
  float stddev = 0;  // 0: fill with ones (norm weights)
};

std::vector<TensorSpec> TensorsFor(const ModelShape& s, int64_t n_vocab) {
  const int64_t head_dim = s.width / s.heads;
  const int64_t kv_dim = head_dim * s.kv_heads;
  // Scaled so activations stay O(1) through the residual stream.
  const float w = 1.0f / std::sqrt(static_cast<float>(s.width));
  const float f = 1.0f / std::sqrt(static_cast<float>(s.ffn));
  std::vector<TensorSpec> t;
  // Embeddings (tied with the output) scaled so logits have a standard
  // deviation of about 2: peaked enough to be decisive, random enough to vary.
  t.push_back({"token_embd.weight", s.width, n_vocab, 2.0f * w});
  t.push_back({"output_norm.weight", s.width, 1, 0});
  for (int i = 0; i < s.layers; ++i) {
    const std::string b = "blk." + std::to_string(i) + ".";
    t.push_back({b + "attn_norm.weight", s.width, 1, 0});
    t.push_back({b + "attn_q.weight", s.width, s.width, w});
    t.push_back({b + "attn_k.weight", s.width, kv_dim, w});
    t.push_back({b + "attn_v.weight", s.width, kv_dim, w});
    t.push_back({b + "attn_output.weight", s.width, s.width, w});
    t.push_back({b + "ffn_norm.weight", s.width, 1, 0});
    t.push_back({b + "ffn_gate.weight", s.width, s.ffn, w});
    t.push_back({b + "ffn_up.weight", s.width, s.ffn, w});
    t.push_back({b + "ffn_down.weight", s.ffn, s.width, f});
  }
  return t;
}

std::optional<llama_ftype> FtypeOf(std::string_view q) {
  if (q == "F32") return LLAMA_FTYPE_ALL_F32;
  if (q == "F16") return LLAMA_FTYPE_MOSTLY_F16;
  if (q == "Q8_0") return LLAMA_FTYPE_MOSTLY_Q8_0;
  if (q == "Q4_K_M") return LLAMA_FTYPE_MOSTLY_Q4_K_M;
  return std::nullopt;
}

// Writes the F32/F16 model to path: metadata through gguf, then the tensor
// data streamed one tensor at a time (the qwen3-0.6b shape is 1 GB in F16).
Status WriteFloatModel(const ModelShape& shape, const MakeModelOptions& o, bool f32,
                       const std::string& path) {
  const std::string vocab_path = o.vocab.empty() ? DefaultVocabPath() : o.vocab;
  GgufPtr vocab(gguf_init_from_file(vocab_path.c_str(), {/*no_alloc=*/true, nullptr}));
  if (!vocab) return Status(ErrorCode::kIo, "cannot read vocabulary " + vocab_path);
  const int64_t tokens_key = gguf_find_key(vocab.get(), "tokenizer.ggml.tokens");
  if (tokens_key < 0) return Status(ErrorCode::kIo, "no tokenizer in " + vocab_path);
  const auto n_vocab = static_cast<int64_t>(gguf_get_arr_n(vocab.get(), tokens_key));

  GgufPtr out(gguf_init_empty());
  gguf_context* g = out.get();
  // Copy every tokenizer.* pair of the vocabulary file, nothing else.
  GgufPtr tok(gguf_init_empty());
  gguf_set_kv(tok.get(), vocab.get());
  for (int64_t i = gguf_get_n_kv(tok.get()) - 1; i >= 0; --i) {
    const std::string key = gguf_get_key(tok.get(), i);
    if (key.rfind("tokenizer.", 0) != 0) gguf_remove_key(tok.get(), key.c_str());
  }
  gguf_set_val_str(g, "general.architecture", "llama");
  gguf_set_val_str(g, "general.name", ("nunchi-random-" + shape.name).c_str());
  gguf_set_val_u32(g, "general.file_type", f32 ? LLAMA_FTYPE_ALL_F32 : LLAMA_FTYPE_MOSTLY_F16);
  gguf_set_val_u64(g, "nunchi.make_model.seed", o.seed);
  gguf_set_val_u32(g, "llama.context_length", shape.context);
  gguf_set_val_u32(g, "llama.embedding_length", shape.width);
  gguf_set_val_u32(g, "llama.block_count", shape.layers);
  gguf_set_val_u32(g, "llama.feed_forward_length", shape.ffn);
  gguf_set_val_u32(g, "llama.attention.head_count", shape.heads);
  gguf_set_val_u32(g, "llama.attention.head_count_kv", shape.kv_heads);
  gguf_set_val_u32(g, "llama.rope.dimension_count", shape.width / shape.heads);
  gguf_set_val_f32(g, "llama.rope.freq_base", 1000000.0f);
  gguf_set_val_f32(g, "llama.attention.layer_norm_rms_epsilon", 1e-6f);
  gguf_set_val_u32(g, "llama.vocab_size", static_cast<uint32_t>(n_vocab));
  gguf_set_kv(g, tok.get());
  gguf_set_val_str(g, "tokenizer.chat_template", kChatMlTemplate);

  const auto specs = TensorsFor(shape, n_vocab);
  ggml_init_params gp{ggml_tensor_overhead() * (specs.size() + 8), nullptr, /*no_alloc=*/true};
  GgmlPtr meta(ggml_init(gp));
  for (const auto& s : specs) {
    const ggml_type type = (f32 || s.ne1 == 1) ? GGML_TYPE_F32 : GGML_TYPE_F16;
    ggml_tensor* t = s.ne1 == 1 ? ggml_new_tensor_1d(meta.get(), GGML_TYPE_F32, s.ne0)
                                : ggml_new_tensor_2d(meta.get(), type, s.ne0, s.ne1);
    ggml_set_name(t, s.name.c_str());
    gguf_add_tensor(g, t);
  }
  if (!gguf_write_to_file(g, path.c_str(), /*only_meta=*/true)) {
    return Status(ErrorCode::kIo, "cannot write " + path);
  }
  FilePtr file(std::fopen(path.c_str(), "ab"));
  if (!file) return Status(ErrorCode::kIo, "cannot append to " + path);
  const size_t align = gguf_get_alignment(g);
  Rng rng(o.seed);
  std::vector<float> row;
  std::vector<ggml_fp16_t> half;
  for (size_t i = 0; i < specs.size(); ++i) {
    const auto& s = specs[i];
    const bool as_f32 = f32 || s.ne1 == 1;
    size_t written = 0;
    row.resize(s.ne0);
    half.resize(s.ne0);
    for (int64_t r = 0; r < s.ne1; ++r) {
      for (auto& v : row) v = s.stddev == 0 ? 1.0f : rng.Normal() * s.stddev;
      size_t n;
      if (as_f32) {
        n = std::fwrite(row.data(), sizeof(float), row.size(), file.get()) * sizeof(float);
      } else {
        ggml_fp32_to_fp16_row(row.data(), half.data(), s.ne0);
        n = std::fwrite(half.data(), sizeof(ggml_fp16_t), half.size(), file.get()) * 2;
      }
      if (n == 0) return Status(ErrorCode::kIo, "short write to " + path);
      written += n;
    }
    static const char zeros[64] = {};
    const size_t pad = (align - written % align) % align;
    if (pad > 0 && std::fwrite(zeros, 1, pad, file.get()) != pad) {
      return Status(ErrorCode::kIo, "short write to " + path);
    }
    if (!o.quiet && (i % 16 == 15 || i + 1 == specs.size())) {
      std::fprintf(stderr, "make-model: %zu/%zu tensors\n", i + 1, specs.size());
    }
  }
  if (std::fflush(file.get()) != 0) return Status(ErrorCode::kIo, "cannot flush " + path);
  return Status::Ok();
}

}  // namespace

std::vector<ModelShape> KnownShapes() {
  return {
      {"tiny", 2, 64, 192, 4, 2, 32768},
      {"qwen3-0.6b", 28, 1024, 3072, 16, 8, 32768},
  };
}

std::string DefaultVocabPath() { return NUNCHI_QWEN2_VOCAB; }

Status MakeModel(const MakeModelOptions& o) {
  InitLlamaRuntime();
  const auto shapes = KnownShapes();
  const auto shape = std::find_if(shapes.begin(), shapes.end(),
                                  [&](const ModelShape& s) { return s.name == o.shape; });
  if (shape == shapes.end()) return Status(ErrorCode::kInvalidArgument, "unknown shape " + o.shape);
  const auto ftype = FtypeOf(o.quant);
  if (!ftype) return Status(ErrorCode::kInvalidArgument, "unknown quantization " + o.quant);
  if (o.out.empty()) return Status(ErrorCode::kInvalidArgument, "no output path");

  // Written under a temporary name and renamed, so that concurrent writers
  // (parallel tests) never see a half-written model.
  const std::string tmp = o.out + ".tmp." + std::to_string(::getpid());
  const bool f32 = *ftype == LLAMA_FTYPE_ALL_F32;
  const bool quantize = *ftype != LLAMA_FTYPE_ALL_F32 && *ftype != LLAMA_FTYPE_MOSTLY_F16;
  const std::string float_path = quantize ? tmp + ".f16" : tmp;
  std::error_code ec;
  if (Status s = WriteFloatModel(*shape, o, f32, float_path); !s.ok()) {
    fs::remove(float_path, ec);
    return s;
  }
  if (quantize) {
    if (!o.quiet) std::fprintf(stderr, "make-model: quantizing to %s\n", o.quant.c_str());
    llama_model_quantize_params qp = llama_model_quantize_default_params();
    qp.ftype = *ftype;
    qp.nthread = o.threads;
    const uint32_t rc = llama_model_quantize(float_path.c_str(), tmp.c_str(), &qp);
    fs::remove(float_path, ec);
    if (rc != 0) {
      fs::remove(tmp, ec);
      return Status(ErrorCode::kIo, "quantization to " + o.quant + " failed");
    }
  }
  fs::rename(tmp, o.out, ec);
  if (ec) return Status(ErrorCode::kIo, "cannot rename to " + o.out + ": " + ec.message());
  return Status::Ok();
}

int RunMakeModel(const MakeModelOptions& options) {
  const Status s = MakeModel(options);
  if (!s.ok()) {
    std::fprintf(stderr, "make-model: %s\n", s.ToString().c_str());
    return 1;
  }
  if (!options.quiet) std::fprintf(stderr, "make-model: wrote %s\n", options.out.c_str());
  return 0;
}

}  // namespace nunchi::llama
