// `nunchi judge` (judge every signal of JSON-lines post bundles and print one
// JSON line per signal) and `nunchi eval` (measure a judge on a labeled set).
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>

#include "app/commands.h"
#include "app/judge_factory.h"
#include "judges/bundles_jsonl.h"
#include "judges/eval.h"

namespace nunchi {
namespace {

Result<std::vector<judges::LabeledBundle>> ReadFile(const std::string& path) {
  std::ifstream in(path);
  if (!in) return Status(ErrorCode::kNotFound, "cannot open " + path);
  return judges::ReadBundlesJsonl(in);
}

int RunJudge(const std::string& input, const JudgeOptions& jo) {
  auto bundles = ReadFile(input);
  if (!bundles.ok()) {
    std::cerr << "nunchi judge: " << bundles.status().ToString() << "\n";
    return 1;
  }
  MetricsRegistry metrics;
  auto chain = MakeJudgeChain(jo, &metrics);
  if (!chain.ok()) {
    std::cerr << "nunchi judge: " << chain.status().ToString() << "\n";
    return 1;
  }
  int failures = 0;
  for (const auto& lb : *bundles) {
    JudgeTask task;
    task.spot = lb.spot;
    task.bundle = lb.bundle;
    task.analyzed_at = judges::kDataSetAnalyzedAtMs;
    for (size_t i = 0; i < lb.bundle.size(); ++i) task.targets.push_back(i);
    JudgeOutput out = (*chain)->judge().JudgeBundle(task);
    for (size_t k = 0; k < out.size(); ++k) {
      nlohmann::json line = {{"signal_id", lb.bundle.at(task.targets[k]).signal_id}};
      if (out[k].ok()) {
        const Judgment& j = out[k].value();
        line["relevance"] = ToString(j.relevance);
        line["level"] = ToString(j.level);
        line["cause"] = ToString(j.cause);
        line["cause_text"] = j.cause_text;
        line["judge"] = j.judge;
      } else {
        ++failures;
        line["error"] = out[k].status().ToString();
      }
      std::cout << line.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
    }
  }
  return failures == 0 ? 0 : 3;
}

int RunEval(const std::string& data, const JudgeOptions& jo, bool json) {
  auto bundles = ReadFile(data);
  if (!bundles.ok()) {
    std::cerr << "nunchi eval: " << bundles.status().ToString() << "\n";
    return 1;
  }
  MetricsRegistry metrics;
  auto chain = MakeJudgeChain(jo, &metrics);
  if (!chain.ok()) {
    std::cerr << "nunchi eval: " << chain.status().ToString() << "\n";
    return 1;
  }
  judges::EvalReport report = judges::Evaluate((*chain)->judge(), *bundles);
  std::cout << (json ? judges::EvalReportJson(report) : judges::EvalReportText(report)) << "\n";
  return 0;
}

}  // namespace

void AddJudgeCommand(CLI::App& app) {
  struct Opts {
    std::string input;
    JudgeOptions judge;
  };
  auto o = std::make_shared<Opts>();
  CLI::App* cmd = app.add_subcommand(
      "judge", "Judge every signal of post bundles (JSON lines) and print one JSON line each");
  cmd->add_option("--input", o->input, "Bundles as JSON lines (labels, if any, are ignored)")
      ->required();
  AddJudgeFlags(cmd, &o->judge);
  cmd->callback([o] { throw CLI::RuntimeError(RunJudge(o->input, o->judge)); });
}

void AddEvalCommand(CLI::App& app) {
  struct Opts {
    std::string data;
    bool json = false;
    JudgeOptions judge;
  };
  auto o = std::make_shared<Opts>();
  CLI::App* cmd = app.add_subcommand("eval", "Measure a judge on a labeled set of post bundles");
  cmd->add_option("--data", o->data, "Labeled bundles as JSON lines")->required();
  cmd->add_flag("--json", o->json, "Print machine-readable JSON");
  AddJudgeFlags(cmd, &o->judge);
  cmd->callback([o] { throw CLI::RuntimeError(RunEval(o->data, o->judge, o->json)); });
}

}  // namespace nunchi
