// The subcommands of the `nunchi` binary; each adds itself to the CLI11 app
// and runs from its callback (exiting through CLI::RuntimeError(code)).
#pragma once

#include <CLI/CLI.hpp>

namespace nunchi {

void AddServeCommand(CLI::App& app);
void AddJudgeCommand(CLI::App& app);
void AddEvalCommand(CLI::App& app);
void AddCalibrateCommand(CLI::App& app);     // the cascade threshold (app/cmd_calibrate.cpp)
void AddExportLabelsCommand(CLI::App& app);  // app/cmd_export_labels.cpp
void AddTrainCommand(CLI::App& app);         // app/cmd_train.cpp
void AddEvalExtractCommand(CLI::App& app);   // when built with image extraction
void AddLlamaCommands(CLI::App& app);        // make-model, bench-engine, tokens: with llama.cpp
void AddTokensCommand(CLI::App& app);        // app/cmd_tokens.cpp (from AddLlamaCommands)
// With llama.cpp: re-executes the binary once with OMP_WAIT_POLICY=passive
// unless the OpenMP wait policy is set already (cmd_llama.cpp says why).
void PreferPassiveOpenMp(char** argv);
void AddBenchCommand(CLI::App& app);            // bench: with src/bench (app/cmd_bench.h)
void AddSimulateCascadeCommand(CLI::App& app);  // with src/bench and remote backends

}  // namespace nunchi
