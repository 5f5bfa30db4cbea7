#include "http/contract_json.h"

#include <nlohmann/json.hpp>

namespace nunchi {
namespace {

using nlohmann::json;

class Reader {
 public:
  explicit Reader(std::vector<FieldError>* errors) : errors_(errors) {}

  void Fail(const std::string& pointer, const std::string& detail) {
    errors_->push_back({pointer, detail});
  }

  // A required (or, with optional=true, absent-allowed) string member.
  std::string Str(const json& obj, const char* key, const std::string& at, bool optional = false) {
    auto it = obj.find(key);
    if (it == obj.end() || (optional && it->is_null())) {
      if (!optional) Fail(at + "/" + key, std::string("'") + key + "' is required");
      return {};
    }
    if (!it->is_string()) {
      Fail(at + "/" + key, std::string("'") + key + "' must be a string");
      return {};
    }
    return it->get<std::string>();
  }

  Timestamp Time(const json& obj, const char* key, const std::string& at) {
    auto it = obj.find(key);
    if (it == obj.end()) {
      Fail(at + "/" + key, std::string("'") + key + "' is required");
      return {};
    }
    if (!it->is_string()) {
      Fail(at + "/" + key, std::string("'") + key + "' must be an ISO 8601 string");
      return {};
    }
    auto t = ParseTimestamp(it->get<std::string>());
    if (!t) {
      Fail(at + "/" + key, "'" + it->get<std::string>() +
                               "' is not an ISO 8601 date-time with an offset "
                               "(e.g. 2026-11-29T18:40:00+09:00)");
      return {};
    }
    return *t;
  }

  // An array member; absent is an empty array when optional.
  const json* Arr(const json& obj, const char* key, const std::string& at, bool optional) {
    auto it = obj.find(key);
    if (it == obj.end() || (optional && it->is_null())) {
      if (!optional) Fail(at + "/" + key, std::string("'") + key + "' is required");
      return nullptr;
    }
    if (!it->is_array()) {
      Fail(at + "/" + key, std::string("'") + key + "' must be an array");
      return nullptr;
    }
    return &*it;
  }

  bool Obj(const json& v, const std::string& at) {
    if (v.is_object()) return true;
    Fail(at, "must be an object");
    return false;
  }

  Signal Sig(const json& v, const std::string& at) {
    Signal s;
    if (!Obj(v, at)) return s;
    s.signal_id = Str(v, "signal_id", at);
    s.author_id = Str(v, "author_id", at);
    s.created_at = Time(v, "created_at", at);
    s.text = Str(v, "text", at);
    return s;
  }

 private:
  std::vector<FieldError>* errors_;
};

std::string PointerToken(const std::string& key) {
  std::string out;
  for (char c : key) {
    if (c == '~') {
      out += "~0";
    } else if (c == '/') {
      out += "~1";
    } else {
      out += c;
    }
  }
  return out;
}

// Follows the parser's position as a JSON pointer, so that an error on a
// value (which gets no event of its own) can name where it is.
class PathTracker {
 public:
  bool operator()(int /*depth*/, json::parse_event_t event, json& parsed) {
    switch (event) {
      case json::parse_event_t::object_start:
        frames_.push_back({false, 0, {}});
        break;
      case json::parse_event_t::array_start:
        frames_.push_back({true, 0, {}});
        break;
      case json::parse_event_t::key:
        if (!frames_.empty())
          frames_.back().key = parsed.is_string() ? parsed.get<std::string>() : "";
        break;
      case json::parse_event_t::object_end:
      case json::parse_event_t::array_end:
        if (!frames_.empty()) frames_.pop_back();
        Advance();
        break;
      case json::parse_event_t::value:
        Advance();
        break;
    }
    return true;
  }
  std::string Pointer() const {
    std::string p;
    for (const Frame& f : frames_)
      p += "/" + (f.array ? std::to_string(f.index) : PointerToken(f.key));
    return p;
  }

