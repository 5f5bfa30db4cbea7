// CascadeCalibration of the cascade's escalation threshold (judges/cascade.h) on
// labeled bundles, and the versioned calibration file that carries it.
//
// A point is one labeled signal: the cheap judge's CascadeConfidence and
// whether its judgment was wrong (relevance wrong, or level wrong on a signal
// labeled RELEVANT). Signals with confidence below the threshold λ are
// escalated. Two ways to pick λ:
//   share S  λ is the S-quantile of the confidences, so about a share S of
//            signals escalates (no guarantee on the error of the rest);
//   risk A   conformal risk control (Angelopoulos et al., 2022): the loss of a
//            signal is 1 when it is kept (confidence ≥ λ) and wrong, which
//            falls as λ rises; λ is the smallest value with
//              n/(n+1) · R̂(λ) + 1/(n+1) ≤ A,
//            R̂ the mean loss on the n calibration points. For a new signal
//            exchangeable with them, P(kept and wrong) ≤ A.
// Pure functions; safe from any thread.
#pragma once

#include <string>
#include <vector>

#include "domain/status.h"
#include "judges/bundles_jsonl.h"
#include "judges/judge.h"

namespace nunchi::judges {

struct CalibrationPoint {
  double confidence = 0;
  bool wrong = false;
};

struct CascadeCalibration {
  std::string version;  // "cal-<method>-<8 hex digits of the content>"
  std::string method;   // "share" or "risk"
  double target = 0;    // S or A
  double threshold = 0;
  size_t points = 0;
  double escalation_share = 0;    // on the calibration points
  double kept_wrong_share = 0;    // kept and wrong, over all points
  double kept_error = 0;          // wrong among the kept
  std::vector<std::string> data;  // the files it was fitted on
};

// One point per labeled signal of the bundles, judged by `judge` (all targets at once).
std::vector<CalibrationPoint> CollectPoints(Judge& judge,
                                            const std::vector<LabeledBundle>& bundles);

// kInvalidArgument when points is empty or the target is outside (0, 1).
Result<CascadeCalibration> CalibrateForShare(std::vector<CalibrationPoint> points, double share);
Result<CascadeCalibration> CalibrateForRisk(std::vector<CalibrationPoint> points, double max_risk);

// The same calibration with the names of the files it was fitted on (part of its version).
CascadeCalibration WithData(CascadeCalibration c, std::vector<std::string> data);

// The file format (JSON); Parse checks every field. The version is derived
// from the content, so a changed threshold is a new version.
std::string CalibrationToJson(const CascadeCalibration& c);
Result<CascadeCalibration> ParseCalibration(const std::string& json);
// The calibration compiled into the binary from data/calibration/cascade.json.
const CascadeCalibration& EmbeddedCalibration();

}  // namespace nunchi::judges
