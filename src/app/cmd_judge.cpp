// `nunchi judge` (judge every signal of JSON-lines post bundles and print one
// JSON line per signal) and `nunchi eval` (measure a judge on a labeled set).
#include <fstream>
#include <iostream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>

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

int RunEval(const std::vector<std::string>& data, const JudgeOptions& jo, bool json,
            const std::string& compare) {
  std::string old_json;
  if (!compare.empty()) {
    std::ifstream in(compare);
    if (!in) {
      std::cerr << "nunchi eval: cannot open " << compare << "\n";
      return 1;
    }
    old_json.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  MetricsRegistry metrics;
  auto chain = MakeJudgeChain(jo, &metrics);
  if (!chain.ok()) {
    std::cerr << "nunchi eval: " << chain.status().ToString() << "\n";
    return 1;
  }
  std::vector<std::pair<std::string, judges::EvalReport>> files;
  for (const std::string& path : data) {
    auto bundles = ReadFile(path);
    if (!bundles.ok()) {
      std::cerr << "nunchi eval: " << path << ": " << bundles.status().ToString() << "\n";
      return 1;
    }
    // The set's injection annotation, when it has one, says which texts are
    // injections; without it the detector's finds are listed instead.
    std::optional<std::set<std::string>> injections;
    const std::string annotation = judges::InjectionAnnotationPath(path);
    if (std::ifstream ann(annotation); ann) {
      auto ids = judges::ReadInjectionIds(ann, *bundles);
      if (!ids.ok()) {
        std::cerr << "nunchi eval: " << annotation << ": " << ids.status().ToString() << "\n";
        return 1;
      }
      injections = std::move(ids).value();
    }
    files.emplace_back(path,
                       judges::Evaluate((*chain)->judge(), *bundles, judges::kDataSetAnalyzedAtMs,
                                        injections ? &*injections : nullptr));
  }
  judges::MultiEval m = judges::MakeMultiEval(std::move(files));
  if (!compare.empty()) {
    auto diff = judges::CompareEvalJson(old_json, judges::MultiEvalJson(m));
    if (!diff.ok()) {
      std::cerr << "nunchi eval: " << compare << ": " << diff.status().ToString() << "\n";
      return 1;
    }
    std::cout << *diff;
    return 0;
  }
  std::cout << (json ? judges::MultiEvalJson(m) : judges::MultiEvalText(m)) << "\n";
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
    std::vector<std::string> data;
    bool json = false;
    std::string compare;
    JudgeOptions judge;
  };
  auto o = std::make_shared<Opts>();
  CLI::App* cmd = app.add_subcommand(
      "eval", "Measure a judge on labeled sets of post bundles (per file and pooled)");
  cmd->add_option("--data", o->data,
                  "Labeled bundles as JSON lines; repeat for several files (figures per file "
                  "and pooled)")
      ->required();
  cmd->add_flag("--json", o->json, "Print machine-readable JSON (every signal's judgment too)");
  cmd->add_option("--compare", o->compare,
                  "OLD.json from an earlier --json run: print each figure's difference and the "
                  "signals whose judgment changed");
  AddJudgeFlags(cmd, &o->judge);
  cmd->callback([o] { throw CLI::RuntimeError(RunEval(o->data, o->judge, o->json, o->compare)); });
}

}  // namespace nunchi
