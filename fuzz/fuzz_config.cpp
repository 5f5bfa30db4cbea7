// libFuzzer target: the TOML config layer (app/config.h). Each input is a
// config file, read through a memfd so nothing touches the disk, layered
// under a small two-subcommand app with numeric ranges, then parsed by
// CLI11. Only the documented errors may come out (LayerArguments false, or a
// CLI::ParseError); anything else escaping, or a crash, is a bug. A string
// value the file gives for --host must reach the option unchanged.
#include <sys/mman.h>
#include <toml++/toml.h>
#include <unistd.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "app/config.h"

namespace {

struct App {
  CLI::App app;
  std::string config, host, data_dir;
  int port = 0;
  double deadline_ms = 1;
  size_t max_id_bytes = 128;
  bool log_texts = false;
  std::vector<std::string> models;
  int fd = -1;
  std::string path;

  App() {
    app.option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
    CLI::App* serve = app.add_subcommand("serve");
    serve->add_option("--host", host);
    serve->add_option("--port", port);
    serve->add_option("--data-dir", data_dir);
    serve->add_option("--deadline-ms", deadline_ms);
    serve->add_option("--max-id-bytes", max_id_bytes);
    serve->add_flag("--log-texts", log_texts);
    serve->add_option("--model", models)->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
    CLI::App* judge = app.add_subcommand("judge");
    judge->add_option("--port", port);
    judge->add_option("--threads", port);
    for (CLI::App* sub : app.get_subcommands({})) sub->add_option("--config", config);
    nunchi::CheckNumericRanges(app);
    fd = memfd_create("nunchi-fuzz-config", 0);
    if (fd < 0) std::abort();
    path = "/proc/self/fd/" + std::to_string(fd);
  }
};

// The --host value the file asks for ([serve] wins over the top level), if
// that value is a string.
const std::string* FileHost(const toml::table& t) {
  const toml::node* n = t.get("host");
  if (const toml::table* s = t["serve"].as_table(); s && s->get("host")) n = s->get("host");
  return n && n->is_string() ? &**n->as_string() : nullptr;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static App* a = new App();
  // Write, then cut to size: cheaper than emptying the file first.
  if (pwrite(a->fd, data, size, 0) != static_cast<ssize_t>(size) ||
      ftruncate(a->fd, static_cast<off_t>(size)) != 0)
    std::abort();
  a->app.clear();
  a->host.clear();
  std::string sub = "serve", flag = "--config";
  std::vector<char*> argv = {sub.data(), sub.data(), flag.data(), a->path.data()};
  std::vector<std::string> args;
  std::string error;
  std::map<std::string, std::string> sources;
  if (!nunchi::LayerArguments(a->app, static_cast<int>(argv.size()), argv.data(), &args, &error,
                              &sources)) {
    if (error.empty()) std::abort();
    return 0;
  }
  std::reverse(args.begin(), args.end());
  try {
    a->app.parse(args);
  } catch (const CLI::ParseError& e) {
    if (nunchi::DescribeParseError(e, sources).empty()) std::abort();
    return 0;
  }
  // It parsed: then the file was valid TOML, and its host reached --host.
  toml::table t;
  try {
    t = toml::parse(std::string_view(reinterpret_cast<const char*>(data), size));
  } catch (const toml::parse_error&) {
    std::abort();
  }
  if (const std::string* host = FileHost(t); host && *host != a->host) std::abort();
  return 0;
}
