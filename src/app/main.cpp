// nunchi: one binary, many subcommands. This file only wires them.
#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <map>

#include "app/commands.h"
#include "app/config.h"
#include "git_commit.h"  // generated at build time: NUNCHI_GIT_COMMIT

int main(int argc, char** argv) {
#ifdef NUNCHI_HAVE_LLAMA
  nunchi::PreferPassiveOpenMp(argv);  // may exec this binary again, once
#endif
  // Tesseract's OpenMP threads would oversubscribe the cores next to the
  // extractor's own OCR engines; one each unless the user says otherwise.
  setenv("OMP_THREAD_LIMIT", "1", /*overwrite=*/0);
  CLI::App app{"nunchi: congestion judgments for a Korean crowd-reporting app"};
  app.require_subcommand(1);
  app.option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  app.set_version_flag("--version", "nunchi " NUNCHI_VERSION_STRING " (commit " NUNCHI_GIT_COMMIT
                                    ", llama.cpp " NUNCHI_LLAMA_COMMIT_ID ")");
  std::string config;
  app.add_option("--config", config, "TOML config file (also NUNCHI_CONFIG)");
  nunchi::AddServeCommand(app);
  nunchi::AddJudgeCommand(app);
  nunchi::AddEvalCommand(app);
  nunchi::AddCalibrateCommand(app);
  nunchi::AddExportLabelsCommand(app);
  nunchi::AddTrainCommand(app);
#ifdef NUNCHI_HAVE_EXTRACT
  nunchi::AddEvalExtractCommand(app);
#endif
#ifdef NUNCHI_HAVE_LLAMA
  nunchi::AddLlamaCommands(app);
#endif
#ifdef NUNCHI_HAVE_BENCH
  nunchi::AddBenchCommand(app);
#ifdef NUNCHI_HAVE_REMOTE
  nunchi::AddSimulateCascadeCommand(app);
#endif
#endif
  for (CLI::App* sub : app.get_subcommands({}))
    sub->add_option("--config", config, "TOML config file (also NUNCHI_CONFIG)");
  nunchi::CheckNumericRanges(app);
  app.footer(
      "Exit codes: 0 ok, 1 runtime error (cannot bind, open the store, load a model...), "
      "2 usage or configuration error (bad flag, value out of range, unknown config key or "
      "NUNCHI_* variable).");

  std::vector<std::string> args;
  std::string error;
  std::map<std::string, std::string> sources;
  if (!nunchi::LayerArguments(app, argc, argv, &args, &error, &sources)) {
    std::cerr << "nunchi: " << error << "\n";
    return nunchi::kExitUsage;
  }
  std::reverse(args.begin(), args.end());  // CLI11 takes vectors in reverse order
  try {
    app.parse(args);
  } catch (const CLI::RuntimeError& e) {  // a subcommand's own exit code
    return e.get_exit_code();
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help, --version
    std::cerr << "nunchi: " << nunchi::DescribeParseError(e, sources) << "\n"
              << "Run with --help for more information.\n";
    return nunchi::kExitUsage;
  }
  return nunchi::kExitOk;
}
