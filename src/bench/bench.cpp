#include "bench/bench.h"

#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

#include "bench/gguf_info.h"
#include "bench/html_report.h"
#include "bench/sweep_report.h"

namespace nunchi::bench {
namespace {

std::string Host() {
  std::ifstream f("/proc/cpuinfo");
  std::string line, model;
  while (std::getline(f, line))
    if (line.rfind("model name", 0) == 0) {
      model = line.substr(line.find(':') + 2);
      break;
    }
  utsname u{};
  uname(&u);
  return model + ", " + std::to_string(sysconf(_SC_NPROCESSORS_ONLN)) + " CPUs, " + u.sysname +
         " " + u.release;
}

// This process's command line; arguments with spaces are quoted.
std::string CommandLine() {
  std::ifstream f("/proc/self/cmdline", std::ios::binary);
  std::string out, arg;
  while (std::getline(f, arg, '\0')) {
    if (!out.empty()) out += ' ';
    out += arg.find(' ') == std::string::npos ? arg : "\"" + arg + "\"";
  }
  return out;
}

bool WriteFile(const std::string& path, const std::string& text, std::string* error) {
  std::ofstream f(path, std::ios::binary);
  f << text;
  if (!f) *error = "cannot write " + path;
  return static_cast<bool>(f);
}

std::string Hex(uint64_t v) {
  char buf[20];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v));
  return buf;
}

struct Point {
  std::string label;
  int concurrency = 0;
  int bundle_cap = 0;
  std::string prefix_reuse;     // "on", "off"; empty: as given
  int bundles_per_call = 0;     // 0: as given
  std::string route;            // serve --route; empty: as given
  int escalation_wait_ms = -1;  // serve --escalation-wait-ms; -1: as given
  int background_chunk = -1;    // serve --background-chunk; -1: as given
};

// A sweep point's `serve FLAG VALUE` for the server the bench starts; with
// --target or the naive client there is none, so the value is only recorded.
void PassToServer(RunOptions* run, const char* flag, const std::string& value) {
  if (!run->naive && run->target.empty()) {
    run->server_args.push_back(flag);
    run->server_args.push_back(value);
  } else {
    std::fprintf(stderr, "nunchi bench: %s %s is recorded, not set\n", flag, value.c_str());
  }
}

std::vector<std::string> WithConcurrency(std::vector<std::string> args, int c) {
  bool placed = false;
  for (auto& a : args)
    if (auto pos = a.find("{concurrency}"); pos != std::string::npos) {
      a.replace(pos, 13, std::to_string(c));
      placed = true;
    }
  if (!placed) {
    args.push_back("--judge-threads");
    args.push_back(std::to_string(c));
  }
  return args;
}

}  // namespace

bool IdentifyModel(Conditions* c, std::string* error) {
  if (c->model_file.empty()) return true;
  std::ifstream f(c->model_file, std::ios::binary);
  if (!f) {
    *error = "cannot read model file " + c->model_file;
    return false;
  }
  uint64_t h = 1469598103934665603ULL;
  std::vector<char> buf(1 << 20);
  std::string head;
  long long total = 0;
  while (f) {
    f.read(buf.data(), static_cast<std::streamsize>(buf.size()));
    std::streamsize n = f.gcount();
    if (n <= 0) break;
    if (head.size() < (8u << 20)) head.append(buf.data(), static_cast<size_t>(n));
    for (std::streamsize i = 0; i < n; ++i) {
      h ^= static_cast<unsigned char>(buf[static_cast<size_t>(i)]);
      h *= 1099511628211ULL;
    }
    total += n;
  }
  c->model_bytes = total;
  c->model_hash = Hex(h);
  if (head.find("nunchi-random-") != std::string::npos) c->random_weights = true;
  // GGUF key-value: key, then u32 type (8: string), u64 length, bytes.
  const std::string key = "general.name";
  if (auto pos = head.find(key); pos != std::string::npos && pos + key.size() + 12 < head.size()) {
    uint32_t type = 0;
    uint64_t len = 0;
    std::memcpy(&type, head.data() + pos + key.size(), 4);
    std::memcpy(&len, head.data() + pos + key.size() + 4, 8);
    if (type == 8 && len < 256 && pos + key.size() + 12 + len <= head.size())
      c->model_name = head.substr(pos + key.size() + 12, len);
  }
  // The quantization from the header, unless given.
  GgufInfo info;
  std::string ignored;
  if (ReadGgufInfo(c->model_file, &info, &ignored)) {
    if (!info.name.empty()) c->model_name = info.name;
    if ((c->quantization.empty() || c->quantization == "n/a") && !info.quantization.empty())
      c->quantization = info.quantization;
  }
  return true;
}

void DescribeRun(Conditions* c) {
  c->host = Host();
  c->command = CommandLine();
}

