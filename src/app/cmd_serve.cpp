// `nunchi serve`: opens the store, builds the judge chain, serves HTTP until
// SIGINT/SIGTERM, then drains the judgments in flight.
#include <csignal>
#include <filesystem>
#include <iostream>
#include <thread>

#include "app/commands.h"
#include "app/judge_factory.h"
#include "http/server.h"
#include "ops/decision_log.h"
#include "service/analysis_service.h"
#include "store/judgment_store.h"
#ifdef NUNCHI_HAVE_EXTRACT
#include "http/extract_routes.h"
#endif
#ifdef NUNCHI_HAVE_CHOOSERS
#include "app/llama_chooser.h"
#endif

namespace nunchi {
namespace {

struct ServeOptions {
  HttpOptions http;
  std::string data_dir = "./nunchi-data";
  std::string decision_log;  // default: DATA_DIR/decisions.jsonl
  bool log_texts = false;
  int deadline_ms = 45'000;
  double retention_hours = 24;
  size_t judge_threads = 16;
  RequestLimits limits;
  JudgeOptions judge;
  size_t extract_max_bytes = 10 << 20;
  int chooser_timeout_ms = 2000;  // the extraction chooser on the --model engine
};

int RunServe(const ServeOptions& o) {
  // Block the stop signals before any thread starts, so that every thread
  // inherits the mask and only the waiter below receives them.
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
  std::error_code ec;
  std::filesystem::create_directories(o.data_dir, ec);
  if (ec) {
    std::cerr << "nunchi: cannot create data dir " << o.data_dir << ": " << ec.message() << "\n";
    return 1;
  }
  auto store = OpenSqliteStore((std::filesystem::path(o.data_dir) / "judgments.db").string());
  if (!store.ok()) {
    std::cerr << "nunchi: " << store.status().ToString() << "\n";
    return 1;
  }
  auto log = DecisionLog::Open(
      o.decision_log.empty() ? (std::filesystem::path(o.data_dir) / "decisions.jsonl").string()
                             : o.decision_log == "off" ? "" : o.decision_log,
      o.log_texts);
  if (!log.ok()) {
    std::cerr << "nunchi: " << log.status().ToString() << "\n";
    return 1;
  }
  MetricsRegistry metrics;
  JudgeOptions jo = o.judge;
  if (jo.cache_dir.empty()) jo.cache_dir = (std::filesystem::path(o.data_dir) / "prefix-cache").string();
  auto chain = MakeJudgeChain(jo, &metrics);
  if (!chain.ok()) {
    std::cerr << "nunchi: " << chain.status().ToString() << "\n";
    return 1;
  }
  ServiceOptions so;
  so.judge_threads = o.judge_threads;
  so.retention_ms = static_cast<TimeMs>(o.retention_hours * 3600'000);
  so.limits = o.limits;
  AnalysisService service(**store, (*chain)->judge(), metrics, log->get(), so);
#ifdef NUNCHI_HAVE_EXTRACT
  // The extraction rules' LLM chooser shares the judge chain's engine (one
  // model in memory); declared before the server, which it must outlive.
  std::shared_ptr<extract::CandidateChooser> chooser;
#ifdef NUNCHI_HAVE_CHOOSERS
  if (std::shared_ptr<void> engine = (*chain)->llama_engine()) {
    auto made = MakeLlamaChooser(engine, {.timeout_ms = o.chooser_timeout_ms}, &metrics);
    if (!made.ok()) {
      std::cerr << "nunchi: extraction chooser: " << made.status().ToString() << "\n";
      return 1;
    }
    chooser = *made;
  }
#endif
#endif
  HttpOptions http = o.http;
  http.deadline = std::chrono::milliseconds(o.deadline_ms);
  HttpServer server(service, metrics, http);
#ifdef NUNCHI_HAVE_EXTRACT
  ExtractLimits el;
  el.max_bytes = o.extract_max_bytes;
  RegisterExtractRoutes(server.raw(), el, chooser.get(), &metrics);
#endif
  auto port = server.Bind();
  if (!port.ok()) {
    std::cerr << "nunchi: " << port.status().ToString() << "\n";
    return 1;
  }

  // Signals go to a dedicated thread that stops the server cleanly.
  std::thread waiter([&] {
    int sig = 0;
    sigwait(&set, &sig);
    std::cerr << "nunchi: signal " << sig << ", stopping\n";
    server.Stop();
  });
  std::cerr << "nunchi: listening on http://" << http.host << ":" << *port << " (judge "
            << (*chain)->describe() << ", epoch " << service.Epoch() << ", data "
            << o.data_dir << ")" << std::endl;
  server.Listen();
  pthread_kill(waiter.native_handle(), SIGTERM);
  waiter.join();
  std::cerr << "nunchi: stopped\n";
  return 0;
}

}  // namespace

void AddServeCommand(CLI::App& app) {
  auto o = std::make_shared<ServeOptions>();
  CLI::App* cmd = app.add_subcommand("serve", "Serve POST /v1/congestion-analyses over HTTP");
  cmd->add_option("--host", o->http.host, "Address to listen on")->capture_default_str();
  cmd->add_option("--port", o->http.port, "Port to listen on (0: any free port)")
      ->capture_default_str();
  cmd->add_option("--data-dir", o->data_dir, "Directory for the judgment store and logs")
      ->capture_default_str();
  cmd->add_option("--deadline-ms", o->deadline_ms,
                  "Answer within this many ms of receiving a request; late spots are FAILED")
      ->capture_default_str();
  cmd->add_option("--max-body-bytes", o->http.max_body_bytes, "Larger bodies get 413")
      ->capture_default_str();
  cmd->add_option("--max-text-chars", o->limits.max_text_chars, "Longest signal text accepted")
      ->capture_default_str();
  cmd->add_option("--max-signals", o->limits.max_signals, "Most signals in one request")
      ->capture_default_str();
  cmd->add_option("--max-new-signals", o->limits.max_new_signals, "Most new signals in one request")
      ->capture_default_str();
  cmd->add_option("--judge-threads", o->judge_threads, "Bundles judged at once")
      ->capture_default_str();
  cmd->add_option("--http-threads", o->http.threads, "HTTP worker threads")->capture_default_str();
  cmd->add_option("--retention-hours", o->retention_hours, "Prune judgments older than this")
      ->capture_default_str();
  cmd->add_option("--decision-log", o->decision_log,
                  "JSON-lines decision log: a path, '-' for stderr, 'off' (default: "
                  "DATA_DIR/decisions.jsonl)");
  cmd->add_flag("--log-texts", o->log_texts, "Include signal texts in the decision log");
  cmd->add_option("--extract-max-bytes", o->extract_max_bytes, "Largest image accepted")
      ->capture_default_str();
  cmd->add_option("--chooser-timeout-ms", o->chooser_timeout_ms,
                  "With --model: longest one LLM choice among OCR candidates may take")
      ->capture_default_str();
  AddJudgeFlags(cmd, &o->judge);
  cmd->callback([o] { throw CLI::RuntimeError(RunServe(*o)); });
}

}  // namespace nunchi
