// Test-only: a fake OpenAI-compatible server on 127.0.0.1 (cpp-httplib) that
// hands POST /v1/chat/completions to a test-supplied handler and answers
// GET /health with llama-server's {"status":"ok"} (whatever the handler
// does), plus helpers for completion and SSE bodies. Starts in the constructor, stops in the
// destructor (handlers must return promptly once stopping() is true).
// The handler runs on the server's worker threads.
#pragma once

#include <httplib.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

namespace nunchi::remote::testing {

class FakeOpenAiServer {
 public:
  using Handler = std::function<void(const httplib::Request&, httplib::Response&)>;

  explicit FakeOpenAiServer(Handler handler) : handler_(std::move(handler)) {
    server_.Post("/v1/chat/completions",
                 [this](const httplib::Request& req, httplib::Response& res) {
                   {
                     std::lock_guard<std::mutex> lock(mu_);
                     bodies_.push_back(req.body);
                     auth_.push_back(req.get_header_value("Authorization"));
                     traceparents_.push_back(req.get_header_value("traceparent"));
                   }
                   ++requests_;
                   handler_(req, res);
                 });
    server_.Get("/health", [](const httplib::Request&, httplib::Response& res) {
      res.set_content(R"({"status":"ok"})", "application/json");
    });
    port_ = server_.bind_to_any_port("127.0.0.1");
    thread_ = std::thread([this] { server_.listen_after_bind(); });
    for (int i = 0; i < 500 && !server_.is_running(); ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
  }
  ~FakeOpenAiServer() {
    stopping_ = true;
    server_.stop();
    thread_.join();
  }

  std::string base_url() const { return "http://127.0.0.1:" + std::to_string(port_) + "/v1"; }
  int requests() const { return requests_.load(); }
  bool stopping() const { return stopping_.load(); }
  nlohmann::json body(size_t i) const {
    std::lock_guard<std::mutex> lock(mu_);
    return nlohmann::json::parse(bodies_.at(i));
  }
  std::string authorization(size_t i) const {
    std::lock_guard<std::mutex> lock(mu_);
    return auth_.at(i);
  }
  // The traceparent header of request i ("" when it had none).
  std::string traceparent(size_t i) const {
    std::lock_guard<std::mutex> lock(mu_);
    return traceparents_.at(i);
  }

 private:
  Handler handler_;
  httplib::Server server_;
  int port_ = 0;
  std::thread thread_;
  std::atomic<int> requests_{0};
  std::atomic<bool> stopping_{false};
  mutable std::mutex mu_;
  std::vector<std::string> bodies_;
  std::vector<std::string> auth_;
  std::vector<std::string> traceparents_;
};

// A non-streamed chat completion with this content.
inline std::string CompletionBody(const std::string& content, const std::string& finish = "stop") {
  nlohmann::json doc = {{"id", "cmpl-1"},
                        {"object", "chat.completion"},
                        {"choices",
                         {{{"index", 0},
                           {"message", {{"role", "assistant"}, {"content", content}}},
                           {"finish_reason", finish}}}}};
  return doc.dump();
}

// One SSE event carrying a content delta (and a finish_reason when given).
inline std::string SseChunk(const std::string& piece, const std::string& finish = "") {
  nlohmann::json delta = {{"content", piece}};
  nlohmann::json choice = {{"index", 0}, {"delta", delta}};
  choice["finish_reason"] = finish.empty() ? nlohmann::json(nullptr) : nlohmann::json(finish);
  nlohmann::json doc = {{"object", "chat.completion.chunk"}, {"choices", {choice}}};
  return "data: " + doc.dump() + "\n\n";
}

}  // namespace nunchi::remote::testing