void PrintRunLine(const LoadSpec& load, const std::string& label, const Summary& s,
                  const std::string& dir) {
  auto opt = [](double v) {
    return v < 0 ? std::string("n/a") : std::to_string(static_cast<long long>(v));
  };
  char cold[96] = "";
  if (s.cold_p50 >= 0)
    std::snprintf(cold, sizeof cold, " (P50 %.3f s, P95 %.3f s, max %.3f s)", s.cold_p50,
                  s.cold_p95, s.cold_max);
  std::printf(
      "load %s%s: %d cycles, latency P50 %.3f s, P95 %.3f s, P99 %.3f s, max %.3f s; "
      "deadline misses %d; spots OK %d FAILED %d; errors %d; backlog %s; cold starts %d%s, "
      "cycles to recover %s; tokens prefilled %s generated %s forced %s reused %s; "
      "degenerations %s; judged by %s -> %s\n",
      load.name.c_str(), label.empty() ? "" : (" [" + label + "]").c_str(), s.cycles, s.p50, s.p95,
      s.p99, s.max, s.deadline_misses, s.spots_ok, s.spots_failed, s.errors,
      !s.backlog_known  ? "unknown (under 8 requests)"
      : s.backlog_grows ? "GROWS"
                        : "steady",
      s.cold_starts, cold,
      s.recover_mean < 0
          ? "n/a"
          : (std::to_string(s.recover_mean) + " mean, " + std::to_string(s.recover_max) + " max")
                .c_str(),
      opt(s.tokens_prefilled).c_str(), opt(s.tokens_generated).c_str(),
      opt(s.tokens_forced).c_str(), opt(s.tokens_reused).c_str(), opt(s.degenerations).c_str(),
      JudgedByText(s).empty() ? "n/a" : JudgedByText(s).c_str(), dir.c_str());
  if (s.cascade_run.known() || s.cascade.known())
    std::printf(
        "cascade%s: %s (over the run, late answers between cycles included: %.0f replaced)\n",
        label.empty() ? "" : (" [" + label + "]").c_str(),
        CascadeText(s.cascade_run.known() ? s.cascade_run : s.cascade).c_str(),
        std::max(0.0, (s.cascade_run.known() ? s.cascade_run : s.cascade).late_replaced));
  std::fflush(stdout);
}

bool WriteResults(const std::string& dir, const LoadSpec& load, const Conditions& c,
                  const Summary& s, const std::vector<CycleResult>& cycles, std::string* error) {
  std::filesystem::create_directories(dir);
  return WriteFile(dir + "/results.json", ToJson(load, c, s, cycles).dump(2) + "\n", error) &&
         WriteFile(dir + "/cycles.csv", ToCsv(cycles), error) &&
         WriteFile(dir + "/report.html", HtmlReport(load, c, s, cycles), error);
}

