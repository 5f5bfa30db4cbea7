#include "engines/remote/chat_client.h"

#include <nlohmann/json.hpp>

#include "domain/trace_context.h"
#include "engines/remote/sse.h"
#include "llm/schema.h"

namespace nunchi::remote {
namespace {

using json = nlohmann::json;
using Outcome = ChatAttempt::Outcome;

// choices[0] of a completion or chunk, or null.
const json* FirstChoice(const json& doc) {
  auto it = doc.find("choices");
  if (it == doc.end() || !it->is_array() || it->empty() || !(*it)[0].is_object()) return nullptr;
  return &(*it)[0];
}

std::string StringOr(const json& obj, const char* key) {
  auto it = obj.find(key);
  return it != obj.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// Short, key-free description of an error body ({"error":{"message":...}} or text).
std::string ErrorSummary(const std::string& body) {
  json doc = json::parse(body, nullptr, false);
  std::string message;
  if (doc.is_object() && doc.contains("error")) {
    const json& e = doc["error"];
    message = e.is_object() ? StringOr(e, "message") : e.is_string() ? e.get<std::string>() : "";
  }
  if (message.empty()) message = body;
  return message.substr(0, 200);
}

// Classifies a finished answer by finish_reason.
void Finish(ChatAttempt& a) {
  if (a.finish_reason == "length") {
    a.outcome = Outcome::kLength;
    a.loop = llm::FindTailRepeat(a.content, llm::DegenerationOptions::ForCap());
    a.detail = a.loop ? "hit the token cap with a repeating tail" : "hit the token cap";
  } else {
    a.outcome = Outcome::kOk;
  }
}

}  // namespace

std::string_view ToString(ChatAttempt::Outcome outcome) {
  switch (outcome) {
    case Outcome::kOk:
      return "ok";
    case Outcome::kTransport:
      return "transport";
    case Outcome::kTimeout:
      return "timeout";
    case Outcome::kHttpError:
      return "http_error";
    case Outcome::kBadResponse:
      return "bad_response";
    case Outcome::kDegenerated:
      return "degenerated";
    case Outcome::kLength:
      return "length";
  }
  return "unknown";
}

ChatClient::ChatClient(RemoteOptions options, std::optional<std::string> api_key,
                       std::shared_ptr<HttpClient> http)
    : options_(std::move(options)), api_key_(std::move(api_key)), http_(std::move(http)) {}

std::string ChatClient::url() const {
  std::string base = options_.base_url;
  while (!base.empty() && base.back() == '/') base.pop_back();
  return base + "/chat/completions";
}

std::string ChatClient::BuildBody(const ChatRequest& request) const {
  json body = {
      {"model", options_.model},
      {"messages", json::array({{{"role", "system"}, {"content", request.system}},
                                {{"role", "user"}, {"content", request.user}}})},
      {"temperature", request.temperature},
      {"seed", request.seed},
      {"stream", options_.stream},
  };
  llm::SchemaOptions schema_options{.max_length = options_.schema_max_length};
  switch (options_.kind) {
    case BackendKind::kOpenAi:
      body["max_completion_tokens"] = request.max_tokens;
      body["response_format"] = {
          {"type", "json_schema"},
          {"json_schema",
           {{"name", "judgments"},
            {"strict", true},
            {"schema",
             json::parse(llm::JudgeJsonSchema(request.ids, schema_options, request.with_text))}}}};
      break;
    case BackendKind::kVllm:
      // vLLM's own structured-output field, which also turns off free whitespace.
      body["max_tokens"] = request.max_tokens;
      body["structured_outputs"] = {{"json", json::parse(llm::JudgeJsonSchema(
                                                 request.ids, schema_options, request.with_text))},
                                    {"disable_any_whitespace", true}};
      break;
    case BackendKind::kLlamaServer:
      body["max_tokens"] = request.max_tokens;
      body["cache_prompt"] = true;
      if (options_.llama_server_gbnf) {
        body["grammar"] = llm::JudgeGbnf(request.ids, request.with_text);
      } else {
        body["json_schema"] =
            json::parse(llm::JudgeJsonSchema(request.ids, schema_options, request.with_text));
      }
      break;
  }
  return body.dump();
}

ChatAttempt ChatClient::ReadWhole(const HttpResponse& response) const {
  ChatAttempt a;
  a.http_status = response.status;
  json doc = json::parse(response.body, nullptr, false);
  const json* choice = doc.is_object() ? FirstChoice(doc) : nullptr;
  const json* message = nullptr;
  if (choice != nullptr && choice->contains("message") && (*choice)["message"].is_object()) {
    message = &(*choice)["message"];
  }
  if (message == nullptr || !message->contains("content") || !(*message)["content"].is_string()) {
    a.outcome = Outcome::kBadResponse;
    a.detail = "not a chat completion";
    return a;
  }
  a.content = (*message)["content"].get<std::string>();
  a.finish_reason = StringOr(*choice, "finish_reason");
  Finish(a);
  return a;
}

ChatAttempt ChatClient::Complete(const ChatRequest& request, Deadline deadline) const {
  ChatAttempt a = Exchange(request, deadline);
  // A server may echo the request's headers in an error; the key never leaves here.
  if (api_key_ && !api_key_->empty()) {
    for (size_t at = a.detail.find(*api_key_); at != std::string::npos;
         at = a.detail.find(*api_key_, at)) {
      a.detail.replace(at, api_key_->size(), "***");
    }
  }
  return a;
}

ChatAttempt ChatClient::Exchange(const ChatRequest& request, Deadline deadline) const {
  HttpRequest http;
  http.url = url();
  http.body = BuildBody(request);
  http.deadline = deadline;
  http.connect_timeout = options_.connect_timeout;
  http.headers = {"Content-Type: application/json"};
  if (api_key_) http.headers.push_back("Authorization: Bearer " + *api_key_);
  // A span of its own for each exchange (retries included), in the caller's trace.
  http.headers.push_back("traceparent: " + ChildTraceparent(request.traceparent));

  // Streaming state, owned by this call.
  ChatAttempt streamed;
  llm::DegenerationGuard guard(llm::DegenerationOptions::ForText());
  SseReader sse;
  bool done = false;
  bool bad_chunk = false;
  bool any_event = false;
  std::string raw;  // the body while no event has come: a server may ignore "stream"
  auto on_data = [&](std::string_view data) {
    any_event = true;
    if (data == "[DONE]") {
      done = true;  // read on to the end so the connection can be reused
      return true;
    }
    json chunk = json::parse(data, nullptr, false);
    const json* choice = chunk.is_object() ? FirstChoice(chunk) : nullptr;
    if (choice == nullptr) {
      if (chunk.is_object() && chunk.contains("error")) bad_chunk = true;
      return !bad_chunk;  // e.g. a usage-only chunk
    }
    auto delta = choice->find("delta");
    if (delta != choice->end() && delta->is_object()) {
      auto content = delta->find("content");
      if (content != delta->end() && content->is_string()) {
        const auto& piece = content->get_ref<const std::string&>();
        streamed.content += piece;
        if (guard.AddText(piece)) return false;  // looping: abort the transfer now
      }
    }
    std::string finish = StringOr(*choice, "finish_reason");
    if (!finish.empty()) streamed.finish_reason = finish;
    return true;
  };
  if (options_.stream) {
    http.on_body = [&](std::string_view bytes) {
      if (!any_event && raw.size() + bytes.size() <= kMaxResponseBytes) raw.append(bytes);
      return sse.Feed(bytes, on_data);
    };
  }

  HttpResponse response = http_->Post(http);
  if (options_.stream && response.status >= 200 && response.status < 300 && !response.aborted &&
      response.transport_ok()) {
    sse.Finish(on_data);
  }

  ChatAttempt a;
  a.http_status = response.status;
  a.retry_after = response.retry_after;
  if (guard.tripped()) {
    a = std::move(streamed);
    a.http_status = response.status;
    a.outcome = Outcome::kDegenerated;
    a.loop = guard.loop();
    a.detail = "generation looped (period " + std::to_string(a.loop->period) + ", " +
               std::to_string(a.loop->repeats()) + " copies); stream cut";
    return a;
  }
  if (bad_chunk) {
    a.outcome = Outcome::kBadResponse;
    a.detail = "error event in the stream";
    return a;
  }
  if (!response.transport_ok() && !(options_.stream && done)) {
    a.outcome = response.timed_out ? Outcome::kTimeout : Outcome::kTransport;
    a.detail = response.error;
    return a;
  }
  if (response.status < 200 || response.status >= 300) {
    a.outcome = Outcome::kHttpError;
    a.detail = "HTTP " + std::to_string(response.status) + ": " + ErrorSummary(response.body);
    return a;
  }
  if (!options_.stream || !any_event) {  // answered whole (with or without being asked to)
    if (options_.stream) response.body = std::move(raw);
    ChatAttempt whole = ReadWhole(response);
    whole.retry_after = response.retry_after;
    return whole;
  }
  a.content = std::move(streamed.content);
  a.finish_reason = std::move(streamed.finish_reason);
  Finish(a);
  return a;
}

}  // namespace nunchi::remote
