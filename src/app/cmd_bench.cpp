// `nunchi bench`: parses the flags into bench::BenchArgs and runs them, or,
// with --compare, into bench::CompareArgs for the arms (a), (b), (c).
#include "app/cmd_bench.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <iostream>

#include "bench/bench.h"
#include "bench/compare.h"
#include "bench/model_servers.h"
#include "bench/replicas.h"
#include "bench/server.h"
#include "ops/child_process.h"

namespace nunchi {
namespace {

struct Flags {
  std::string load_file;
  int cycles = 0;
  double interval = -1;
  std::string server_args;
  std::string naive_cache = "server";
  unsigned seed = 0;
  bool seed_set = false;
  std::string compare;  // --compare a,b,c
  bench::CompareArgs compare_args;
  bench::ModelServersArgs model_servers;
  bench::ReplicasArgs replicas;
  bool replicas_on = false;
  bench::BenchArgs args;
};

}  // namespace

void AddBenchCommand(CLI::App& app) {
  auto f = std::make_shared<Flags>();
  bench::BenchArgs& a = f->args;
  CLI::App* cmd = app.add_subcommand(
      "bench",
      "Play the backend against a nunchi server under a load (loads/*.toml) and measure it");
  cmd->add_option("--load", f->load_file, "Load file (loads/normal.toml, peak.toml, cold.toml)")
      ->required();
  cmd->add_option("--cycles", f->cycles, "Override the load's cycle count");
  cmd->add_option("--interval", f->interval, "Override the seconds between cycles (e.g. 0.5)");
  cmd->add_option_function<unsigned>(
      "--seed", [f](const unsigned& v) { f->seed = v, f->seed_set = true; },
      "Override the load's text and traffic seed");
  cmd->add_option("--target", a.run.target, "URL of a running nunchi (default: start one)");
  cmd->add_option("--server-args", f->server_args,
                  "Extra `nunchi serve` arguments for the server it starts; {concurrency} is "
                  "replaced in sweeps; --compare: added in (a) and (c)");
  cmd->add_option("--nunchi-binary", a.run.binary,
                  "nunchi executable to start (default: this one)");
  cmd->add_option("--out", a.out_dir, "Output directory")->capture_default_str();
  cmd->add_option("--timeout", a.run.timeout_s, "Seconds before the backend gives up")
      ->capture_default_str();
  cmd->add_flag(
      "--no-progress", [&a](int64_t) { a.run.progress = false; }, "No progress bar");
  // The five execution conditions and the model, recorded with every result.
  bench::Conditions& c = a.conditions;
  cmd->add_option("--engine-label", c.engine, "Engine, as recorded")->capture_default_str();
  cmd->add_option("--engine-version", c.engine_version, "Engine version, e.g. llama.cpp 80fb11ac");
  cmd->add_option("--quant", c.quantization, "Quantization, e.g. Q8_0 (default: read from --model)")
      ->capture_default_str();
  cmd->add_option("--concurrency", c.concurrency,
                  "Concurrency, as recorded (naive: as used; --compare: as used, default 6)");
  cmd->add_option("--token-cap", c.output_token_cap, "Output token cap, as recorded");
  cmd->add_option("--prefix-reuse", c.prefix_reuse, "on | off | n/a, as recorded")
      ->capture_default_str();
  cmd->add_option("--model", c.model_file,
                  "Model file: hashed and recorded (--compare: served by every arm)");
  cmd->add_flag("--random-weights", c.random_weights, "The model has random weights");
  // The naive client (b) and sweeps.
  cmd->add_option("--naive-llama-server", a.run.naive_options.url,
                  "Judge through llama-server at URL, one call per new signal (no nunchi)");
  cmd->add_option("--naive-model", a.run.naive_options.model, "\"model\" for llama-server")
      ->capture_default_str();
  cmd->add_option("--naive-max-tokens", a.run.naive_options.max_tokens, "Token cap per signal")
      ->capture_default_str();
  cmd->add_option("--naive-cache-prompt", f->naive_cache, "on | off | server")
      ->capture_default_str();
  cmd->add_option("--naive-instructions", a.run.naive_options.instructions_file,
                  "Instructions file (default: built in)");
  cmd->add_option("--naive-deadline", a.run.naive_options.deadline_s,
                  "Seconds the naive client waits for its calls per cycle (the contract's 50; "
                  "longer measures how late it really is instead of cutting it)")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_option("--sweep-concurrency", a.sweep_concurrency, "e.g. 2,5,12,24")->delimiter(',');
  cmd->add_option("--sweep-bundle-cap", a.sweep_bundle_cap, "e.g. 8,20,60")->delimiter(',');
  cmd->add_option("--sweep-prefix-reuse", a.sweep_prefix_reuse,
                  "on,off: nunchi's prefix cache (off adds --no-prefix-reuse)")
      ->delimiter(',')
      ->check(CLI::IsMember({"on", "off"}));
  cmd->add_option("--sweep-bundles-per-call", a.sweep_bundles_per_call,
                  "e.g. 1,4,8,16: batch prompting in nunchi's llama judge "
                  "(adds serve --bundles-per-call N; needs --model in --server-args)")
      ->delimiter(',')
      ->check(CLI::Range(1, 26));
  cmd->add_option("--sweep-route", a.sweep_route,
                  "cascade,llama+default,default: the judge route of the managed server per point "
                  "(adds serve --route R; '+' stands for ',' inside a route), with each point's "
                  "P95 against the first's")
      ->delimiter(',')
      ->transform([](std::string r) {
        std::replace(r.begin(), r.end(), '+', ',');
        return r;
      });
  cmd->add_option("--sweep-escalation-wait-ms", a.sweep_escalation_wait_ms,
                  "e.g. 4000,6000: how long the cascade waits for the LLM per point (adds serve "
                  "--escalation-wait-ms N), with each point's P95 against the first's")
      ->delimiter(',')
      ->check(CLI::Range(0, 3600000));
  cmd->add_option("--sweep-background-chunk", a.sweep_background_chunk,
                  "e.g. 0,64: prompt tokens a deferred cascade call prefills per engine step per "
                  "point (adds serve --background-chunk N), with each point's P95 against the "
                  "first's")
      ->delimiter(',')
      ->check(CLI::Range(0, 1 << 20));
  // The comparison in one run: (a) nunchi in-process, (b) naive client, (c) nunchi remote.
  bench::CompareArgs& ca = f->compare_args;
  cmd->add_option("--compare", f->compare,
                  "Run arms one after another on --model, --threads, --concurrency: a (nunchi "
                  "in-process engine), b (naive client on llama-server), c (nunchi through "
                  "llama-server); e.g. a,b,c");
  cmd->add_option("--threads", ca.threads,
                  "--compare: llama.cpp threads in every arm (default: all CPUs)");
  cmd->add_option("--slot-ctx", ca.slot_ctx,
                  "--compare: context per sequence; each server gets concurrency x this")
      ->capture_default_str();
  cmd->add_option("--llama-server", ca.llama_server,
                  "--compare: llama-server binary (default: $NUNCHI_LLAMA_SERVER or "
                  "~/.cache/nunchi/llama-*/bin/llama-server)");
  // Bundle affinity over several llama-servers (issue 17).
  bench::ModelServersArgs& ms = f->model_servers;
  CLI::Option* ms_opt =
      cmd->add_option(
             "--model-servers", ms.servers,
             "Measure the remote pool: for each count N, e.g. 1,2,4, start N llama-servers on "
             "--model and run with --remote-affinity on and off, interleaved")
          ->delimiter(',')
          ->check(CLI::Range(1, 64));
  cmd->add_option("--affinity", ms.affinity, "--model-servers: settings to interleave")
      ->delimiter(',')
      ->check(CLI::IsMember({"on", "off"}))
      ->capture_default_str();
  cmd->add_option("--rounds", ms.rounds, "--model-servers: repeat the interleave this many times")
      ->check(CLI::Range(1, 100))
      ->capture_default_str();
  cmd->add_option("--model-server-threads", ms.threads, "--model-servers: -t of each llama-server")
      ->check(CLI::Range(1, 256))
      ->capture_default_str();
  cmd->add_option("--model-server-parallel", ms.parallel,
                  "--model-servers: -np of each llama-server (and --remote-concurrency)")
      ->check(CLI::Range(1, 256))
      ->capture_default_str();
  // Two replicas behind HAProxy, one killed mid-run (issue 17 part 2).
  cmd->add_flag("--replicas", f->replicas_on,
                "Drive the load through HAProxy in front of two replicas on --store, killing "
                "replica a with SIGKILL before cycle --kill-at and restarting it later");
  cmd->add_option("--store", f->replicas.store, "--replicas: the shared postgres://... store");
  cmd->add_option("--kill-at", f->replicas.kill_at,
                  "--replicas: cycle before which replica a is killed (default: half-way)");
  cmd->add_option("--restart-after", f->replicas.restart_after,
                  "--replicas: cycles after the kill before it restarts (0: never)")
      ->capture_default_str();
  cmd->callback([f, ms_opt] {
    // Ctrl-C or a kill takes the servers the bench started down with it.
    StopChildrenOnSignal();
    bench::BenchArgs args = f->args;
    std::string error;
    if (!bench::LoadSpecFromFile(f->load_file, &args.run.load, &error))
      throw CLI::ValidationError("--load", error);
    if (f->cycles > 0) args.run.load.cycles = f->cycles;
    if (f->interval >= 0) args.run.load.interval_s = f->interval;
    if (f->seed_set) args.run.load.seed = f->seed;
    args.run.server_args = bench::SplitArgs(f->server_args);
    if (args.run.binary.empty())
      args.run.binary = std::filesystem::read_symlink("/proc/self/exe").string();
    args.run.naive = !args.run.naive_options.url.empty();
    args.run.naive_options.cache_prompt = f->naive_cache == "on"    ? 1
                                          : f->naive_cache == "off" ? 0
                                                                    : -1;
    if (args.run.naive_options.concurrency <= 0 || args.conditions.concurrency > 0)
      args.run.naive_options.concurrency = std::max(1, args.conditions.concurrency);
    // Ids unique per run, so runs against one server never collide.
    args.run.id_prefix =
        "b" +
        std::to_string(std::chrono::system_clock::now().time_since_epoch().count() %
                       1'000'000'007) +
        "-";
    if (!f->compare.empty()) {
      bench::CompareArgs ca = f->compare_args;
      if (!bench::ParseArms(f->compare, &ca.arms, &error))
        throw CLI::ValidationError("--compare", error);
      if (!args.run.target.empty() || args.run.naive || !args.sweep_concurrency.empty() ||
          !args.sweep_bundle_cap.empty() || !args.sweep_prefix_reuse.empty() ||
          !args.sweep_bundles_per_call.empty())
        throw CLI::ValidationError(
            "--compare", "starts its own servers: no --target, --naive-llama-server or sweeps");
      if (args.conditions.model_file.empty())
        throw CLI::ValidationError("--compare", "needs --model M.gguf");
      ca.run = args.run;
      ca.server_args = args.run.server_args;
      ca.model = args.conditions.model_file;
      if (args.conditions.concurrency > 0) ca.concurrency = args.conditions.concurrency;
      ca.quantization = args.conditions.quantization;
      ca.out_dir = args.out_dir;
      int rc = bench::RunCompareCommand(ca);
      if (rc != 0) throw CLI::RuntimeError(rc);
      return;
    }
    if (f->replicas_on) {
      if (!args.run.target.empty() || args.run.naive || !f->compare.empty() || ms_opt->count())
        throw CLI::ValidationError("--replicas",
                                   "starts its own servers: no --target, --naive-llama-server, "
                                   "--compare or --model-servers");
      bench::ReplicasArgs ra = f->replicas;
      ra.bench = args;
      int rc = bench::RunReplicasCommand(ra);
      if (rc != 0) throw CLI::RuntimeError(rc);
      return;
    }
    if (ms_opt->count() > 0) {
      if (!args.run.target.empty() || args.run.naive || !f->compare.empty())
        throw CLI::ValidationError("--model-servers",
                                   "starts its own servers: no --target, --naive-llama-server or "
                                   "--compare");
      bench::ModelServersArgs ms = f->model_servers;
      ms.bench = args;
      ms.llama_server = f->compare_args.llama_server;
      ms.slot_ctx = f->compare_args.slot_ctx;
      int rc = bench::RunModelServersCommand(ms);
      if (rc != 0) throw CLI::RuntimeError(rc);
      return;
    }
    int rc = bench::RunBenchCommand(args);
    if (rc != 0) throw CLI::RuntimeError(rc);
  });
}

}  // namespace nunchi
