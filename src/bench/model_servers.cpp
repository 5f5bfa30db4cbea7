#include "bench/model_servers.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>

#include "bench/llama_server.h"

namespace nunchi::bench {
namespace {

constexpr const char* kPrompt = "nunchi_bench_llama_server_prompt_tokens_total";
constexpr const char* kCached = "nunchi_bench_llama_server_prompt_tokens_cached_total";
constexpr const char* kPredicted = "nunchi_bench_llama_server_tokens_predicted_total";

bool Has(const std::vector<std::string>& args, const std::string& flag) {
  return std::find(args.begin(), args.end(), flag) != args.end();
}

std::string Fixed(double v, int digits) {
  if (v < 0) return "n/a";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

}  // namespace

void FillTokenFigures(const std::vector<CycleResult>& cycles, int servers, ModelServersPoint* p) {
  double prompt = 0, cached = 0, predicted = 0;
  std::vector<double> per_server(static_cast<size_t>(std::max(1, servers)), 0.0);
  int n = 0;
  for (const CycleResult& c : cycles) {
    double v = SumOf(c.deltas, kPrompt);
    if (v < 0) continue;
    ++n;
    prompt += v;
    cached += std::max(0.0, SumOf(c.deltas, kCached));
    predicted += std::max(0.0, SumOf(c.deltas, kPredicted));
    for (size_t i = 0; i < per_server.size(); ++i) {
      auto it = c.deltas.find(servers > 1
                                  ? std::string(kPrompt) + "{server=\"" + std::to_string(i) + "\"}"
                                  : std::string(kPrompt));
      if (it != c.deltas.end()) per_server[i] += it->second;
    }
  }
  if (n == 0) return;
  p->prompt_per_cycle = prompt / n;
  p->cached_per_cycle = cached / n;
  p->generated_per_cycle = predicted / n;
  if (prompt > 0)
    p->busiest_share = *std::max_element(per_server.begin(), per_server.end()) / prompt;
}

std::string ModelServersCsv(const std::vector<ModelServersPoint>& points) {
  std::string out =
      "label,servers,affinity,round,cycles,p50_s,p95_s,max_s,deadline_misses,spots_failed,"
      "errors,prompt_tokens_per_cycle,cached_prompt_tokens_per_cycle,generated_per_cycle,"
      "busiest_server_share,judged_by,error\n";
  for (const auto& p : points) {
    const Summary& s = p.summary;
    out += CsvField(p.label) + "," + std::to_string(p.servers) + "," + p.affinity + "," +
           std::to_string(p.round) + "," + std::to_string(s.cycles) + "," + Fixed(s.p50, 3) + "," +
           Fixed(s.p95, 3) + "," + Fixed(s.max, 3) + "," + std::to_string(s.deadline_misses) + "," +
           std::to_string(s.spots_failed) + "," + std::to_string(s.errors) + "," +
           Fixed(p.prompt_per_cycle, 1) + "," + Fixed(p.cached_per_cycle, 1) + "," +
           Fixed(p.generated_per_cycle, 1) + "," + Fixed(p.busiest_share, 3) + "," +
           CsvField(JudgedByText(s)) + "," + CsvField(p.error) + "\n";
  }
  return out;
}

std::string ModelServersTable(const std::vector<ModelServersPoint>& points) {
  std::string out =
      "| servers | affinity | round | cycles | P50 s | P95 s | prompt tokens computed / cycle | "
      "cached / cycle | generated / cycle | busiest server's share | FAILED spots |\n"
      "|---|---|---|---|---|---|---|---|---|---|---|\n";
  for (const auto& p : points) {
    const Summary& s = p.summary;
    out += "| " + std::to_string(p.servers) + " | " + p.affinity + " | " + std::to_string(p.round) +
           " | " + std::to_string(s.cycles) + " | " + Fixed(s.p50, 3) + " | " + Fixed(s.p95, 3) +
           " | " + Fixed(p.prompt_per_cycle, 0) + " | " + Fixed(p.cached_per_cycle, 0) + " | " +
           Fixed(p.generated_per_cycle, 0) + " | " + Fixed(p.busiest_share, 2) + " | " +
           std::to_string(s.spots_failed) +
           (p.error.empty() ? "" : " (" + p.error.substr(0, 80) + ")") + " |\n";
  }
  return out;
}

int RunModelServersCommand(ModelServersArgs args) {
  std::string error;
  BenchArgs& b = args.bench;
  if (b.conditions.model_file.empty()) {
    std::fprintf(stderr, "nunchi bench: --model-servers needs --model M.gguf\n");
    return 2;
  }
  if (!IdentifyModel(&b.conditions, &error)) {
    std::fprintf(stderr, "nunchi bench: %s\n", error.c_str());
    return 2;
  }
  DescribeRun(&b.conditions);
  const std::string llama = args.llama_server.empty() ? FindLlamaServer() : args.llama_server;
  if (llama.empty()) {
    std::fprintf(stderr,
                 "nunchi bench: llama-server not found (--llama-server, $NUNCHI_LLAMA_SERVER, "
                 "or scripts/setup-llama.sh)\n");
    return 2;
  }
  std::string llama_version = LlamaServerVersion(llama);
  if (llama_version.empty()) llama_version = "llama-server (version unknown)";
  const std::string P = std::to_string(std::max(1, args.parallel));
  const std::vector<std::string> llama_args = {
      "-m",       b.conditions.model_file,
      "-t",       std::to_string(std::max(1, args.threads)),
      "-np",      P,
      "-c",       std::to_string(std::max(1, args.parallel) * std::max(256, args.slot_ctx)),
      "--metrics"};
  const std::string model_name = std::filesystem::path(b.conditions.model_file).stem().string();
  std::filesystem::create_directories(b.out_dir);

  std::vector<ModelServersPoint> points;
  int rc = 0, run_no = 0;
  for (int round = 1; round <= std::max(1, args.rounds); ++round)
    for (int n : args.servers)
      for (const std::string& aff : args.affinity) {
        ModelServersPoint point;
        point.servers = n;
        point.affinity = aff;
        point.round = round;
        point.label = "s" + std::to_string(n) + "-affinity-" + aff + "-r" + std::to_string(round);
        const std::string dir = b.out_dir + "/" + point.label;
        std::filesystem::create_directories(dir);
        std::fprintf(stderr, "nunchi bench: %s: %d llama-server(s), affinity %s, round %d\n",
                     point.label.c_str(), n, aff.c_str(), round);
        std::vector<std::unique_ptr<ManagedLlamaServer>> ls;
        RunOptions run = b.run;
        run.work_dir = dir;
        run.id_prefix = b.run.id_prefix + "m" + std::to_string(run_no++) + "-";
        std::vector<std::string> serve = {"--backend",
                                          "llama-server",
                                          "--remote-model",
                                          model_name,
                                          "--remote-concurrency",
                                          P,
                                          "--remote-affinity",
                                          aff};
        if (!Has(b.run.server_args, "--route")) {
          serve.push_back("--route");
          serve.push_back("remote,default");
        }
        std::string llama_commands;
        for (int i = 0; i < n && point.error.empty(); ++i) {
          ls.push_back(std::make_unique<ManagedLlamaServer>(
              llama, llama_args, dir + "/llama-server-" + std::to_string(i) + ".log"));
          if (!ls.back()->Start(args.ready_timeout_s, &error)) {
            point.error = error;
            break;
          }
          serve.push_back("--base-url");
          serve.push_back(ls.back()->url() + "/v1");
          run.upstream_urls.push_back(ls.back()->url());
          llama_commands += (llama_commands.empty() ? "" : "; ") + ls.back()->command();
        }
        serve.insert(serve.end(), b.run.server_args.begin(), b.run.server_args.end());
        run.server_args = serve;
        Conditions cond = b.conditions;
        cond.engine = "nunchi remote pool → " + std::to_string(n) + " llama-server(s)";
        cond.engine_version = llama_version;
        cond.concurrency = n * std::max(1, args.parallel);
        cond.prefix_reuse = "on (cache_prompt), affinity " + aff;
        std::vector<CycleResult> cycles;
        if (point.error.empty() && !RunBench(run, &cond, &cycles, &error)) point.error = error;
        cond.server_args += "; llama-servers: " + llama_commands;
        for (auto& s : ls) s->Stop();
        if (!point.error.empty()) {
          std::fprintf(stderr, "nunchi bench: %s: %s\n", point.label.c_str(), point.error.c_str());
          rc = 1;
        }
        point.summary = Summarize(cycles, run.load.interval_s);
        FillTokenFigures(cycles, n, &point);
        if (!cycles.empty()) {
          if (!WriteResults(dir, run.load, cond, point.summary, cycles, &error)) {
            std::fprintf(stderr, "nunchi bench: %s\n", error.c_str());
            return 1;
          }
          PrintRunLine(run.load, point.label, point.summary, dir);
        }
        points.push_back(std::move(point));
      }
  std::ofstream csv(b.out_dir + "/model_servers.csv");
  csv << ModelServersCsv(points);
  std::printf("\n%s\nmodel servers: %zu points -> %s/model_servers.csv\n",
              ModelServersTable(points).c_str(), points.size(), b.out_dir.c_str());
  return rc;
}

}  // namespace nunchi::bench