 private:
  struct Frame {
    bool array;
    size_t index;
    std::string key;
  };
  void Advance() {
    if (!frames_.empty() && frames_.back().array) ++frames_.back().index;
  }
  std::vector<Frame> frames_;
};

}  // namespace

BodyParse ParseJsonBody(std::string_view text, json* out) {
  BodyParse r;
  // nlohmann's lexer reads a NUL byte as the end of input, which would accept
  // `{...}\0garbage`; a raw NUL is never valid JSON, so refuse it here.
  if (size_t nul = text.find('\0'); nul != std::string_view::npos) {
    r.kind = BodyParse::kMalformed;
    r.detail = "a NUL byte at offset " + std::to_string(nul) + " (bytes after the JSON value?)";
    return r;
  }
  PathTracker tracker;
  try {
    *out = json::parse(text.begin(), text.end(), [&tracker](int d, json::parse_event_t e, json& v) {
      return tracker(d, e, v);
    });
  } catch (const json::parse_error& e) {
    r.kind = BodyParse::kMalformed;
    r.detail = e.what();
  } catch (const json::out_of_range& e) {
    // 406: a number the parser cannot hold (1e400, a 10,000-digit integer).
    r.kind = BodyParse::kOutOfRange;
    r.pointer = tracker.Pointer();
    r.detail = "a number outside the range of a double";
  } catch (const json::exception& e) {
    r.kind = BodyParse::kMalformed;
    r.detail = "the body is not valid JSON";
  }
  return r;
}

std::optional<AnalysisRequest> ParseAnalysisRequest(const json& body,
                                                    std::vector<FieldError>* errors) {
  errors->clear();
  Reader rd(errors);
  AnalysisRequest req;
  if (!body.is_object()) {
    rd.Fail("", "the body must be a JSON object");
    return std::nullopt;
  }
  req.analyzed_at = rd.Time(body, "analyzed_at", "");
  std::string epoch = rd.Str(body, "state_epoch", "", /*optional=*/true);
  if (body.contains("state_epoch") && !body["state_epoch"].is_null()) req.state_epoch = epoch;

  if (const json* spots = rd.Arr(body, "spots", "", false)) {
    for (size_t s = 0; s < spots->size(); ++s) {
      const json& sj = (*spots)[s];
      std::string sp = "/spots/" + std::to_string(s);
      if (!rd.Obj(sj, sp)) continue;
      Spot spot;
      spot.info.spot_id = rd.Str(sj, "spot_id", sp);
      spot.info.name = rd.Str(sj, "name", sp, true);
      spot.info.description = rd.Str(sj, "description", sp, true);
      if (const json* bundles = rd.Arr(sj, "bundles", sp, true)) {
        for (size_t b = 0; b < bundles->size(); ++b) {
          const json& bj = (*bundles)[b];
          std::string bp = sp + "/bundles/" + std::to_string(b);
          if (!rd.Obj(bj, bp)) continue;
          Bundle bundle;
          bundle.post_id = rd.Str(bj, "post_id", bp);
          if (auto it = bj.find("post"); it == bj.end()) {
            rd.Fail(bp + "/post", "'post' is required");
          } else {
            bundle.post = rd.Sig(*it, bp + "/post");
          }
          if (const json* cs = rd.Arr(bj, "comments", bp, true))
            for (size_t c = 0; c < cs->size(); ++c)
              bundle.comments.push_back(rd.Sig((*cs)[c], bp + "/comments/" + std::to_string(c)));
          spot.bundles.push_back(std::move(bundle));
        }
      }
      req.spots.push_back(std::move(spot));
    }
  }

  if (const json* ns = rd.Arr(body, "new_signals", "", true)) {
    for (size_t i = 0; i < ns->size(); ++i) {
      const json& nj = (*ns)[i];
      std::string p = "/new_signals/" + std::to_string(i);
      if (!rd.Obj(nj, p)) continue;
      NewSignal n;
      std::string kind = rd.Str(nj, "kind", p);
      if (kind == "POST") {
        n.kind = SignalKind::kPost;
      } else if (kind == "COMMENT") {
        n.kind = SignalKind::kComment;
      } else if (!kind.empty()) {
        rd.Fail(p + "/kind", "unknown kind '" + kind + "' (expected POST or COMMENT)");
      }
      n.signal_id = rd.Str(nj, "signal_id", p);
      n.post_id = rd.Str(nj, "post_id", p);
      req.new_signals.push_back(std::move(n));
    }
  }
  if (!errors->empty()) return std::nullopt;
  return req;
}

std::string SerializeAnalysisResponse(const AnalysisResponse& resp) {
  json spots = json::array();
  for (const SpotResult& s : resp.spots) {
    const bool ok = s.status == AnalysisStatus::kOk;
    auto opt_str = [](const auto& o) -> json { return o ? json(*o) : json(nullptr); };
    json j = {{"spot_id", s.spot_id}, {"analysis_status", ok ? "OK" : "FAILED"}};
    j["congestion_level"] = ok && s.level ? json(std::string(ToString(*s.level))) : json(nullptr);
    j["cause_code"] = ok && s.cause ? json(std::string(ToString(*s.cause))) : json(nullptr);
    j["cause_summary"] = ok ? opt_str(s.cause_summary) : json(nullptr);
    j["report_count"] = ok && s.report_count ? json(*s.report_count) : json(nullptr);
    j["last_reported_at"] = ok ? opt_str(s.last_reported_at) : json(nullptr);
    spots.push_back(std::move(j));
  }
  json out = {{"analyzed_at", resp.analyzed_at},
              {"state_epoch", resp.state_epoch},
              {"spots", std::move(spots)}};
  return out.dump(-1, ' ', false, json::error_handler_t::replace);
}

}  // namespace nunchi
