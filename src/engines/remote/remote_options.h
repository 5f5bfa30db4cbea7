// RemoteOptions: how to reach one OpenAI-compatible model server (a hosted
// API, vLLM, SGLang, llama-server) and how hard to try. A plain struct with
// every field documented and defaulted; the app fills it from CLI/TOML flags.
// LoadApiKey reads the key from the environment or a file; the key is never
// logged and never appears in a Status message. Safe to copy between threads.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

#include "domain/status.h"
#include "llm/prompt.h"

namespace nunchi::remote {

// Which server dialect to speak on top of /v1/chat/completions.
enum class BackendKind {
  kOpenAi,       // response_format json_schema strict; max_completion_tokens
  kVllm,         // structured_outputs {json, disable_any_whitespace}; max_tokens
  kLlamaServer,  // top-level grammar (GBNF of llm/schema.h) or json_schema; cache_prompt
};

std::string_view ToString(BackendKind kind);
// "openai", "vllm", "llama-server" (also "llama_server", "sglang" -> openai).
std::optional<BackendKind> ParseBackendKind(std::string_view s);

struct RemoteOptions {
  // Short name; the judge is called "remote:<name>" and records it on judgments.
  std::string name = "default";
  // Server root up to and including the API version, e.g. "http://127.0.0.1:8080/v1".
  // "/chat/completions" is appended.
  std::string base_url = "http://127.0.0.1:8080/v1";
  // Model name sent in the request and recorded on every judgment.
  std::string model;
  BackendKind kind = BackendKind::kOpenAi;

  // API key sources, tried in order: the environment variable, then the file
  // (first line, surrounding whitespace trimmed). Both empty: no Authorization.
  std::string api_key_env;
  std::string api_key_file;

  // Longest time one judgment may take, all attempts together; the task's own
  // deadline (minus deadline_margin) wins when it is earlier.
  std::chrono::milliseconds timeout{20'000};
  // Kept free before the task deadline so the caller can still use the answer.
  std::chrono::milliseconds deadline_margin{200};
  // Time to open a TCP/TLS connection, per attempt (capped by the deadline).
  std::chrono::milliseconds connect_timeout{2'000};

  // Requests in flight to this backend at once; callers beyond it wait for a
  // slot until their deadline.
  int max_concurrency = 4;

  // Extra attempts after a retryable failure (connection error, 429, 5xx,
  // unparseable answer, degeneration), made only while time remains.
  int retries = 2;
  // Backoff before retry k (k = 1, 2, ...): backoff_base * 2^(k-1), times a
  // random factor in [0.5, 1.5), at most backoff_max. A 429/503 Retry-After
  // header replaces it when present (if it fits before the deadline).
  std::chrono::milliseconds backoff_base{200};
  std::chrono::milliseconds backoff_max{5'000};

  // Circuit breaker: opens after this many consecutive failed attempts
  // (transport errors, 5xx, timeouts); while open every call fails at once
  // with kUnavailable and Ready() is false.
  int breaker_failure_threshold = 5;
  // How long it stays open before letting probe calls through (half-open).
  std::chrono::milliseconds breaker_open_for{10'000};
  // Probe calls allowed at once while half-open; one success closes it, one
  // failure opens it again.
  int breaker_half_open_probes = 1;

  // Stream the answer (SSE) so the degeneration guard can cut a looping
  // generation as it happens; off: one JSON response, checked at the end.
  bool stream = true;

  // Output token cap per target signal, plus a fixed allowance for the braces.
  int max_tokens_per_target = 48;
  int max_tokens_base = 16;
  // Sampling temperature of the first attempt; a retry after degeneration or
  // invalid output uses retry_temperature and a different seed.
  double temperature = 0.0;
  double retry_temperature = 0.7;
  int seed = 42;

  // Put "maxLength" on the cause text in the JSON schema (some hosted strict
  // modes reject length keywords; the answer is checked either way).
  bool schema_max_length = true;
  // llama-server: send the GBNF grammar (no free whitespace) instead of json_schema.
  bool llama_server_gbnf = true;
  // Prompt version (see llm/prompt.h). With llm::kEscalationPromptVersion
  // (the cascade's LLM): llm::RenderEscalationPrompt with `escalation`, the
  // cause text asked for the last target only.
  std::string prompt_version = "judge-v1";
  llm::EscalationOptions escalation;
};

// The API key per the options: nullopt when neither source is configured;
// kInvalidArgument when a configured source is missing or empty.
Result<std::optional<std::string>> LoadApiKey(const RemoteOptions& options);

}  // namespace nunchi::remote
