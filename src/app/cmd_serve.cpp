// `nunchi serve`: opens the store, builds the judge chain, serves HTTP until
// SIGINT/SIGTERM, then drains the judgments in flight.
#include <cctype>
#include <csignal>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <thread>

#include "app/commands.h"
#include "app/judge_factory.h"
#include "git_commit.h"  // generated at build time: NUNCHI_GIT_COMMIT
#include "http/server.h"
#include "ops/decision_log.h"
#include "ops/log.h"
#include "service/analysis_service.h"
#include "store/fault_store.h"
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
  std::string store;         // "" (SQLite in data_dir) or a postgres:// URL
  std::string decision_log;  // default: DATA_DIR/decisions.jsonl
  bool log_texts = false;
  bool keep_texts = false;
  int deadline_ms = 45'000;
  double retention_hours = 24;
  size_t judge_threads = 16;
  RequestLimits limits;
  JudgeOptions judge;
  size_t extract_max_bytes = 10 << 20;
  int chooser_timeout_ms = 2000;  // the extraction chooser on the --model engine
  std::string auth_key_file;      // inbound Bearer key (not the model server's)
  int header_timeout_ms = 5'000;
  int body_timeout_ms = 15'000;
  int keep_alive_timeout_ms = 5'000;
  int drain_ms = 5'000;
  size_t max_judge_queue = 8192;
  size_t max_concurrent_decodes = 4;
  size_t max_decoded_mib = 512;
  std::string inject_store_faults;  // tests: a control file for FaultInjectingStore
  std::string log_format = "json";
  std::string log_level = "info";
};

// The inbound key: the file's first line, trimmed; an empty key is an error.
Result<std::string> ReadAuthKey(const std::string& path) {
  std::ifstream in(path);
  if (!in) return Status(ErrorCode::kIo, "cannot read --auth-key-file " + path);
  std::string key;
  std::getline(in, key);
  while (!key.empty() && std::isspace(static_cast<unsigned char>(key.back()))) key.pop_back();
  while (!key.empty() && std::isspace(static_cast<unsigned char>(key.front()))) key.erase(0, 1);
  if (key.empty())
    return Status(ErrorCode::kInvalidArgument, "--auth-key-file " + path + " is empty");
  return key;
}

bool IsCorruptStore(const Status& s) {
  const std::string& m = s.message();
  return m.find("corrupt") != std::string::npos || m.find("not a database") != std::string::npos ||
         m.find("malformed") != std::string::npos;
}

// A startup failure: one error event, exit code 1.
int Fail(std::string_view event, const std::string& msg) {
  LogEvent(LogLevel::kError, event, msg);
  FlushLog();
  return 1;
}

