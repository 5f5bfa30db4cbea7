// `nunchi simulate-cascade`: what the cascade buys, measured WITHOUT a real
// model. The LLM is bench/oracle_server.h, a simulated model that answers the
// gold label with probability p, reached through the real remote judge over
// loopback. For each data file (and all pooled) it prints relevance and level
// accuracy of the default judge alone, the simulated LLM alone and the
// cascade at each escalation share. The share's threshold is the quantile of
// the default judge's confidences on the same data (labels are not used to
// pick it). Every figure it prints is a simulation.
#include <cstdio>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "app/commands.h"
#include "bench/oracle_server.h"
#include "engines/remote/remote_judge.h"
#include "judges/calibration.h"
#include "judges/cascade.h"
#include "judges/default_judge.h"
#include "judges/eval.h"

namespace nunchi {
namespace {

struct SimOpts {
  std::vector<std::string> data;
  std::vector<double> p = {0.80, 0.90, 0.95};
  std::vector<double> share = {0.10, 0.20, 0.30};
  std::string json_out;
  std::string export_out;  // the cascade's LLM verdicts (one --p, one --share), for `nunchi train`
};

// Judges every labeled signal with the cascade and writes the LLM's verdicts
// on the escalated ones as post-only training bundles (export-labels' format).
size_t ExportVerdicts(Judge& cascade, const std::vector<judges::LabeledBundle>& bundles,
                      std::ostream& out) {
  size_t n = 0;
  for (const auto& lb : bundles) {
    JudgeTask task;
    task.spot = lb.spot;
    task.bundle = lb.bundle;
    task.analyzed_at = judges::kDataSetAnalyzedAtMs;
    for (size_t i = 0; i < lb.labels.size(); ++i)
      if (lb.labels[i]) task.targets.push_back(i);
    JudgeOutput got = cascade.JudgeBundle(task);
    for (size_t k = 0; k < got.size() && k < task.targets.size(); ++k) {
      if (!got[k].ok() || !got[k]->cascade ||
          got[k]->cascade->outcome != CascadeRecord::Outcome::kLlm)
        continue;
      const Signal& s = lb.bundle.at(task.targets[k]);
      nlohmann::ordered_json line = {
          {"bundle_id", "sim-" + s.signal_id},
          {"spot", {{"spot_id", lb.spot.spot_id}, {"name", lb.spot.name},
                    {"description", lb.spot.description}}},
          {"post",
           {{"signal_id", s.signal_id},
            {"author_id", s.author_id},
            {"minutes_ago", 0},
            {"text", s.text},
            {"label",
             {{"relevance", std::string(ToString(got[k]->relevance))},
              {"level", std::string(ToString(got[k]->level))},
              {"cause", std::string(ToString(got[k]->cause))}}}}},
          {"comments", nlohmann::json::array()}};
      out << line.dump() << "\n";
      ++n;
    }
  }
  return n;
}

struct Row {
  std::string set, arm;
  double p = 0, share = 0, relevance = 0, level = 0, escalated = 0;
};

Row Measure(Judge& judge, const std::vector<judges::LabeledBundle>& bundles,
            std::string set, std::string arm) {
  judges::EvalReport r = judges::Evaluate(judge, bundles);
  Row row;
  row.set = std::move(set);
  row.arm = std::move(arm);
  row.relevance = r.relevance_accuracy;
  row.level = r.level_accuracy_on_relevant;
  return row;
}

int RunSimulate(const SimOpts& o) {
  std::vector<std::pair<std::string, std::vector<judges::LabeledBundle>>> sets;
  std::vector<judges::LabeledBundle> pooled;
  for (const std::string& path : o.data) {
    std::ifstream in(path);
    auto b = in ? judges::ReadBundlesJsonl(in)
                : Result<std::vector<judges::LabeledBundle>>(
                      Status(ErrorCode::kNotFound, "cannot open " + path));
    if (!b.ok()) {
      std::cerr << "nunchi simulate-cascade: " << path << ": " << b.status().ToString() << "\n";
      return 1;
    }
    std::string name = path.substr(path.find_last_of('/') + 1);
    pooled.insert(pooled.end(), b->begin(), b->end());
    sets.emplace_back(name, std::move(*b));
  }
  if (!o.export_out.empty() && (sets.size() != 1 || o.p.size() != 1 || o.share.size() != 1)) {
    std::cerr << "nunchi simulate-cascade: --export needs one --data, one --p and one --share\n";
    return 2;
  }
  if (sets.size() > 1) sets.emplace_back("pooled", pooled);

  judges::DefaultJudge cheap;
  std::vector<Row> rows;
  std::printf("SIMULATION: the LLM is an oracle answering the gold label with probability p\n");
  std::printf("| set | arm | p | share | escalated | relevance | level (relevant) |\n");
  std::printf("|---|---|---|---|---|---|---|\n");
  auto print = [&](const Row& r) {
    std::printf("| %s | %s | %s | %s | %s | %.1f %% | %.1f %% |\n", r.set.c_str(), r.arm.c_str(),
                r.p > 0 ? std::to_string(r.p).substr(0, 4).c_str() : "—",
                r.share > 0 ? std::to_string(r.share).substr(0, 4).c_str() : "—",
                r.arm == "cascade" ? (std::to_string(int(r.escalated * 1000) / 10.0).substr(0, 4) + " %").c_str() : "—",
                100 * r.relevance, 100 * r.level);
    rows.push_back(r);
  };
  for (const auto& [name, bundles] : sets) {
    print(Measure(cheap, bundles, name, "default"));
    auto points = judges::CollectPoints(cheap, bundles);
    for (double p : o.p) {
      bench::OracleServer oracle(pooled, {p, 1, 0, 0});
      remote::RemoteOptions ro;
      ro.name = "oracle";
      ro.base_url = oracle.base_url();
      char model[32];
      std::snprintf(model, sizeof model, "oracle-p%.2f", p);
      ro.model = model;
      ro.stream = false;
      ro.max_concurrency = 8;
      auto llm = remote::RemoteJudge::Create(ro);
      if (!llm.ok()) {
        std::cerr << "nunchi simulate-cascade: " << llm.status().ToString() << "\n";
        return 1;
      }
      Row alone = Measure(**llm, bundles, name, "llm");
      alone.p = p;
      print(alone);
      for (double s : o.share) {
        auto cal = judges::CalibrateForShare(points, s);
        if (!cal.ok()) return 1;
        judges::CascadeOptions co;
        co.threshold = cal->threshold;
        co.calibration_version = "simulated-share";
        judges::Cascade cascade(&cheap, llm->get(), co);
        Row r = Measure(cascade, bundles, name, "cascade");
        r.p = p;
        r.share = s;
        r.escalated = double(cascade.stats().escalated.load()) /
                      double(std::max<uint64_t>(cascade.stats().targets.load(), 1));
        print(r);
        if (!o.export_out.empty()) {
          std::ofstream out(o.export_out);
          size_t n = ExportVerdicts(cascade, bundles, out);
          std::fprintf(stderr, "%s: %zu simulated LLM verdicts\n", o.export_out.c_str(), n);
        }
      }
      if (oracle.unknown_items() > 0)
        std::fprintf(stderr, "warning: %llu judged items were not found in the labeled set\n",
                     static_cast<unsigned long long>(oracle.unknown_items()));
    }
  }
  if (!o.json_out.empty()) {
    nlohmann::json j = nlohmann::json::array();
    for (const Row& r : rows)
      j.push_back({{"set", r.set}, {"arm", r.arm}, {"p", r.p}, {"share", r.share},
                   {"escalated", r.escalated}, {"relevance", r.relevance}, {"level", r.level},
                   {"simulation", true}});
    std::ofstream(o.json_out) << j.dump(2) << "\n";
  }
  return 0;
}

}  // namespace

void AddSimulateCascadeCommand(CLI::App& app) {
  auto o = std::make_shared<SimOpts>();
  CLI::App* cmd = app.add_subcommand(
      "simulate-cascade",
      "Cascade accuracy with a SIMULATED LLM (gold label with probability p), per data file");
  cmd->add_option("--data", o->data, "Labeled bundles as JSON lines (repeat for several)")
      ->required()
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  cmd->add_option("--p", o->p, "Probabilities of the gold label")
      ->delimiter(',')
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
      ->check(CLI::Range(0.0, 1.0));
  cmd->add_option("--share", o->share, "Escalation shares")
      ->delimiter(',')
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
      ->check(CLI::Range(0.0, 1.0));
  cmd->add_option("--json", o->json_out, "Also write the rows as JSON");
  cmd->add_option("--export", o->export_out,
                  "Write the cascade's simulated LLM verdicts as training lines (needs one --data, "
                  "one --p and one --share)");
  cmd->callback([o] { throw CLI::RuntimeError(RunSimulate(*o)); });
}

}  // namespace nunchi
