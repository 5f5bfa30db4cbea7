#include "app/config.h"

#include <cstdlib>
#include <toml++/toml.h>

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

}  // namespace

std::string EnvName(const std::string& long_name) {
  std::string env = "NUNCHI_";
  for (char c : long_name) env += c == '-' ? '_' : static_cast<char>(std::toupper(c));
  return env;
}

bool LayerArguments(CLI::App& app, int argc, char** argv, std::vector<std::string>* out,
                    std::string* error) {
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
  }
  const toml::table* section = file[sub->get_name()].as_table();
  for (const CLI::Option* opt : sub->get_options()) {
    if (opt->get_lnames().empty()) continue;
    const std::string lname = opt->get_lnames().front();
    if (lname == "help" || lname == "config") continue;
    std::string key = lname;
    for (char& c : key)
      if (c == '-') c = '_';
    for (const toml::table* t : {static_cast<const toml::table*>(&file), section}) {
      if (!t) continue;
      const toml::node* n = t->get(key);
      if (!n) n = t->get(lname);
      if (!n) continue;
      if (const toml::array* arr = n->as_array()) {
        for (const auto& el : *arr) Append(opt, TomlScalar(el), &layered);
      } else {
        Append(opt, TomlScalar(*n), &layered);
      }
    }
    if (const char* env = std::getenv(EnvName(lname).c_str())) Append(opt, env, &layered);
  }
  // argv = [before subcommand] subcommand [file+env values] [cli after subcommand]
  out->assign(cli.begin(), cli.begin() + static_cast<long>(sub_pos) + 1);
  out->insert(out->end(), layered.begin(), layered.end());
  out->insert(out->end(), cli.begin() + static_cast<long>(sub_pos) + 1, cli.end());
  return true;
}

}  // namespace nunchi
