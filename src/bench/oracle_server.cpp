#include "bench/oracle_server.h"

#include <httplib.h>

#include <chrono>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

namespace nunchi::bench {
namespace {

// Whitespace runs and control characters become one space, ends trimmed, cut
// at 80 bytes on a UTF-8 boundary: the prompt sanitizes and may cut texts.
std::string Norm(std::string_view s) {
  std::string out;
  bool space = false;
  for (unsigned char c : s) {
    if (c <= ' ' || c == 0x7f) {
      space = !out.empty();
      continue;
    }
    if (space) out += ' ';
    space = false;
    out += char(c);
  }
  size_t cut = std::min<size_t>(out.size(), 80);
  while (cut > 0 && cut < out.size() && (static_cast<unsigned char>(out[cut]) & 0xC0) == 0x80) --cut;
  out.resize(cut);
  return out;
}

uint64_t Mix(uint64_t x) {  // splitmix64
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

uint64_t Hash(const std::string& s) {
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
  return h;
}

constexpr Level kLevels[] = {Level::kLow, Level::kMedium, Level::kHigh};

nlohmann::json Item(const judges::SignalLabel& l) {
  if (l.relevance == Relevance::kIrrelevant) return {{"r", "IRRELEVANT"}};
  return {{"r", "RELEVANT"},
          {"l", std::string(ToString(l.level))},
          {"c", std::string(ToString(l.cause))},
          {"t", ""}};
}

}  // namespace

struct OracleServer::Impl {
  httplib::Server server;
  int port = 0;
  std::thread thread;
};

std::string OracleServer::Key(std::string_view spot_line, std::string_view post_text,
                              std::string_view text) {
  return Norm(spot_line) + "\x1f" + Norm(post_text) + "\x1f" + Norm(text);
}

OracleServer::OracleServer(const std::vector<judges::LabeledBundle>& bundles,
                           OracleOptions options)
    : options_(options), impl_(std::make_unique<Impl>()) {
  for (const auto& lb : bundles)
    for (size_t i = 0; i < lb.bundle.size() && i < lb.labels.size(); ++i)
      if (lb.labels[i])
        gold_.emplace(Key(lb.spot.name + " (" + lb.spot.description + ")", lb.bundle.post.text,
                          lb.bundle.at(i).text),
                      *lb.labels[i]);
  impl_->server.Post("/v1/chat/completions", [this](const httplib::Request& req,
                                                     httplib::Response& res) {
    auto body = nlohmann::json::parse(req.body, nullptr, false);
    std::string user;
    if (body.is_object() && body.contains("messages"))
      for (const auto& m : body["messages"])
        if (m.value("role", "") == "user") user = m.value("content", "");
    std::string content = Answer(user);
    nlohmann::json doc = {
        {"id", "oracle"},
        {"object", "chat.completion"},
        {"model", "oracle"},
        {"choices",
         {{{"index", 0},
           {"message", {{"role", "assistant"}, {"content", content}}},
           {"finish_reason", "stop"}}}}};
    res.set_content(doc.dump(), "application/json");
  });
  impl_->port = impl_->server.bind_to_any_port("127.0.0.1");
  impl_->thread = std::thread([this] { impl_->server.listen_after_bind(); });
  for (int i = 0; i < 500 && !impl_->server.is_running(); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
}

OracleServer::~OracleServer() {
  impl_->server.stop();
  impl_->thread.join();
}

std::string OracleServer::base_url() const {
  return "http://127.0.0.1:" + std::to_string(impl_->port) + "/v1";
}

std::string OracleServer::Answer(const std::string& user) {
  requests_.fetch_add(1);
  std::string spot, post;
  std::unordered_map<std::string, std::string> texts;  // "#3" -> text
  std::vector<std::string> ids;
  std::istringstream in(user);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("Spot: ", 0) == 0) {
      spot = line.substr(6);  // "NAME (DESCRIPTION)", as the gold keys are made
    } else if (line.rfind("Judge: ", 0) == 0) {
      std::string rest = line.substr(7);
      for (size_t at = 0; (at = rest.find('#', at)) != std::string::npos;) {
        size_t end = rest.find_first_not_of("0123456789", at + 1);
        ids.push_back(rest.substr(at, end - at));
        at = end == std::string::npos ? rest.size() : end;
      }
    } else if (!line.empty() && line[0] == '#') {
      // "#i uN HH:MM: text"
      size_t sp = line.find(' ');
      size_t colon = line.find(": ", sp == std::string::npos ? 0 : sp);
      if (sp == std::string::npos || colon == std::string::npos) continue;
      std::string id = line.substr(0, sp), text = line.substr(colon + 2);
      if (id == "#1") post = text;
      texts[id] = text;
    }
  }
  nlohmann::ordered_json out = nlohmann::ordered_json::object();
  for (const std::string& id : ids) {
    items_.fetch_add(1);
    std::string key = Key(spot, post, texts[id]);
    auto it = gold_.find(key);
    judges::SignalLabel label;
    if (it == gold_.end()) {
      unknown_.fetch_add(1);  // not in the set: answer IRRELEVANT
    } else {
      label = it->second;
      uint64_t h = Mix(Hash(key) ^ Mix(options_.seed));
      double u = double(h >> 11) / double(1ull << 53);
      if (u >= options_.p) {  // wrong, by a second draw from the same hash
        uint64_t h2 = Mix(h);
        if (label.relevance == Relevance::kIrrelevant) {
          label.relevance = Relevance::kRelevant;
          label.level = kLevels[h2 % 3];
          label.cause = Cause::kOther;
        } else if (h2 % 2 == 0) {
          label = judges::SignalLabel{};
        } else {
          Level other[2];
          size_t n = 0;
          for (Level l : kLevels)
            if (l != label.level && n < 2) other[n++] = l;
          label.level = other[(h2 >> 1) % 2];
        }
      }
    }
    out[id] = Item(label);
  }
  const int ms = options_.call_ms + options_.item_ms * int(ids.size());
  if (ms > 0) std::this_thread::sleep_for(std::chrono::milliseconds(ms));
  return out.dump();
}

}  // namespace nunchi::bench
