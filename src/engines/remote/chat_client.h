// One exchange with an OpenAI-compatible /v1/chat/completions endpoint: builds
// the request body for the backend kind (structured output by schema or
// grammar, see llm/schema.h), sends it, reads the answer whole or as an SSE
// stream, and runs the DegenerationGuard on the streamed text, aborting the
// transfer as soon as it trips. No retries, breaker or limits here: see
// remote_judge.h. The API key goes into the Authorization header only. Every
// exchange carries a W3C `traceparent`: the request's trace id, a new span.
//
// Thread-safety: Complete() and BuildBody() may be called from many threads at
// once (the HttpClient is shared and thread-safe; a call keeps its own state).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engines/remote/http_client.h"
#include "engines/remote/remote_options.h"
#include "llm/degeneration_guard.h"

namespace nunchi::remote {

struct ChatRequest {
  std::string system;
  std::string user;
  std::vector<std::string> ids;  // target ids: the shape of the structured output
  // Per id: whether its cause text is asked (llm/schema.h); empty: every id's.
  std::vector<bool> with_text;
  int max_tokens = 64;
  double temperature = 0.0;
  int seed = 42;
  // W3C trace context of the request being served (domain/trace_context.h);
  // each exchange sends a child of it (a new trace when empty).
  std::string traceparent;
};

struct ChatAttempt {
  enum class Outcome {
    kOk,           // finish_reason "stop" (or none) with content
    kTransport,    // no HTTP response: refused, reset, DNS, TLS
    kTimeout,      // the deadline passed during the exchange
    kHttpError,    // a non-2xx status (see http_status, retry_after)
    kBadResponse,  // 2xx but not a chat completion we can read
    kDegenerated,  // the guard cut a looping stream
    kLength,       // finish_reason "length": the token cap was hit
  };
  Outcome outcome = Outcome::kTransport;
  long http_status = 0;
  std::optional<std::chrono::milliseconds> retry_after;
  std::string content;                  // the text the model produced (possibly cut)
  std::string finish_reason;            // as reported; empty when cut or absent
  std::optional<llm::TailRepeat> loop;  // kDegenerated, or kLength with a repeating tail
  std::string detail;                   // human-readable reason; never contains the key
};

std::string_view ToString(ChatAttempt::Outcome outcome);

class ChatClient {
 public:
  ChatClient(RemoteOptions options, std::optional<std::string> api_key,
             std::shared_ptr<HttpClient> http);

  // The JSON request body for this backend kind.
  std::string BuildBody(const ChatRequest& request) const;
  // One exchange, bounded by deadline.
  ChatAttempt Complete(const ChatRequest& request, Deadline deadline) const;

  const RemoteOptions& options() const { return options_; }
  std::string url() const;

 private:
  ChatAttempt Exchange(const ChatRequest& request, Deadline deadline) const;
  ChatAttempt ReadWhole(const HttpResponse& response) const;

  const RemoteOptions options_;
  const std::optional<std::string> api_key_;
  const std::shared_ptr<HttpClient> http_;
};

}  // namespace nunchi::remote
