#include "app/config.h"

#include <toml++/toml.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <set>

extern char** environ;

namespace nunchi {
namespace {

bool IsFlag(const CLI::Option* opt) { return opt->get_expected_min() == 0; }

std::string TomlScalar(const toml::node& n) {
  if (n.is_string()) return **n.as_string();
  if (n.is_boolean()) return **n.as_boolean() ? "true" : "false";
  if (n.is_integer()) return std::to_string(**n.as_integer());
  if (n.is_floating_point()) return std::to_string(**n.as_floating_point());
  return {};
}

void Append(const CLI::Option* opt, const std::string& value, std::vector<std::string>* args) {
  const std::string name = "--" + opt->get_lnames().front();
  if (IsFlag(opt)) {
    args->push_back(name + "=" + value);
  } else {
    args->push_back(name);
    args->push_back(value);
  }
}

std::string KeyName(const std::string& lname) {
  std::string key = lname;
  for (char& c : key)
    if (c == '-') c = '_';
  return key;
}

// The long names of a command's own options (not --help, not --config).
std::set<std::string> OptionNames(const CLI::App& cmd) {
  std::set<std::string> names;
  for (const CLI::Option* opt : cmd.get_options()) {
    if (opt->get_lnames().empty()) continue;
    const std::string& l = opt->get_lnames().front();
    if (l != "help" && l != "config") names.insert(l);
  }
  return names;
}

bool KnownKey(const std::set<std::string>& names, const std::string& key) {
  return names.count(key) || names.count([&] {
    std::string l = key;
    for (char& c : l)
      if (c == '_') c = '-';
    return l;
  }());
}

// Every key of the file must belong to some option: top-level keys to an
// option of any subcommand, keys of [sub] to an option of sub.
bool CheckFileKeys(CLI::App& app, const toml::table& file, const std::string& path,
                   std::string* error) {
  std::set<std::string> any;
  std::map<std::string, std::set<std::string>> per;
  for (CLI::App* s : app.get_subcommands({})) {
    per[s->get_name()] = OptionNames(*s);
    any.insert(per[s->get_name()].begin(), per[s->get_name()].end());
  }
  std::vector<std::string> unknown;
  for (const auto& [k, node] : file) {
    const std::string key(k.str());
    if (const toml::table* t = node.as_table()) {
      auto it = per.find(key);
      if (it == per.end()) {
        unknown.push_back("[" + key + "] (no such subcommand)");
        continue;
      }
      for (const auto& [k2, n2] : *t) {
        (void)n2;
        if (!KnownKey(it->second, std::string(k2.str())))
          unknown.push_back("[" + key + "] " + std::string(k2.str()));
      }
    } else if (!KnownKey(any, key)) {
      unknown.push_back(key);
    }
  }
  if (unknown.empty()) return true;
  *error = "config file " + path + ": unknown key" + (unknown.size() > 1 ? "s " : " ");
  for (size_t i = 0; i < unknown.size(); ++i) *error += (i ? ", " : "") + unknown[i];
  return false;
}

// Every NUNCHI_* variable must be an option's twin, a documented name, or
// named by a value given (e.g. --api-key-env NUNCHI_KEY_OF_SERVER_A).
bool CheckEnvironment(CLI::App& app, const std::vector<std::string>& values, std::string* error) {
  std::set<std::string> twins;
  for (CLI::App* s : app.get_subcommands({}))
    for (const std::string& l : OptionNames(*s)) twins.insert(EnvName(l));
  std::vector<std::string> unknown;
  for (char** e = environ; e && *e; ++e) {
    std::string entry(*e);
    if (entry.rfind("NUNCHI_", 0) != 0) continue;
    std::string name = entry.substr(0, entry.find('='));
    if (twins.count(name) || IsDocumentedEnvName(name)) continue;
    if (std::find(values.begin(), values.end(), name) != values.end()) continue;
    unknown.push_back(name);
  }
  if (unknown.empty()) return true;
  std::sort(unknown.begin(), unknown.end());
  *error = "unknown environment variable" + std::string(unknown.size() > 1 ? "s " : " ");
  for (size_t i = 0; i < unknown.size(); ++i) *error += (i ? ", " : "") + unknown[i];
  *error += " (each option --foo-bar reads NUNCHI_FOO_BAR; see nunchi SUBCOMMAND --help)";
  return false;
}

// A numeric check with a plain message ("must be > 0, not -5").
CLI::Validator AtLeast(double min, bool strict) {
  const std::string desc = std::string(strict ? "> " : ">= ") + CLI::detail::to_string(min);
  return CLI::Validator(
      [min, strict, desc](std::string& value) -> std::string {
        double d = 0;
        if (!CLI::detail::lexical_cast(value, d)) return "not a number: '" + value + "'";
        if (strict ? d > min : d >= min) return {};
        return "must be " + desc + ", not " + value;
      },
      desc);
}

bool EndsWith(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

}  // namespace

bool IsDocumentedEnvName(const std::string& name) {
  static const std::set<std::string> kNames = {
      "NUNCHI_CONFIG",     // the config file
      "NUNCHI_API_KEY",    // the remote model server's key (--api-key-env default)
      "NUNCHI_LLAMA_LOG",  // llama.cpp's own log at full volume
      // read by scripts/build.sh, scripts/setup-llama.sh and the tests
      "NUNCHI_WITH_LLAMA", "NUNCHI_WITH_EXTRACT", "NUNCHI_CCACHE", "NUNCHI_CACHE",
      "NUNCHI_LLAMA_DIR", "NUNCHI_SANITIZE", "NUNCHI_BUILD_DIR", "NUNCHI_FUZZ_BUILD",
      "NUNCHI_LLAMA_SERVER", "NUNCHI_LLAMA_BATCHED_BENCH", "NUNCHI_PG_BINDIR",
      "NUNCHI_CRASH_KILLS", "NUNCHI_SOAK_CYCLES", "NUNCHI_FAILOVER_MUTANT",
      // set by nunchi itself when it re-executes with OMP_WAIT_POLICY=passive (cmd_llama.cpp)
      "NUNCHI_OMP_SET"};
  return kNames.count(name) || name.rfind("NUNCHI_TEST_", 0) == 0;
}

void CheckNumericRanges(CLI::App& app) {
  for (CLI::Option* opt : app.get_options()) {
    if (opt->get_lnames().empty()) continue;
    const std::string type = opt->get_type_name();
    if (type != "INT" && type != "UINT" && type != "FLOAT") continue;  // text, or checked already
    const std::string& l = opt->get_lnames().front();
    if (l.find("port") != std::string::npos) {
      opt->check(CLI::Range(0, 65535, "port (0..65535)"));
    } else if (EndsWith(l, "-ms") || EndsWith(l, "-hours") ||
               l.find("timeout") != std::string::npos || l.find("deadline") != std::string::npos ||
               l == "interval") {
      opt->check(AtLeast(0, /*strict=*/true));
    } else if (EndsWith(l, "-threads") || l.find("concurrency") != std::string::npos) {
      opt->check(AtLeast(1, /*strict=*/false));
    } else if (l != "seed") {
      opt->check(AtLeast(0, /*strict=*/false));
    }
  }
  for (CLI::App* sub : app.get_subcommands({})) CheckNumericRanges(*sub);
}

std::string DescribeParseError(const CLI::Error& e,
                               const std::map<std::string, std::string>& sources) {
  std::string msg = e.what();
  for (const auto& [lname, where] : sources) {
    const std::string flag = "--" + lname;
    const size_t at = msg.find(flag);
    if (at == std::string::npos) continue;
    const size_t end = at + flag.size();
    if (end < msg.size() && (std::isalnum(static_cast<unsigned char>(msg[end])) || msg[end] == '-'))
      continue;
    const std::string value = where.substr(where.find('=') + 1);
    if (msg.find(value) == std::string::npos) continue;
    return msg + " (the value came from " + where + ")";
  }
  return msg;
}

std::string EnvName(const std::string& long_name) {
  std::string env = "NUNCHI_";
  for (char c : long_name) env += c == '-' ? '_' : static_cast<char>(std::toupper(c));
  return env;
}

bool LayerArguments(CLI::App& app, int argc, char** argv, std::vector<std::string>* out,
                    std::string* error, std::map<std::string, std::string>* sources) {
  std::vector<std::string> cli(argv + 1, argv + argc);
  // Which subcommand, and which config file?
  CLI::App* sub = nullptr;
  size_t sub_pos = 0;
  for (size_t i = 0; i < cli.size() && !sub; ++i)
    for (CLI::App* s : app.get_subcommands({}))
      if (s->get_name() == cli[i]) sub = s, sub_pos = i;
  std::string config_path;
  if (const char* env = std::getenv("NUNCHI_CONFIG")) config_path = env;
  for (size_t i = 0; i + 1 < cli.size(); ++i)
    if (cli[i] == "--config") config_path = cli[i + 1];
  for (const auto& a : cli)
    if (a.rfind("--config=", 0) == 0) config_path = a.substr(9);

  out->clear();
  if (!sub) {
    *out = cli;
    return true;
  }
  std::vector<std::string> layered;
  toml::table file;
  if (!config_path.empty()) {
    try {
      file = toml::parse_file(config_path);
    } catch (const toml::parse_error& e) {
      *error = "config file " + config_path + ": " + std::string(e.description());
      return false;
    }
    if (!CheckFileKeys(app, file, config_path, error)) return false;
  }
  const toml::table* section = file[sub->get_name()].as_table();
  for (const CLI::Option* opt : sub->get_options()) {
    if (opt->get_lnames().empty()) continue;
    const std::string lname = opt->get_lnames().front();
    if (lname == "help" || lname == "config") continue;
    const std::string key = KeyName(lname);
    for (const toml::table* t : {static_cast<const toml::table*>(&file), section}) {
      if (!t) continue;
      const toml::node* n = t->get(key);
      if (!n) n = t->get(lname);
      if (!n) continue;
      const std::string where = "config file " + config_path +
                                (t == section ? " [" + sub->get_name() + "]" : "") + " key " + key;
      if (const toml::array* arr = n->as_array()) {
        for (const auto& el : *arr) {
          Append(opt, TomlScalar(el), &layered);
          if (sources) (*sources)[lname] = where + "=" + TomlScalar(el);
        }
      } else {
        Append(opt, TomlScalar(*n), &layered);
        if (sources) (*sources)[lname] = where + "=" + TomlScalar(*n);
      }
    }
    if (const char* env = std::getenv(EnvName(lname).c_str())) {
      Append(opt, env, &layered);
      if (sources) (*sources)[lname] = "environment " + EnvName(lname) + "=" + env;
    }
  }
  {
    std::vector<std::string> values = cli;
    values.insert(values.end(), layered.begin(), layered.end());
    if (!CheckEnvironment(app, values, error)) return false;
  }
  // argv = [before subcommand] subcommand [file+env values] [cli after subcommand]
  out->assign(cli.begin(), cli.begin() + static_cast<long>(sub_pos) + 1);
  out->insert(out->end(), layered.begin(), layered.end());
  out->insert(out->end(), cli.begin() + static_cast<long>(sub_pos) + 1, cli.end());
  return true;
}

}  // namespace nunchi
