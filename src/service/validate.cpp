#include "service/validate.h"

#include <cstdint>
#include <unordered_map>
#include <unordered_set>

namespace nunchi {
namespace {

struct Where {
  SignalKind kind;
  const std::string* post_id;
};

// Length of the UTF-8 sequence starting at s[i] and its code point, or 0 when invalid.
size_t DecodeUtf8(std::string_view s, size_t i, uint32_t* cp) {
  const auto b = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = b(i);
  size_t n;
  uint32_t v;
  if (c < 0x80) {
    *cp = c;
    return 1;
  } else if ((c & 0xe0) == 0xc0) {
    n = 2, v = c & 0x1f;
  } else if ((c & 0xf0) == 0xe0) {
    n = 3, v = c & 0x0f;
  } else if ((c & 0xf8) == 0xf0) {
    n = 4, v = c & 0x07;
  } else {
    return 0;
  }
  if (i + n > s.size()) return 0;
  for (size_t k = 1; k < n; ++k) {
    if ((b(i + k) & 0xc0) != 0x80) return 0;
    v = (v << 6) | (b(i + k) & 0x3f);
  }
  static constexpr uint32_t kMin[] = {0, 0, 0x80, 0x800, 0x10000};
  if (v < kMin[n] || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff)) return 0;  // overlong, surrogate
  *cp = v;
  return n;
}

}  // namespace

std::string IdentifierProblem(std::string_view id, size_t max_bytes) {
  if (id.size() > max_bytes)
    return "identifier of " + std::to_string(id.size()) + " bytes; the limit is " +
           std::to_string(max_bytes);
  for (size_t i = 0; i < id.size();) {
    uint32_t cp = 0;
    const size_t n = DecodeUtf8(id, i, &cp);
    if (n == 0) return "identifier is not valid UTF-8 at byte " + std::to_string(i);
    if (cp < 0x20 || cp == 0x7f || (cp >= 0x80 && cp <= 0x9f))
      return "identifier holds a control character at byte " + std::to_string(i);
    i += n;
  }
  return {};
}

std::string QuoteId(std::string_view id) {
  constexpr size_t kShown = 48;
  if (id.size() <= kShown) return "'" + std::string(id) + "'";
  size_t cut = kShown;
  while (cut > 0 && (static_cast<unsigned char>(id[cut]) & 0xc0) == 0x80) --cut;
  return "'" + std::string(id.substr(0, cut)) + "...' (" + std::to_string(id.size()) + " bytes)";
}

std::vector<FieldError> ValidateRequest(const AnalysisRequest& req, const RequestLimits& limits) {
  std::vector<FieldError> errs;
  auto add = [&](std::string p, std::string d) { errs.push_back({std::move(p), std::move(d)}); };
  // An identifier that breaks the limits is reported once and checked no further.
  auto bad_id = [&](const std::string& pointer, const std::string& id) {
    std::string why = IdentifierProblem(id, limits.max_id_bytes);
    if (!why.empty()) add(pointer, why);
    return !why.empty();
  };
  if (req.state_epoch) bad_id("/state_epoch", *req.state_epoch);

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
    if (!bad_id(sp + "/spot_id", spot.info.spot_id) && !spot_ids.insert(spot.info.spot_id).second)
      add(sp + "/spot_id", "duplicate spot_id " + QuoteId(spot.info.spot_id));
    for (size_t b = 0; b < spot.bundles.size(); ++b) {
      const Bundle& bundle = spot.bundles[b];
      std::string bp = sp + "/bundles/" + std::to_string(b);
      if (!bad_id(bp + "/post_id", bundle.post_id) && bundle.post_id != bundle.post.signal_id)
        add(bp + "/post_id", "post_id " + QuoteId(bundle.post_id) +
                                 " differs from post.signal_id " + QuoteId(bundle.post.signal_id));
      for (size_t i = 0; i < bundle.size(); ++i) {
        const Signal& sig = bundle.at(i);
        std::string p = i == 0 ? bp + "/post" : bp + "/comments/" + std::to_string(i - 1);
        ++total;
        if (sig.signal_id.empty()) add(p + "/signal_id", "signal_id must not be empty");
        bad_id(p + "/author_id", sig.author_id);
        if (bad_id(p + "/signal_id", sig.signal_id)) continue;
        auto [it, fresh] = signals.emplace(
            sig.signal_id, Where{i == 0 ? SignalKind::kPost : SignalKind::kComment, &bundle.post_id});
        if (!fresh) add(p + "/signal_id", "duplicate signal_id " + QuoteId(sig.signal_id));
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
    const bool bad_post = bad_id(p + "/post_id", ns.post_id);
    if (bad_id(p + "/signal_id", ns.signal_id) || bad_post) continue;
    if (!seen_new.insert(ns.signal_id).second)
      add(p + "/signal_id", "signal " + QuoteId(ns.signal_id) + " is listed twice");
    auto it = signals.find(ns.signal_id);
    if (it == signals.end()) {
      add(p + "/signal_id", "new signal " + QuoteId(ns.signal_id) + " is in no bundle");
      continue;
    }
    if (it->second.kind != ns.kind)
      add(p + "/kind", "signal " + QuoteId(ns.signal_id) + " is a " +
                           (it->second.kind == SignalKind::kPost ? "POST" : "COMMENT") +
                           " in its bundle");
    if (*it->second.post_id != ns.post_id)
      add(p + "/post_id", "signal " + QuoteId(ns.signal_id) + " belongs to post " +
                              QuoteId(*it->second.post_id) + ", not " + QuoteId(ns.post_id));
  }
  return errs;
}

}  // namespace nunchi
