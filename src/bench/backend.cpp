#include "bench/backend.h"

#include <algorithm>
#include <ctime>

namespace nunchi::bench {
namespace {

const char* kPlaces[][2] = {
    {"강남역 11번 출구", "출구 앞 보행로와 버스정류장"},
    {"성수동 팝업 거리", "연무장길 팝업스토어 대기줄"},
    {"광장시장 먹자골목", "빈대떡 골목과 입구 사거리"},
    {"잠실역 8번 출구", "롯데월드몰 방향 지하 통로"},
    {"홍대입구역 9번 출구", "출구 계단과 걷고싶은거리 입구"},
    {"여의도 한강공원", "물빛광장과 편의점 앞"},
    {"서울역 2층 대합실", "매표소와 KTX 개찰구 앞"},
    {"부산 서면 지하상가", "서면역 연결 통로와 분수대"},
};

}  // namespace

std::string Kst(long long ms) {
  time_t secs = static_cast<time_t>(ms / 1000) + 9 * 3600;
  std::tm tm{};
  gmtime_r(&secs, &tm);
  char buf[64];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &tm);
  char out[96];
  std::snprintf(out, sizeof out, "%s.%03d+09:00", buf, static_cast<int>(ms % 1000));
  return out;
}

Backend::Backend(const LoadSpec& load, std::string id_prefix, long long start_ms)
    : load_(load),
      prefix_(std::move(id_prefix)),
      now_ms_(start_ms),
      gen_(load.seed, load.long_text_share) {
  constexpr int kNamed = sizeof kPlaces / sizeof kPlaces[0];
  for (int i = 0; i < load_.spots; ++i) {
    SpotState s;
    s.id = prefix_ + "s" + std::to_string(i + 1);
    s.name = kPlaces[i % kNamed][0];
    if (i >= kNamed) s.name += " " + std::to_string(i / kNamed + 1) + "구역";
    s.description = kPlaces[i % kNamed][1];
    spots_.push_back(std::move(s));
  }
}

Signal Backend::NewSignal(SpotState& spot, bool post, long long created_ms) {
  Signal s;
  s.id = prefix_ + (post ? "p" : "c") + std::to_string(++seq_);
  bool repeat =
      !spot.authors.empty() && std::bernoulli_distribution(load_.repeat_author_share)(gen_.rng());
  if (repeat) {
    std::uniform_int_distribution<size_t> pick(0, spot.authors.size() - 1);
    s.author = spot.authors[pick(gen_.rng())];
  } else {
    s.author = prefix_ + "u" + std::to_string(++next_author_);
    spot.authors.push_back(s.author);
  }
  s.text = post ? gen_.Post(spot.name) : gen_.Comment(spot.name);
  s.created_ms = created_ms;
  pending_.insert(s.id);
  return s;
}

void Backend::OpenPost(SpotState& spot, long long created_ms) {
  // Close the oldest open bundles beyond the load's number per spot.
  int open = 0;
  for (auto it = spot.bundles.rbegin(); it != spot.bundles.rend(); ++it)
    if (it->open && ++open >= load_.bundles_per_hot_spot) it->open = false;
  Bundle b;
  b.post = NewSignal(spot, true, created_ms);
  post_of_[b.post.id] = b.post.id;
  spot.bundles.push_back(std::move(b));
  // Bundles older than an hour cannot matter any more: drop them.
  std::erase_if(spot.bundles, [&](const Bundle& x) {
    return !x.open && x.post.created_ms < now_ms_ - 3600'000 && !BundlePending(x);
  });
}

void Backend::AddComment(SpotState& spot, long long created_ms) {
  std::vector<Bundle*> open;
  for (auto& b : spot.bundles)
    if (b.open) open.push_back(&b);
  if (open.empty()) return OpenPost(spot, created_ms);
  std::uniform_int_distribution<size_t> pick(0, open.size() - 1);
  Bundle* b = open[pick(gen_.rng())];
  if (static_cast<int>(b->comments.size()) >= load_.bundle_cap) {
    b->open = false;
    return OpenPost(spot, created_ms);
  }
  Signal c = NewSignal(spot, false, created_ms);
  post_of_[c.id] = b->post.id;
  b->comments.push_back(std::move(c));
}

void Backend::MaybeDelete(SpotState& spot) {
  if (!std::bernoulli_distribution(load_.delete_share)(gen_.rng())) return;
  for (auto& b : spot.bundles) {
    if (!b.open || b.comments.size() < 3) continue;
    std::uniform_int_distribution<size_t> pick(0, b.comments.size() - 1);
    size_t i = pick(gen_.rng());
    if (pending_.count(b.comments[i].id)) continue;
    b.comments.erase(b.comments.begin() + static_cast<long>(i));
    return;
  }
}

