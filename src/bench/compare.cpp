#include "bench/compare.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>

#include "bench/bench.h"
#include "bench/compare_summary.h"
#include "bench/html_report.h"
#include "bench/llama_server.h"

namespace nunchi::bench {
namespace {

// The llama.cpp commit this nunchi was built against (from its install path).
#ifdef NUNCHI_BENCH_LLAMA_COMMIT
constexpr const char* kLlamaCommit = NUNCHI_BENCH_LLAMA_COMMIT;
#else
constexpr const char* kLlamaCommit = "";
#endif

// nunchi's remote backend caps each answer at this many tokens plus this many
// per target signal (RemoteOptions in src/engines/remote/remote_options.h).
constexpr int kRemoteTokensBase = 16, kRemoteTokensPerTarget = 48;

const char* Title(const std::string& arm) {
  return arm == "a"   ? "nunchi, in-process llama.cpp"
         : arm == "b" ? "naive client → llama-server"
                      : "nunchi remote backend → llama-server";
}

bool Has(const std::vector<std::string>& args, const std::string& flag) {
  return std::any_of(args.begin(), args.end(), [&](const std::string& a) {
    return a == flag || a.rfind(flag + "=", 0) == 0;
  });
}

// Adds `flag value` unless the extra arguments set it already.
void Set(std::vector<std::string>* args, const std::vector<std::string>& extra,
         const std::string& flag, const std::string& value) {
  if (Has(extra, flag)) return;
  args->push_back(flag);
  args->push_back(value);
}

std::string FirstLine(const std::string& s) {
  std::string line = s.substr(0, s.find('\n'));
  while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
  return line;
}

bool WriteText(const std::string& path, const std::string& text, std::string* error) {
  std::ofstream f(path, std::ios::binary);
  f << text;
  if (!f) *error = "cannot write " + path;
  return static_cast<bool>(f);
}

}  // namespace

bool ParseArms(const std::string& list, std::vector<std::string>* arms, std::string* error) {
  arms->clear();
  bool seen[3] = {false, false, false};
  std::stringstream ss(list);
  std::string item;
  while (std::getline(ss, item, ',')) {
    item.erase(0, item.find_first_not_of(' '));
    item.erase(item.find_last_not_of(' ') + 1);
    if (item.size() != 1 || item[0] < 'a' || item[0] > 'c') {
      *error = "unknown arm '" + item + "' (a, b or c)";
      return false;
    }
    if (seen[item[0] - 'a']) {
      *error = "arm '" + item + "' given twice";
      return false;
    }
    seen[item[0] - 'a'] = true;
  }
  for (int i = 0; i < 3; ++i)
    if (seen[i]) arms->push_back(std::string(1, static_cast<char>('a' + i)));
  if (arms->empty()) *error = "no arm given (a, b, c)";
  return !arms->empty();
}

int RunCompareCommand(CompareArgs args) {
  std::string error;
  if (args.model.empty()) {
    std::fprintf(stderr, "nunchi bench: --compare needs --model\n");
    return 2;
  }
  if (args.threads <= 0)
    args.threads = static_cast<int>(std::max(1L, sysconf(_SC_NPROCESSORS_ONLN)));
  const int C = std::max(1, args.concurrency);
  const std::string T = std::to_string(args.threads), Cs = std::to_string(C);
  const std::string ctx = std::to_string(C * std::max(256, args.slot_ctx));
  const std::string model_name = std::filesystem::path(args.model).stem().string();

  // What every arm shares: the model's identity, the host, the command line.
  Conditions base;
  base.model_file = args.model;
  base.quantization = args.quantization.empty() ? "n/a" : args.quantization;
  base.concurrency = C;
  if (!IdentifyModel(&base, &error)) {
    std::fprintf(stderr, "nunchi bench: %s\n", error.c_str());
    return 2;
  }
  DescribeRun(&base);
  std::string nunchi_version = FirstLine(CommandOutput({args.run.binary, "--version"}));
  if (nunchi_version.empty()) nunchi_version = "nunchi (version unknown)";
  std::error_code ec;
  const bool this_build = std::filesystem::equivalent(args.run.binary, "/proc/self/exe", ec);
  if (this_build && *kLlamaCommit) nunchi_version += ", llama.cpp " + std::string(kLlamaCommit);
  const bool need_llama =
      std::any_of(args.arms.begin(), args.arms.end(), [](const auto& a) { return a != "a"; });
  const std::string llama = !args.llama_server.empty() ? args.llama_server
                            : need_llama               ? FindLlamaServer(kLlamaCommit)
                                                       : "";
  std::string llama_version = llama.empty() ? "" : LlamaServerVersion(llama);
  if (!llama.empty() && llama_version.empty()) llama_version = "llama-server (version unknown)";
  const std::vector<std::string> llama_args = {"-m", args.model, "-t", T,          "-np",
                                               Cs,   "-c",       ctx,  "--metrics"};

  const LoadSpec& load = args.run.load;
  std::fprintf(
      stderr,
      "nunchi bench: compare %s on load %s (seed %u, %d cycles every %.3g s); model %s "
      "(%s); threads %d, concurrency %d, context %s (%d per sequence)\n",
      [&] {
        std::string s;
        for (const auto& a : args.arms) s += (s.empty() ? "" : ",") + a;
        return s;
      }()
          .c_str(),
      load.name.c_str(), load.seed, load.cycles, load.interval_s, args.model.c_str(),
      base.quantization.c_str(), args.threads, C, ctx.c_str(), args.slot_ctx);

  std::vector<ArmFigures> figures;
  std::vector<std::vector<CycleResult>> all_cycles;
  int rc = 0;
  for (const std::string& arm : args.arms) {
    const std::string dir = args.out_dir + "/" + arm;
    std::filesystem::create_directories(dir);
    RunOptions run = args.run;
    run.work_dir = dir;
    run.naive = false;
    Conditions cond = base;
    std::unique_ptr<ManagedLlamaServer> llama_server;
    std::string arm_error;
    std::fprintf(stderr, "nunchi bench: (%s) %s\n", arm.c_str(), Title(arm));
    if (arm != "a") {
      if (llama.empty()) {
        arm_error =
            "llama-server not found (--llama-server, $NUNCHI_LLAMA_SERVER, or "
            "scripts/setup-llama.sh)";
      } else {
        llama_server =
            std::make_unique<ManagedLlamaServer>(llama, llama_args, dir + "/llama-server.log");
        if (!llama_server->Start(args.ready_timeout_s, &error)) arm_error = error;
      }
    }
    if (arm == "a") {
      std::vector<std::string> s;
      Set(&s, args.server_args, "--model", args.model);
      Set(&s, args.server_args, "--threads", T);
      Set(&s, args.server_args, "--parallel", Cs);
      Set(&s, args.server_args, "--ctx-size", ctx);
      s.insert(s.end(), args.server_args.begin(), args.server_args.end());
      run.server_args = s;
      cond.engine = "nunchi in-process llama.cpp";
      cond.engine_version = nunchi_version;
      cond.output_token_cap_note = "grammar-bounded: the longest valid answer for the bundle";
      cond.prefix_reuse = Has(args.server_args, "--no-prefix-reuse") ? "off" : "on";
    } else if (arm == "b") {
      run.naive = true;
      run.naive_options.url = llama_server ? llama_server->url() : "";
      run.naive_options.concurrency = C;
      run.naive_options.model = model_name;
      cond.engine = "llama-server via naive client";
      cond.engine_version = llama_version;
      cond.output_token_cap = run.naive_options.max_tokens;
      cond.output_token_cap_note = std::to_string(run.naive_options.max_tokens) +
                                   " per signal (max_tokens), one call per new signal";
      cond.prefix_reuse = run.naive_options.cache_prompt == 1 ? "on (cache_prompt)"
                          : run.naive_options.cache_prompt == 0
                              ? "off (cache_prompt false)"
                              : "llama-server default (cache_prompt)";
      if (llama_server) cond.server_args = llama_server->command();
    } else {
      std::vector<std::string> s = {"--backend", "llama-server"};
      Set(&s, args.server_args, "--base-url", llama_server ? llama_server->url() + "/v1" : "");
      Set(&s, args.server_args, "--remote-model", model_name);
      Set(&s, args.server_args, "--remote-concurrency", Cs);
      s.insert(s.end(), args.server_args.begin(), args.server_args.end());
      run.server_args = s;
      if (llama_server) run.upstream_urls = {llama_server->url()};
      cond.engine = "nunchi remote backend → llama-server";
      cond.engine_version = nunchi_version + "; " + llama_version;
      cond.output_token_cap = kRemoteTokensPerTarget;
      cond.output_token_cap_note = std::to_string(kRemoteTokensBase) + " + " +
                                   std::to_string(kRemoteTokensPerTarget) +
                                   " per target signal (max_tokens), one call per bundle";
      cond.prefix_reuse = "on (cache_prompt)";
    }
    std::vector<CycleResult> cycles;
    if (arm_error.empty() && !RunBench(run, &cond, &cycles, &error)) arm_error = error;
    if (arm == "c" && llama_server)
      cond.server_args += "; llama-server: " + llama_server->command();
    if (llama_server) llama_server->Stop();
    const bool wanted_chain = arm == "a" ? cond.judge_chain.find("llama") == 0
                              : arm == "c"
                                  ? cond.judge_chain.find("llama-server") != std::string::npos
                                  : true;
    if (!cond.judge_chain.empty() && !wanted_chain)
      std::fprintf(stderr, "nunchi bench: (%s) warning: the server's judge chain is \"%s\"\n",
                   arm.c_str(), cond.judge_chain.c_str());
    if (!arm_error.empty()) {
      std::fprintf(stderr, "nunchi bench: (%s) %s\n", arm.c_str(), arm_error.c_str());
      rc = 1;
    }
    ArmFigures f = MakeArmFigures(arm, Title(arm), cond, cycles, load.interval_s);
    f.dir = dir;
    f.error = arm_error;
    if (!cycles.empty()) {
      if (!WriteResults(dir, load, cond, f.summary, cycles, &error)) {
        std::fprintf(stderr, "nunchi bench: %s\n", error.c_str());
        rc = 1;
      }
      PrintRunLine(load, arm, f.summary, dir);
    }
    figures.push_back(std::move(f));
    all_cycles.push_back(std::move(cycles));
  }

  Comparison cmp = Compare(std::move(figures));
  nlohmann::json setup = {{"load",
                           {{"name", load.name},
                            {"cycles", load.cycles},
                            {"interval_s", load.interval_s},
                            {"sim_step_s", load.sim_step_s},
                            {"seed", load.seed}}},
                          {"model",
                           {{"file", base.model_file},
                            {"name", base.model_name},
                            {"bytes", base.model_bytes},
                            {"hash_fnv1a64", base.model_hash},
                            {"quantization", base.quantization},
                            {"random_weights", base.random_weights}}},
                          {"threads", args.threads},
                          {"concurrency", C},
                          {"context_per_sequence", args.slot_ctx},
                          {"context_total", std::stoi(ctx)},
                          {"nunchi", {{"binary", args.run.binary}, {"version", nunchi_version}}},
                          {"llama_server", {{"binary", llama}, {"version", llama_version}}},
                          {"deadline_s", kDeadlineS},
                          {"host", base.host},
                          {"command", base.command}};
  std::filesystem::create_directories(args.out_dir);
  if (!WriteText(args.out_dir + "/compare.json", CompareJson(cmp, setup).dump(2) + "\n", &error) ||
      !WriteText(args.out_dir + "/compare.csv", CompareCsv(cmp), &error) ||
      !WriteText(args.out_dir + "/compare.html", CompareHtml(cmp, load, setup, all_cycles),
                 &error)) {
    std::fprintf(stderr, "nunchi bench: %s\n", error.c_str());
    rc = 1;
  }
  std::printf(
      "\ncompare: load %s, seed %u, %d cycles every %.3g s; model %s (%s%s); threads %d, "
      "concurrency %d\n%s-> %s/compare.json\n",
      load.name.c_str(), load.seed, load.cycles, load.interval_s, model_name.c_str(),
      base.quantization.c_str(), base.random_weights ? ", random weights" : "", args.threads, C,
      CompareTable(cmp).c_str(), args.out_dir.c_str());
  std::fflush(stdout);
  return rc;
}

}  // namespace nunchi::bench
