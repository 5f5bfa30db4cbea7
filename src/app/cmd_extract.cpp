// `nunchi eval-extract`: accuracy and latency of the image extraction on a
// directory of rendered images with ground truth.
#include "app/cmd_eval_extract.h"
#include "app/commands.h"

#include <CLI/CLI.hpp>

namespace nunchi {

void AddEvalExtractCommand(CLI::App& app) {
  struct Opts {
    std::string dir;
    bool json = false;
  };
  auto o = std::make_shared<Opts>();
  CLI::App* cmd = app.add_subcommand("eval-extract", "Measure amount extraction on rendered images");
  cmd->add_option("--dir", o->dir, "Directory of images with ground truth")->required();
  cmd->add_flag("--json", o->json, "Print machine-readable JSON");
  cmd->callback([o] { throw CLI::RuntimeError(RunEvalExtract(o->dir, o->json)); });
}

}  // namespace nunchi