void Backend::History() {
  const long long span = 15 * 60'000;  // the history was written over 15 minutes
  auto fill = [&](SpotState& spot, int bundles) {
    for (int k = 0; k < bundles; ++k) {
      long long t = now_ms_ - span + k * 60'000;
      OpenPost(spot, t);
      for (int c = 0; c < load_.initial_comments; ++c) {
        Bundle& b = spot.bundles.back();
        Signal s = NewSignal(spot, false,
                             t + (c + 1) * (span - k * 60'000) / (load_.initial_comments + 2));
        post_of_[s.id] = b.post.id;
        b.comments.push_back(std::move(s));
      }
    }
  };
  for (int i = 0; i < load_.spots; ++i)
    fill(spots_[i], i < load_.hot_spots ? load_.bundles_per_hot_spot : load_.cold_spots_bundles);
}

void Backend::Tick() {
  now_ms_ += static_cast<long long>(load_.sim_step_s * 1000);
  if (load_.hot_spots == 0) return;
  std::uniform_int_distribution<long long> when(0, static_cast<long long>(load_.sim_step_s * 1000));
  std::vector<long long> times;
  for (int i = 0; i < load_.new_signals_per_cycle; ++i) times.push_back(now_ms_ - when(gen_.rng()));
  std::sort(times.begin(), times.end());  // written in order
  for (long long t : times) {
    SpotState& spot = spots_[rr_++ % static_cast<size_t>(load_.hot_spots)];
    if (std::bernoulli_distribution(load_.new_post_share)(gen_.rng()))
      OpenPost(spot, t);
    else
      AddComment(spot, t);
  }
  for (int i = 0; i < load_.hot_spots; ++i) MaybeDelete(spots_[i]);
}

bool Backend::BundlePending(const Bundle& b) const {
  if (pending_.count(b.post.id)) return true;
  for (const auto& c : b.comments)
    if (pending_.count(c.id)) return true;
  return false;
}

nlohmann::json Backend::Request() const {
  auto sig = [](const Signal& s) {
    return nlohmann::json{{"signal_id", s.id},
                          {"author_id", s.author},
                          {"created_at", Kst(s.created_ms)},
                          {"text", s.text}};
  };
  nlohmann::json spots = nlohmann::json::array();
  nlohmann::json fresh = nlohmann::json::array();
  for (const auto& spot : spots_) {
    nlohmann::json bundles = nlohmann::json::array();
    for (const auto& b : spot.bundles) {
      if (!BundlePending(b)) continue;
      nlohmann::json comments = nlohmann::json::array();
      if (pending_.count(b.post.id))
        fresh.push_back({{"kind", "POST"}, {"signal_id", b.post.id}, {"post_id", b.post.id}});
      for (const auto& c : b.comments) {
        comments.push_back(sig(c));
        if (pending_.count(c.id))
          fresh.push_back({{"kind", "COMMENT"}, {"signal_id", c.id}, {"post_id", b.post.id}});
      }
      bundles.push_back({{"post_id", b.post.id}, {"post", sig(b.post)}, {"comments", comments}});
    }
    spots.push_back({{"spot_id", spot.id},
                     {"name", spot.name},
                     {"description", spot.description},
                     {"bundles", bundles}});
  }
  nlohmann::json req = {{"analyzed_at", Kst(now_ms_)}, {"spots", spots}, {"new_signals", fresh}};
  if (epoch_) req["state_epoch"] = *epoch_;
  return req;
}

std::pair<int, int> Backend::Acknowledge(const nlohmann::json& response) {
  if (response.contains("state_epoch") && response["state_epoch"].is_string())
    epoch_ = response["state_epoch"].get<std::string>();
  int ok = 0, failed = 0;
  std::set<std::string> ok_spots;
  for (const auto& s : response.value("spots", nlohmann::json::array())) {
    if (s.value("analysis_status", "") == "OK") {
      ++ok;
      ok_spots.insert(s.value("spot_id", ""));
    } else {
      ++failed;
    }
  }
  for (const auto& spot : spots_) {
    if (!ok_spots.count(spot.id)) continue;
    for (const auto& b : spot.bundles) {
      pending_.erase(b.post.id);
      for (const auto& c : b.comments) pending_.erase(c.id);
    }
  }
  return {ok, failed};
}

void Backend::Reset() {
  epoch_.reset();
  for (const auto& spot : spots_)
    for (const auto& b : spot.bundles) {
      if (!b.open && !BundlePending(b)) continue;
      pending_.insert(b.post.id);
      for (const auto& c : b.comments) pending_.insert(c.id);
    }
}

}  // namespace nunchi::bench
