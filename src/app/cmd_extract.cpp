// `nunchi eval-extract`: accuracy and latency of the image extraction on a
// directory of rendered images with ground truth; with --model, the field
// rules consult the in-process LLM chooser when they are unsure. And
// `nunchi render-extract`, which renders such a directory.
#include <CLI/CLI.hpp>
#include <iostream>

#include "app/cmd_eval_extract.h"
#include "app/commands.h"
#ifdef NUNCHI_HAVE_CHOOSERS
#include "app/llama_chooser.h"
#endif

namespace nunchi {
namespace {

struct EvalExtractOptions {
  std::string dir;
  bool json = false;
  std::string model_path;
  int threads = 0;
  int chooser_timeout_ms = 2000;
};

int RunEvalExtractCommand(const EvalExtractOptions& o) {
  if (o.model_path.empty()) return RunEvalExtract(o.dir, o.json);
#ifdef NUNCHI_HAVE_CHOOSERS
  ChooserFlags flags;
  flags.timeout_ms = o.chooser_timeout_ms;
  auto chooser = MakeStandaloneLlamaChooser(o.model_path, o.threads, flags);
  if (!chooser.ok()) {
    std::cerr << "eval-extract: " << chooser.status().ToString() << "\n";
    return 1;
  }
  int rc = RunEvalExtract(o.dir, o.json, chooser->get());
  std::cerr << "eval-extract: LLM chooser: " << ChooserSummary(chooser->get()) << "\n";
  return rc;
#else
  std::cerr << "eval-extract: this build has no llama.cpp engine (--model)\n";
  return 2;
#endif
}

}  // namespace

void AddEvalExtractCommand(CLI::App& app) {
  auto o = std::make_shared<EvalExtractOptions>();
  CLI::App* cmd =
      app.add_subcommand("eval-extract", "Measure amount extraction on rendered images");
  cmd->add_option("--dir", o->dir, "Directory of images with ground truth")->required();
  cmd->add_flag("--json", o->json, "Print machine-readable JSON");
  cmd->add_option("--model", o->model_path,
                  "GGUF model for the LLM chooser the field rules consult when unsure");
  cmd->add_option("--threads", o->threads, "llama.cpp threads (0: all cores)")
      ->capture_default_str();
  cmd->add_option("--chooser-timeout-ms", o->chooser_timeout_ms,
                  "Longest one LLM choice may take; then the rules' choice stands")
      ->capture_default_str();
  cmd->callback([o] { throw CLI::RuntimeError(RunEvalExtractCommand(*o)); });

  struct RenderOptions {
    std::string out;
    int count = 20;
    uint64_t seed = 1;
  };
  auto r = std::make_shared<RenderOptions>();
  CLI::App* render = app.add_subcommand("render-extract", "Render labelled synthetic images");
  render->add_option("--out", r->out, "Directory to write images and ground truth")->required();
  render->add_option("--count", r->count, "Number of images")->capture_default_str();
  render->add_option("--seed", r->seed, "Random seed")->capture_default_str();
  render->callback([r] { throw CLI::RuntimeError(RunRenderExtract(r->out, r->count, r->seed)); });
}

}  // namespace nunchi
