// nunchi_judges_eval DATA.jsonl [--json]
// Developer runner: evaluates DefaultJudge on labeled bundles and prints the
// text report (or the JSON report). The product CLI is `nunchi eval`.
#include <fstream>
#include <iostream>
#include <string>

#include "judges/default_judge.h"
#include "judges/eval.h"
#include "judges/rules.h"

namespace nj = nunchi::judges;

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: nunchi_judges_eval DATA.jsonl [--json] [--rules-only|--classifier-only] "
                 "[--no-relevance-override] "
                 "[--no-level-override] [--raw-thresholds] [--relevance-override X] "
                 "[--rules-min-confidence X] [--level-override X] | "
                 "--explain TEXT [SPOT]\n";
    return 2;
  }
  if (std::string(argv[1]) == "--explain" && argc > 2) {
    nunchi::SpotInfo spot{"s", argc > 3 ? argv[3] : "", ""};
    nunchi::judges::RuleContext ctx;
    ctx.spot = &spot;
    auto v = nunchi::judges::Rules().Analyze(argv[2], ctx);
    std::cout << "decided=" << v.decided << " conf=" << v.confidence << " reason=" << v.reason
              << " " << nunchi::ToString(v.judgment.relevance) << "/"
              << nunchi::ToString(v.judgment.level) << "/" << nunchi::ToString(v.judgment.cause)
              << " text=" << v.judgment.cause_text << "\n";
    return 0;
  }
  std::ifstream in(argv[1]);
  auto bundles = nj::ReadBundlesJsonl(in);
  if (!bundles.ok()) {
    std::cerr << bundles.status().ToString() << "\n";
    return 1;
  }
  nj::DefaultJudgeOptions options;
  for (int k = 2; k < argc; ++k) {
    std::string a = argv[k];
    if (a == "--rules-only") options.mode = nj::DefaultJudgeOptions::Mode::kRulesOnly;
    if (a == "--classifier-only") options.mode = nj::DefaultJudgeOptions::Mode::kClassifierOnly;
    if (a == "--no-relevance-override") options.relevance_override = 1.01f;  // ablations
    if (a == "--no-level-override") options.level_override = 1.01f;
    if (a == "--raw-thresholds") options.classifier_calibrated_relevant = -1;
    // Sweeps of the arbitration between rules and classifier (docs/quality.md).
    if (k + 1 < argc && a == "--relevance-override")
      options.relevance_override = std::stof(argv[k + 1]);
    if (k + 1 < argc && a == "--rules-min-confidence")
      options.rules_min_confidence = std::stof(argv[k + 1]);
    if (k + 1 < argc && a == "--level-override") options.level_override = std::stof(argv[k + 1]);
  }
  nj::DefaultJudge judge(options);
  nj::EvalReport report = nj::Evaluate(judge, *bundles);
  bool json = false;
  for (int k = 2; k < argc; ++k) json = json || std::string(argv[k]) == "--json";
  std::cout << (json ? nj::EvalReportJson(report) : nj::EvalReportText(report, 200)) << "\n";
  return 0;
}
