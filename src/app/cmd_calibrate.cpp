// `nunchi calibrate`: picks the cascade's escalation threshold on labeled
// bundles (judges/calibration.h says how) and writes the versioned
// calibration file that the build compiles in (data/calibration/cascade.json).
#include <filesystem>
#include <fstream>
#include <iostream>

#include "app/commands.h"
#include "judges/bundles_jsonl.h"
#include "judges/calibration.h"
#include "judges/default_judge.h"

namespace nunchi {
namespace {

struct CalibrateOpts {
  std::vector<std::string> data;
  double share = -1;
  double risk = -1;
  std::string out = "data/calibration/cascade.json";
};

int RunCalibrate(const CalibrateOpts& o) {
  if ((o.share < 0) == (o.risk < 0)) {
    std::cerr << "nunchi calibrate: give exactly one of --target-share and --max-risk\n";
    return 2;
  }
  std::vector<judges::CalibrationPoint> points;
  judges::DefaultJudge judge;
  std::vector<std::string> names;
  for (const std::string& path : o.data) {
    std::ifstream in(path);
    if (!in) {
      std::cerr << "nunchi calibrate: cannot open " << path << "\n";
      return 1;
    }
    auto bundles = judges::ReadBundlesJsonl(in);
    if (!bundles.ok()) {
      std::cerr << "nunchi calibrate: " << path << ": " << bundles.status().ToString() << "\n";
      return 1;
    }
    auto p = judges::CollectPoints(judge, *bundles);
    std::cout << path << ": " << p.size() << " labeled signals\n";
    points.insert(points.end(), p.begin(), p.end());
    names.push_back(std::filesystem::path(path).filename().string());
  }
  auto cal = o.share >= 0 ? judges::CalibrateForShare(points, o.share)
                          : judges::CalibrateForRisk(points, o.risk);
  if (!cal.ok()) {
    std::cerr << "nunchi calibrate: " << cal.status().ToString() << "\n";
    return 2;
  }
  judges::CascadeCalibration c = judges::WithData(*cal, names);
  std::string json = judges::CalibrationToJson(c);
  std::ofstream out(o.out);
  if (!out) {
    std::cerr << "nunchi calibrate: cannot write " << o.out << "\n";
    return 1;
  }
  out << json;
  std::printf("%s: threshold %.4f (%s %.3f), escalates %.1f %% of %zu signals, kept and wrong "
              "%.1f %%, error among kept %.1f %%\n",
              o.out.c_str(), c.threshold, c.method.c_str(), c.target, 100 * c.escalation_share,
              c.points, 100 * c.kept_wrong_share, 100 * c.kept_error);
  return 0;
}

}  // namespace

void AddCalibrateCommand(CLI::App& app) {
  auto o = std::make_shared<CalibrateOpts>();
  CLI::App* cmd = app.add_subcommand(
      "calibrate", "Pick the cascade's escalation threshold on labeled bundles");
  cmd->add_option("--data", o->data, "Labeled bundles as JSON lines (repeat for several)")
      ->required()
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  cmd->add_option("--target-share", o->share, "Escalate about this share of signals (0..1)")
      ->check(CLI::Range(0.0, 1.0));
  cmd->add_option("--max-risk", o->risk,
                  "Escalate as little as conformal risk control allows with P(kept and wrong) "
                  "at most this (0..1)")
      ->check(CLI::Range(0.0, 1.0));
  cmd->add_option("--out", o->out, "CascadeCalibration file to write")->capture_default_str();
  cmd->callback([o] { throw CLI::RuntimeError(RunCalibrate(*o)); });
}

}  // namespace nunchi
