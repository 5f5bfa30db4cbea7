#include "judges/calibration.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "judges/cascade.h"

namespace nunchi::judges {

// Defined in the generated embedded_calibration.cpp (judges/CMakeLists.txt).
const char* EmbeddedCalibrationJson();

namespace {

bool Wrong(const SignalLabel& label, const Judgment& j) {
  if (label.relevance != j.relevance) return true;
  return label.relevance == Relevance::kRelevant && label.level != j.level;
}

std::string Version(const CascadeCalibration& c) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%s|%.6f|%.6f|%zu", c.method.c_str(), c.target, c.threshold,
                c.points);
  std::string key = buf;
  for (const std::string& d : c.data) key += "|" + d;
  uint32_t h = 2166136261u;  // FNV-1a
  for (unsigned char ch : key) h = (h ^ ch) * 16777619u;
  std::snprintf(buf, sizeof buf, "cal-%s-%08x", c.method.c_str(), h);
  return buf;
}

// Fills the shares for threshold t and the version.
CascadeCalibration Finish(CascadeCalibration c, const std::vector<CalibrationPoint>& points) {
  size_t escalated = 0, kept = 0, kept_wrong = 0;
  for (const auto& p : points) {
    if (p.confidence < c.threshold) {
      ++escalated;
    } else {
      ++kept;
      kept_wrong += p.wrong;
    }
  }
  c.points = points.size();
  c.escalation_share = double(escalated) / double(points.size());
  c.kept_wrong_share = double(kept_wrong) / double(points.size());
  c.kept_error = kept ? double(kept_wrong) / double(kept) : 0;
  c.version = Version(c);
  return c;
}

}  // namespace

std::vector<CalibrationPoint> CollectPoints(Judge& judge,
                                            const std::vector<LabeledBundle>& bundles) {
  std::vector<CalibrationPoint> points;
  for (const LabeledBundle& lb : bundles) {
    JudgeTask task;
    task.spot = lb.spot;
    task.bundle = lb.bundle;
    task.analyzed_at = kDataSetAnalyzedAtMs;
    for (size_t i = 0; i < lb.labels.size(); ++i)
      if (lb.labels[i]) task.targets.push_back(i);
    if (task.targets.empty()) continue;
    JudgeOutput out = judge.JudgeBundle(task);
    for (size_t k = 0; k < task.targets.size() && k < out.size(); ++k) {
      const SignalLabel& label = *lb.labels[task.targets[k]];
      if (!out[k].ok()) {
        points.push_back({0.0, true});
        continue;
      }
      points.push_back({CascadeConfidence(out[k].value()), Wrong(label, out[k].value())});
    }
  }
  return points;
}

Result<CascadeCalibration> CalibrateForShare(std::vector<CalibrationPoint> points, double share) {
  if (points.empty()) return Status(ErrorCode::kInvalidArgument, "no labeled signals");
  if (!(share > 0 && share < 1))
    return Status(ErrorCode::kInvalidArgument, "--target-share must be in (0, 1)");
  std::sort(points.begin(), points.end(),
            [](const auto& a, const auto& b) { return a.confidence < b.confidence; });
  const size_t m = std::min(points.size() - 1, size_t(std::lround(share * double(points.size()))));
  CascadeCalibration c;
  c.method = "share";
  c.target = share;
  c.threshold = points[m].confidence;
  return Finish(std::move(c), points);
}

Result<CascadeCalibration> CalibrateForRisk(std::vector<CalibrationPoint> points, double max_risk) {
  if (points.empty()) return Status(ErrorCode::kInvalidArgument, "no labeled signals");
  if (!(max_risk > 0 && max_risk < 1))
    return Status(ErrorCode::kInvalidArgument, "--max-risk must be in (0, 1)");
  std::sort(points.begin(), points.end(),
            [](const auto& a, const auto& b) { return a.confidence < b.confidence; });
  const double n = double(points.size());
  // Walk λ up through the confidences: at points[i].confidence every point
  // from the first with that confidence on is kept.
  size_t wrong_kept = 0;
  for (const auto& p : points) wrong_kept += p.wrong;
  CascadeCalibration c;
  c.method = "risk";
  c.target = max_risk;
  c.threshold = 1.0 + 1e-9;  // nothing fits: escalate everything
  for (size_t i = 0; i < points.size();) {
    const double lambda = points[i].confidence;
    if (n / (n + 1) * (double(wrong_kept) / n) + 1 / (n + 1) <= max_risk) {
      c.threshold = lambda;
      break;
    }
    for (; i < points.size() && points[i].confidence == lambda; ++i) wrong_kept -= points[i].wrong;
  }
  if (c.threshold > 1 && 1 / (n + 1) <= max_risk) c.threshold = points.back().confidence + 1e-9;
  return Finish(std::move(c), points);
}

CascadeCalibration WithData(CascadeCalibration c, std::vector<std::string> data) {
  c.data = std::move(data);
  c.version = Version(c);
  return c;
}

std::string CalibrationToJson(const CascadeCalibration& c) {
  nlohmann::ordered_json j;
  j["version"] = c.version;
  j["method"] = c.method;
  j["target"] = c.target;
  j["threshold"] = c.threshold;
  j["points"] = c.points;
  j["escalation_share"] = c.escalation_share;
  j["kept_wrong_share"] = c.kept_wrong_share;
  j["kept_error"] = c.kept_error;
  j["data"] = c.data;
  return j.dump(2) + "\n";
}

Result<CascadeCalibration> ParseCalibration(const std::string& text) {
  auto j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object())
    return Status(ErrorCode::kInvalidArgument, "calibration: not a JSON object");
  CascadeCalibration c;
  try {
    c.version = j.at("version").get<std::string>();
    c.method = j.at("method").get<std::string>();
    c.target = j.at("target").get<double>();
    c.threshold = j.at("threshold").get<double>();
    c.points = j.at("points").get<size_t>();
    c.escalation_share = j.value("escalation_share", 0.0);
    c.kept_wrong_share = j.value("kept_wrong_share", 0.0);
    c.kept_error = j.value("kept_error", 0.0);
    c.data = j.value("data", std::vector<std::string>{});
  } catch (const nlohmann::json::exception& e) {
    return Status(ErrorCode::kInvalidArgument, std::string("calibration: ") + e.what());
  }
  if (c.method != "share" && c.method != "risk")
    return Status(ErrorCode::kInvalidArgument, "calibration: method must be share or risk");
  if (!(c.threshold >= 0 && c.threshold <= 1.5))
    return Status(ErrorCode::kInvalidArgument, "calibration: threshold outside [0, 1.5]");
  if (c.version != Version(c))
    return Status(ErrorCode::kInvalidArgument, "calibration: version " + c.version +
                                                   " does not match its content (" + Version(c) +
                                                   "); write it with `nunchi calibrate`");
  return c;
}

const CascadeCalibration& EmbeddedCalibration() {
  static const CascadeCalibration c = [] {
    auto parsed = ParseCalibration(EmbeddedCalibrationJson());
    if (parsed.ok()) return *parsed;
    CascadeCalibration none;  // a broken embedded file never escalates (a test guards it)
    none.version = "cal-invalid";
    none.method = "share";
    return none;
  }();
  return c;
}

}  // namespace nunchi::judges
