#include "app/cmd_make_model.h"

#include <memory>

#include "engines/llama/make_model.h"

namespace nunchi {

void AddMakeModelCommand(CLI::App& app) {
  auto options = std::make_shared<llama::MakeModelOptions>();
  CLI::App* cmd = app.add_subcommand(
      "make-model", "Write a GGUF model with random weights on the Qwen2 tokenizer");
  cmd->add_option("--shape", options->shape, "Model shape: tiny | qwen3-0.6b")
      ->check(CLI::IsMember({"tiny", "qwen3-0.6b"}))
      ->capture_default_str();
  cmd->add_option("--out", options->out, "Output .gguf file")->required();
  cmd->add_option("--quant", options->quant, "F32 | F16 | Q8_0 | Q4_K_M")
      ->check(CLI::IsMember({"F32", "F16", "Q8_0", "Q4_K_M"}))
      ->capture_default_str();
  cmd->add_option("--vocab", options->vocab,
                  "Tokenizer GGUF (default: the one setup-llama.sh installed)");
  cmd->add_option("--seed", options->seed, "Random seed")->capture_default_str();
  cmd->add_option("--threads", options->threads, "Quantization threads (0: all)");
  cmd->add_flag("--quiet", options->quiet, "No progress output");
  cmd->callback([options] { throw CLI::RuntimeError(llama::RunMakeModel(*options)); });
}

}  // namespace nunchi