int RunBenchCommand(BenchArgs args) {
  std::string error;
  if (!IdentifyModel(&args.conditions, &error)) {
    std::fprintf(stderr, "nunchi bench: %s\n", error.c_str());
    return 2;
  }
  DescribeRun(&args.conditions);
  std::vector<Point> points;
  std::vector<int> cs = args.sweep_concurrency, caps = args.sweep_bundle_cap;
  std::vector<std::string> reuses = args.sweep_prefix_reuse;
  std::vector<int> bpcs = args.sweep_bundles_per_call;
  std::vector<std::string> routes = args.sweep_route;
  std::vector<int> waits = args.sweep_escalation_wait_ms;
  std::vector<int> chunks = args.sweep_background_chunk;
  const bool sweep = !cs.empty() || !caps.empty() || !reuses.empty() || !bpcs.empty() ||
                     !routes.empty() || !waits.empty() || !chunks.empty();
  if (cs.empty()) cs.push_back(0);
  if (caps.empty()) caps.push_back(0);
  if (reuses.empty()) reuses.push_back("");
  if (bpcs.empty()) bpcs.push_back(0);
  if (routes.empty()) routes.push_back("");
  if (waits.empty()) waits.push_back(-1);
  if (chunks.empty()) chunks.push_back(-1);
  for (int c : cs)
    for (int cap : caps)
      for (const std::string& reuse : reuses)
        for (int bpc : bpcs)
          for (const std::string& route : routes)
            for (int wait : waits)
              for (int chunk : chunks) {
                std::string label;
                auto add = [&](const std::string& part) {
                  label += (label.empty() ? "" : "-") + part;
                };
                if (c > 0) add("c" + std::to_string(c));
                if (cap > 0) add("cap" + std::to_string(cap));
                if (!reuse.empty()) add("reuse-" + reuse);
                if (bpc > 0) add("bpc" + std::to_string(bpc));
                if (!route.empty()) {
                  std::string name = route;  // "llama,default" -> "route-llama+default"
                  std::replace(name.begin(), name.end(), ',', '+');
                  add("route-" + name);
                }
                if (wait >= 0) add("wait" + std::to_string(wait));
                if (chunk >= 0) add("chunk" + std::to_string(chunk));
                points.push_back({label, c, cap, reuse, bpc, route, wait, chunk});
              }
  std::vector<SweepPoint> done;
  int rc = 0;
  int run_no = 0;
  for (const Point& p : points) {
    RunOptions run = args.run;
    Conditions cond = args.conditions;
    if (p.concurrency > 0) {
      cond.concurrency = p.concurrency;
      run.naive_options.concurrency = p.concurrency;
      if (!run.naive && run.target.empty())
        run.server_args = WithConcurrency(run.server_args, p.concurrency);
      else if (!run.naive)
        std::fprintf(stderr, "nunchi bench: --target: concurrency %d is recorded, not set\n",
                     p.concurrency);
    }
    if (!p.prefix_reuse.empty()) {
      // nunchi's prefix cache: off is `serve --no-prefix-reuse`.
      cond.prefix_reuse = p.prefix_reuse;
      if (p.prefix_reuse == "off" && !run.naive && run.target.empty())
        run.server_args.push_back("--no-prefix-reuse");
      else if (run.naive || !run.target.empty())
        std::fprintf(stderr, "nunchi bench: prefix reuse %s is recorded, not set\n",
                     p.prefix_reuse.c_str());
    }
    if (p.bundles_per_call > 0) {
      // Batch prompting in nunchi's in-process LLM judge.
      cond.bundles_per_call = p.bundles_per_call;
      PassToServer(&run, "--bundles-per-call", std::to_string(p.bundles_per_call));
    }
    if (!p.route.empty()) {
      // The judge route of the managed server.
      cond.route = p.route;
      PassToServer(&run, "--route", p.route);
    }
    // How long the cascade waits for the LLM.
    if (p.escalation_wait_ms >= 0)
      PassToServer(&run, "--escalation-wait-ms", std::to_string(p.escalation_wait_ms));
    // Deferred prefill per engine step.
    if (p.background_chunk >= 0)
      PassToServer(&run, "--background-chunk", std::to_string(p.background_chunk));
    if (p.bundle_cap > 0) {
      run.load.bundle_cap = p.bundle_cap;
      run.load.initial_comments = std::min(run.load.initial_comments, p.bundle_cap);
    }
    if (run.naive) {
      cond.engine = args.conditions.engine + " via naive client";
      if (cond.output_token_cap == 0) cond.output_token_cap = run.naive_options.max_tokens;
      if (cond.concurrency == 0) cond.concurrency = run.naive_options.concurrency;
    }
    const std::string dir = sweep ? args.out_dir + "/" + p.label : args.out_dir;
    std::filesystem::create_directories(dir);
    run.work_dir = dir;
    run.id_prefix = args.run.id_prefix + "r" + std::to_string(run_no++) + "-";
    if (sweep)
      std::fprintf(stderr, "nunchi bench: %s (%s)\n", run.load.name.c_str(), p.label.c_str());
    std::vector<CycleResult> cycles;
    Series run_deltas;
    if (!RunBench(run, &cond, &cycles, &error, &run_deltas)) {
      std::fprintf(stderr, "nunchi bench: %s\n", error.c_str());
      rc = 1;
      if (cycles.empty()) continue;
    }
    Summary s = Summarize(cycles, run.load.interval_s);
    s.cascade_run = CascadeFromDeltas(run_deltas);
    if (!WriteResults(dir, run.load, cond, s, cycles, &error)) {
      std::fprintf(stderr, "nunchi bench: %s\n", error.c_str());
      return 1;
    }
    PrintRunLine(run.load, p.label, s, dir);
    done.push_back({p.label, cond, run.load.bundle_cap, s});
  }
  if (sweep) {
    if (!WriteFile(args.out_dir + "/sweep.csv", SweepCsv(args.run.load, done), &error) ||
        !WriteFile(args.out_dir + "/sweep.html", SweepHtml(args.run.load, done), &error)) {
      std::fprintf(stderr, "nunchi bench: %s\n", error.c_str());
      return 1;
    }
    std::printf("sweep: %zu points -> %s/sweep.csv, %s/sweep.html\n", done.size(),
                args.out_dir.c_str(), args.out_dir.c_str());
    // Routes or waits measured in one invocation: each point's latency against the first's.
    const bool ratios = !args.sweep_route.empty() || !args.sweep_escalation_wait_ms.empty() ||
                        !args.sweep_background_chunk.empty();
    if (ratios && !done.empty() && done.front().summary.p95 > 0)
      for (const SweepPoint& d : done)
        std::printf("ratio %s / %s: P95 %.2f s / %.2f s = %.2fx\n", d.label.c_str(),
                    done.front().label.c_str(), d.summary.p95, done.front().summary.p95,
                    d.summary.p95 / done.front().summary.p95);
  }
  return rc;
}

}  // namespace nunchi::bench
