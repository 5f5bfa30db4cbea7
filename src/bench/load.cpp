#include "bench/load.h"

#include <toml++/toml.h>

#include <fstream>
#include <sstream>

namespace nunchi::bench {
namespace {

template <typename T>
void Read(const toml::table& t, const char* key, T* out) {
  if (auto v = t[key].value<T>()) *out = *v;
}

bool Check(const LoadSpec& s, std::string* error) {
  auto fail = [&](const std::string& m) {
    *error = m;
    return false;
  };
  if (s.spots < 1) return fail("spots must be at least 1");
  if (s.hot_spots < 0 || s.hot_spots > s.spots) return fail("hot_spots must be 0..spots");
  if (s.cycles < 1) return fail("cycles must be at least 1");
  if (s.interval_s < 0) return fail("interval_s must not be negative");
  if (s.bundles_per_hot_spot < 1) return fail("bundles_per_hot_spot must be at least 1");
  if (s.bundle_cap < 1) return fail("bundle_cap must be at least 1");
  if (s.new_signals_per_cycle < 0) return fail("new_signals_per_cycle must not be negative");
  return true;
}

}  // namespace

bool LoadSpecFromString(const std::string& text, LoadSpec* spec, std::string* error) {
  toml::table root;
  try {
    root = toml::parse(text);
  } catch (const toml::parse_error& e) {
    std::ostringstream os;
    os << e.description() << " at line " << e.source().begin.line;
    *error = os.str();
    return false;
  }
  LoadSpec s = *spec;
  Read(root, "name", &s.name);
  Read(root, "description", &s.description);
  auto read_int = [&](const toml::table& t, const char* key, int* out) {
    if (auto v = t[key].value<int64_t>()) *out = static_cast<int>(*v);
  };
  read_int(root, "spots", &s.spots);
  read_int(root, "cycles", &s.cycles);
  Read(root, "interval_s", &s.interval_s);
  Read(root, "sim_step_s", &s.sim_step_s);
  if (auto v = root["seed"].value<int64_t>()) s.seed = static_cast<unsigned>(*v);
  const toml::table* traffic = root["traffic"].as_table();
  const toml::table empty;
  const toml::table& t = traffic ? *traffic : empty;
  read_int(t, "new_signals_per_cycle", &s.new_signals_per_cycle);
  read_int(t, "hot_spots", &s.hot_spots);
  read_int(t, "bundles_per_hot_spot", &s.bundles_per_hot_spot);
  read_int(t, "initial_comments", &s.initial_comments);
  read_int(t, "bundle_cap", &s.bundle_cap);
  read_int(t, "cold_spots_bundles", &s.cold_spots_bundles);
  Read(t, "new_post_share", &s.new_post_share);
  Read(t, "delete_share", &s.delete_share);
  Read(t, "repeat_author_share", &s.repeat_author_share);
  Read(t, "long_text_share", &s.long_text_share);
  const toml::table* store = root["store"].as_table();
  const toml::table& st = store ? *store : empty;
  Read(st, "warm", &s.warm_store);
  read_int(st, "restart_every", &s.restart_every);
  if (!Check(s, error)) return false;
  *spec = s;
  return true;
}

bool LoadSpecFromFile(const std::string& path, LoadSpec* spec, std::string* error) {
  std::ifstream f(path);
  if (!f) {
    *error = "cannot read " + path;
    return false;
  }
  std::stringstream ss;
  ss << f.rdbuf();
  if (!LoadSpecFromString(ss.str(), spec, error)) {
    *error = path + ": " + *error;
    return false;
  }
  return true;
}

}  // namespace nunchi::bench
