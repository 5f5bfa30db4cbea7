#include "service/validate.h"

#include <unordered_map>
#include <unordered_set>

namespace nunchi {
namespace {

struct Where {
  SignalKind kind;
  const std::string* post_id;
};

}  // namespace

std::vector<FieldError> ValidateRequest(const AnalysisRequest& req, const RequestLimits& limits) {
  std::vector<FieldError> errs;
  auto add = [&](std::string p, std::string d) { errs.push_back({std::move(p), std::move(d)}); };

  if (req.spots.size() > limits.max_spots)
    add("/spots", "too many spots: " + std::to_string(req.spots.size()) + " > " +
                      std::to_string(limits.max_spots));
  if (req.new_signals.size() > limits.max_new_signals)
    add("/new_signals", "too many new signals: " + std::to_string(req.new_signals.size()) +
                            " > " + std::to_string(limits.max_new_signals));

  std::unordered_set<std::string> spot_ids;
  std::unordered_map<std::string, Where> signals;
  size_t total = 0;
  for (size_t s = 0; s < req.spots.size(); ++s) {
    const Spot& spot = req.spots[s];
    std::string sp = "/spots/" + std::to_string(s);
    if (spot.info.spot_id.empty()) add(sp + "/spot_id", "spot_id must not be empty");
    if (!spot_ids.insert(spot.info.spot_id).second)
      add(sp + "/spot_id", "duplicate spot_id '" + spot.info.spot_id + "'");
    for (size_t b = 0; b < spot.bundles.size(); ++b) {
      const Bundle& bundle = spot.bundles[b];
      std::string bp = sp + "/bundles/" + std::to_string(b);
      if (bundle.post_id != bundle.post.signal_id)
        add(bp + "/post_id", "post_id '" + bundle.post_id + "' differs from post.signal_id '" +
                                 bundle.post.signal_id + "'");
      for (size_t i = 0; i < bundle.size(); ++i) {
        const Signal& sig = bundle.at(i);
        std::string p = i == 0 ? bp + "/post" : bp + "/comments/" + std::to_string(i - 1);
        ++total;
        if (sig.signal_id.empty()) add(p + "/signal_id", "signal_id must not be empty");
        auto [it, fresh] = signals.emplace(
            sig.signal_id, Where{i == 0 ? SignalKind::kPost : SignalKind::kComment, &bundle.post_id});
        if (!fresh) add(p + "/signal_id", "duplicate signal_id '" + sig.signal_id + "'");
        size_t n = Utf8Length(sig.text);
        if (n > limits.max_text_chars)
          add(p + "/text", "text has " + std::to_string(n) + " characters; the limit is " +
                               std::to_string(limits.max_text_chars));
      }
    }
  }
  if (total > limits.max_signals)
    add("/spots", "too many signals: " + std::to_string(total) + " > " +
                      std::to_string(limits.max_signals));

  std::unordered_set<std::string> seen_new;
  for (size_t i = 0; i < req.new_signals.size(); ++i) {
    const NewSignal& ns = req.new_signals[i];
    std::string p = "/new_signals/" + std::to_string(i);
    if (!seen_new.insert(ns.signal_id).second)
      add(p + "/signal_id", "signal '" + ns.signal_id + "' is listed twice");
    auto it = signals.find(ns.signal_id);
    if (it == signals.end()) {
      add(p + "/signal_id", "new signal '" + ns.signal_id + "' is in no bundle");
      continue;
    }
    if (it->second.kind != ns.kind)
      add(p + "/kind", std::string("signal '") + ns.signal_id + "' is a " +
                           (it->second.kind == SignalKind::kPost ? "POST" : "COMMENT") +
                           " in its bundle");
    if (*it->second.post_id != ns.post_id)
      add(p + "/post_id", "signal '" + ns.signal_id + "' belongs to post '" + *it->second.post_id +
                              "', not '" + ns.post_id + "'");
  }
  return errs;
}

}  // namespace nunchi