int RunServe(const ServeOptions& o) {
  LogFormat format = LogFormat::kJson;
  LogLevel level = LogLevel::kInfo;
  ParseLogFormat(o.log_format, &format);  // both checked by CLI11 already
  ParseLogLevel(o.log_level, &level);
  ConfigureLog(format, level);
  LogEvent(LogLevel::kInfo, "config", "nunchi serve starting",
           {{"version", NUNCHI_VERSION_STRING},
            {"commit", NUNCHI_GIT_COMMIT},
            {"llama_commit", NUNCHI_LLAMA_COMMIT_ID},
            {"host", o.http.host},
            {"port", o.http.port},
            {"data_dir", o.data_dir},
            {"deadline_ms", o.deadline_ms},
            {"max_body_bytes", o.http.max_body_bytes},
            {"max_text_chars", o.limits.max_text_chars},
            {"max_signals", o.limits.max_signals},
            {"judge_threads", o.judge_threads},
            {"http_threads", o.http.threads},
            {"retention_hours", o.retention_hours},
            {"route", o.judge.route},
            {"model", o.judge.model_path},
            {"log_format", o.log_format},
            {"log_level", o.log_level}});
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
    return Fail("startup_failed", "cannot create data dir " + o.data_dir + ": " + ec.message());
  }
  const std::string db_path = (std::filesystem::path(o.data_dir) / "judgments.db").string();
  // --store: a postgres:// URL (replicas sharing one database), else the
  // SQLite file in the data dir.
  auto store = IsPostgresUrl(o.store) ? OpenPostgresStore(o.store) : OpenSqliteStore(db_path);
  if (!IsPostgresUrl(o.store) && !store.ok() && IsCorruptStore(store.status())) {
    // Never answer from a damaged store: move it aside and start a new epoch,
    // so that the backend's next cycle gets STATE_RESET and resends all.
    const std::string aside = db_path + ".corrupt-" + std::to_string(std::time(nullptr));
    std::error_code mv;
    for (const char* ext : {"", "-wal", "-shm"})
      if (std::filesystem::exists(db_path + ext))
        std::filesystem::rename(db_path + ext, aside + ext, mv);
    LogEvent(LogLevel::kError, "store_corrupt", store.status().message(), {{"moved_to", aside}});
    store = OpenSqliteStore(db_path);
  }
  if (!store.ok()) {
    return Fail("startup_failed", store.status().ToString());
  }
  if (!o.inject_store_faults.empty())
    store.value() =
        std::make_unique<FaultInjectingStore>(std::move(store.value()), o.inject_store_faults);
  auto log = DecisionLog::Open(
      o.decision_log.empty()    ? (std::filesystem::path(o.data_dir) / "decisions.jsonl").string()
      : o.decision_log == "off" ? ""
                                : o.decision_log,
      o.log_texts);
  if (!log.ok()) {
    return Fail("startup_failed", log.status().ToString());
  }
  MetricsRegistry metrics;
  metrics.Gauge("nunchi_build_info", "Always 1; the labels say which build this is.")
      .Set({{"version", NUNCHI_VERSION_STRING},
            {"commit", NUNCHI_GIT_COMMIT},
            {"llama_commit", NUNCHI_LLAMA_COMMIT_ID}},
           1);
  RegisterProcessMetrics(metrics);
  JudgeOptions jo = o.judge;
  if (jo.cache_dir.empty())
    jo.cache_dir = (std::filesystem::path(o.data_dir) / "prefix-cache").string();
  if (const auto retrained = std::filesystem::path(o.data_dir) / "classifier.model";
      jo.classifier_file.empty() && std::filesystem::exists(retrained))
    jo.classifier_file = retrained.string();  // `nunchi train --out` put it there
  auto chain = MakeJudgeChain(jo, &metrics);
  if (!chain.ok()) {
    return Fail("startup_failed", chain.status().ToString());
  }
  ServiceOptions so;
  so.judge_threads = o.judge_threads;
  so.retention_ms = static_cast<TimeMs>(o.retention_hours * 3600'000);
  so.limits = o.limits;
  so.keep_texts = o.keep_texts;
  so.max_judge_queue = o.max_judge_queue;
  AnalysisService service(**store, (*chain)->judge(), metrics, log->get(), so);
#ifdef NUNCHI_HAVE_EXTRACT
  // The extraction rules' LLM chooser shares the judge chain's engine (one
  // model in memory); declared before the server, which it must outlive.
  std::shared_ptr<extract::CandidateChooser> chooser;
#ifdef NUNCHI_HAVE_CHOOSERS
  if (auto engine = (*chain)->llama_engine()) {
    auto made = MakeLlamaChooser(engine, {.timeout_ms = o.chooser_timeout_ms}, &metrics);
    if (!made.ok()) {
      return Fail("startup_failed", "extraction chooser: " + made.status().ToString());
    }
    chooser = *made;
  }
#endif
#endif
  HttpOptions http = o.http;
  http.deadline = std::chrono::milliseconds(o.deadline_ms);
  http.max_upload_bytes = o.extract_max_bytes;  // image uploads (analyses keep max_body_bytes)
  http.edge.header_timeout = std::chrono::milliseconds(o.header_timeout_ms);
  http.edge.body_timeout = std::chrono::milliseconds(o.body_timeout_ms);
  http.edge.keep_alive_timeout = std::chrono::milliseconds(o.keep_alive_timeout_ms);
  http.edge.drain = std::chrono::milliseconds(o.drain_ms);
  if (!o.auth_key_file.empty()) {
    auto key = ReadAuthKey(o.auth_key_file);
    if (!key.ok()) return Fail("startup_failed", key.status().ToString());
    http.auth_key = *key;
  }
  HttpServer server(service, metrics, http);
#ifdef NUNCHI_HAVE_EXTRACT
  ExtractLimits el;
  el.max_bytes = o.extract_max_bytes;
  el.max_concurrent_decodes = o.max_concurrent_decodes;
  el.max_decoded_bytes = o.max_decoded_mib << 20;
  RegisterExtractRoutes(server.raw(), el, chooser.get(), &metrics);
#endif
  auto port = server.Bind();
  if (!port.ok()) {
    return Fail("startup_failed", port.status().ToString());
  }

  // Signals go to a dedicated thread that stops the server cleanly.
  std::thread waiter([&] {
    int sig = 0;
    sigwait(&set, &sig);
    LogEvent(LogLevel::kInfo, "stopping", "signal " + std::to_string(sig) + ", stopping",
             {{"signal", sig}});
    server.Stop();
  });
  // The message keeps the banner that scripts and the bench parse.
  LogEvent(LogLevel::kInfo, "listening",
           "listening on http://" + http.host + ":" + std::to_string(*port) + " (judge " +
               (*chain)->describe() + ", epoch " + service.Epoch() + ", data " + o.data_dir + ")",
           {{"host", http.host},
            {"port", *port},
            {"judge", (*chain)->describe()},
            {"epoch", service.Epoch()},
            {"data_dir", o.data_dir}});
  server.Listen();
  pthread_kill(waiter.native_handle(), SIGTERM);
  waiter.join();
  LogEvent(LogLevel::kInfo, "stopped", "stopped");
  FlushLog();
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
  cmd->add_option("--store", o->store,
                  "Judgment store: empty for SQLite in --data-dir, or a PostgreSQL URL "
                  "(postgres://USER@HOST/DB) shared by several replicas")
      ->check([](const std::string& v) {
        return v.empty() || IsPostgresUrl(v) ? std::string() : "expected a postgres:// URL";
      });
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
  cmd->add_flag("--keep-texts", o->keep_texts,
                "Keep judged texts in the store (off: the backend's texts are not ours to keep); "
                "needed by `nunchi export-labels`");
  cmd->add_option("--extract-max-bytes", o->extract_max_bytes, "Largest image accepted")
      ->capture_default_str();
  cmd->add_option("--chooser-timeout-ms", o->chooser_timeout_ms,
                  "With --model: longest one LLM choice among OCR candidates may take")
      ->capture_default_str();
  cmd->add_option("--auth-key-file", o->auth_key_file,
                  "Inbound authentication: a file whose first line is the key; every route but "
                  "/livez then needs 'Authorization: Bearer KEY' (env twin NUNCHI_AUTH_KEY_FILE; "
                  "--api-key-* are the model server's)");
  cmd->add_flag("--metrics-open", o->http.metrics_open,
                "With --auth-key-file: serve /metrics without a token");
  cmd->add_option("--max-id-bytes", o->limits.max_id_bytes, "Longest identifier accepted, in bytes")
      ->capture_default_str();
  cmd->add_option("--header-timeout-ms", o->header_timeout_ms,
                  "A request's whole header section must arrive within this (else 408, closed)")
      ->capture_default_str();
  cmd->add_option("--body-timeout-ms", o->body_timeout_ms,
                  "A request's whole body must arrive within this (else the connection is cut)")
      ->capture_default_str();
  cmd->add_option("--keep-alive-timeout-ms", o->keep_alive_timeout_ms,
                  "Idle keep-alive connections are closed after this")
      ->capture_default_str();
  cmd->add_option("--max-connections", o->http.edge.max_connections,
                  "Open client connections at most (more: 503)")
      ->capture_default_str();
  cmd->add_option("--max-header-bytes", o->http.edge.max_header_bytes,
                  "Largest header section (else 431)")
      ->capture_default_str();
  cmd->add_option("--max-queued-requests", o->http.edge.max_queued,
                  "Complete requests waiting for an HTTP thread at most (more: 503)")
      ->capture_default_str();
  cmd->add_option("--max-decompression-ratio", o->http.max_decompression_ratio,
                  "A compressed body may decode to at most this many times its size")
      ->capture_default_str();
  cmd->add_option("--max-judge-queue", o->max_judge_queue,
                  "Bundles waiting for a judge thread at most (more: 503 OVERLOADED)")
      ->capture_default_str();
  cmd->add_option("--drain-ms", o->drain_ms,
                  "At SIGTERM, time given to requests being served before their sockets close")
      ->capture_default_str();
  cmd->add_option("--max-concurrent-decodes", o->max_concurrent_decodes,
                  "Images decoded at once at most (more: 503 EXTRACTION_BUSY)")
      ->capture_default_str();
  cmd->add_option("--max-decoded-mib", o->max_decoded_mib,
                  "Memory all images being decoded may hold together (8 bytes a pixel: the "
                  "decoded image and its working copies)")
      ->capture_default_str();
  cmd->add_option("--inject-store-faults", o->inject_store_faults,
                  "For tests: a control file; while it holds 'disk_full' or 'io_error' the store "
                  "fails that way");
  cmd->add_option("--log-format", o->log_format, "Server log on stderr: json (JSON lines) or text")
      ->check(CLI::IsMember({"json", "text"}))
      ->capture_default_str();
  cmd->add_option("--log-level", o->log_level,
                  "Least severe server log line kept: trace, debug, info, warn, error, off")
      ->check(CLI::IsMember({"trace", "debug", "info", "warn", "error", "off"}))
      ->capture_default_str();
  AddJudgeFlags(cmd, &o->judge);
  cmd->callback([o] { throw CLI::RuntimeError(RunServe(*o)); });
}

}  // namespace nunchi
