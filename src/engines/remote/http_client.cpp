#include "engines/remote/http_client.h"

#include <curl/curl.h>

#include <algorithm>
#include <cctype>
#include <charconv>

namespace nunchi::remote {

struct HttpClient::Handle {
  CURL* curl = nullptr;
  Handle() : curl(curl_easy_init()) {}
  ~Handle() {
    if (curl != nullptr) curl_easy_cleanup(curl);
  }
};

namespace {

struct Transfer {
  const HttpRequest* request = nullptr;
  CURL* curl = nullptr;
  HttpResponse* response = nullptr;
  bool too_big = false;
};

size_t OnBody(char* data, size_t size, size_t count, void* user) {
  auto* t = static_cast<Transfer*>(user);
  const size_t n = size * count;
  long status = 0;
  curl_easy_getinfo(t->curl, CURLINFO_RESPONSE_CODE, &status);
  if (status >= 200 && status < 300 && t->request->on_body) {
    if (!t->request->on_body(std::string_view(data, n))) {
      t->response->aborted = true;
      return 0;  // makes curl fail the transfer with CURLE_WRITE_ERROR and close it
    }
    return n;
  }
  if (t->response->body.size() + n > kMaxResponseBytes) {
    t->too_big = true;
    return 0;
  }
  t->response->body.append(data, n);
  return n;
}

size_t OnHeader(char* data, size_t size, size_t count, void* user) {
  auto* t = static_cast<Transfer*>(user);
  const size_t n = size * count;
  std::string_view line(data, n);
  if (line.rfind("HTTP/", 0) == 0) {  // a new status line (e.g. after 100 Continue)
    t->response->retry_after.reset();
    return n;
  }
  size_t colon = line.find(':');
  if (colon == std::string_view::npos) return n;
  std::string name(line.substr(0, colon));
  std::transform(name.begin(), name.end(), name.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (name == "retry-after") t->response->retry_after = ParseRetryAfter(line.substr(colon + 1));
  return n;
}

void GlobalInitOnce() {
  static const bool done = [] {
    curl_global_init(CURL_GLOBAL_DEFAULT);
    return true;
  }();
  (void)done;
}

}  // namespace

std::optional<std::chrono::milliseconds> ParseRetryAfter(std::string_view value) {
  while (!value.empty() && std::isspace(static_cast<unsigned char>(value.front()))) {
    value.remove_prefix(1);
  }
  while (!value.empty() && std::isspace(static_cast<unsigned char>(value.back()))) {
    value.remove_suffix(1);
  }
  long long seconds = 0;
  auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), seconds);
  if (ec != std::errc() || end != value.data() + value.size() || seconds < 0) return std::nullopt;
  return std::chrono::milliseconds(std::min<long long>(seconds, 86'400) * 1000);
}

HttpClient::HttpClient() { GlobalInitOnce(); }
HttpClient::~HttpClient() = default;

std::unique_ptr<HttpClient::Handle> HttpClient::Take() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!idle_.empty()) {
      auto h = std::move(idle_.back());
      idle_.pop_back();
      return h;
    }
  }
  return std::make_unique<Handle>();
}

void HttpClient::Give(std::unique_ptr<Handle> handle) {
  std::lock_guard<std::mutex> lock(mu_);
  if (idle_.size() < 64) idle_.push_back(std::move(handle));
}

HttpResponse HttpClient::Post(const HttpRequest& request) {
  HttpResponse response;
  auto remaining =
      std::chrono::duration_cast<std::chrono::milliseconds>(request.deadline - Clock::now());
  if (request.deadline != Deadline::max() && remaining.count() <= 0) {
    response.timed_out = true;
    response.error = "deadline passed before the request was sent";
    return response;
  }
  auto handle = Take();
  if (handle->curl == nullptr) {
    response.error = "curl_easy_init failed";
    return response;
  }
  CURL* curl = handle->curl;
  curl_easy_reset(curl);
  Transfer transfer{&request, curl, &response};

  curl_slist* headers = nullptr;
  for (const auto& h : request.headers) headers = curl_slist_append(headers, h.c_str());
  headers = curl_slist_append(headers, "Expect:");  // no 100-continue round trip

  curl_easy_setopt(curl, CURLOPT_URL, request.url.c_str());
  curl_easy_setopt(curl, CURLOPT_POST, 1L);
  curl_easy_setopt(curl, CURLOPT_POSTFIELDS, request.body.data());
  curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(request.body.size()));
  curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
  curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, &OnBody);
  curl_easy_setopt(curl, CURLOPT_WRITEDATA, &transfer);
  curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, &OnHeader);
  curl_easy_setopt(curl, CURLOPT_HEADERDATA, &transfer);
  curl_easy_setopt(curl, CURLOPT_TCP_NODELAY, 1L);
  long connect_ms = static_cast<long>(request.connect_timeout.count());
  if (request.deadline != Deadline::max()) {
    long total_ms = static_cast<long>(std::max<int64_t>(1, remaining.count()));
    curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, total_ms);
    connect_ms = std::min(connect_ms, total_ms);
  }
  curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS, std::max(1L, connect_ms));

  CURLcode rc = curl_easy_perform(curl);
  curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &response.status);
  curl_slist_free_all(headers);
  if (rc != CURLE_OK) {
    response.timed_out = rc == CURLE_OPERATION_TIMEDOUT;
    response.error = transfer.too_big   ? "response body too large"
                     : response.aborted ? "aborted by the reader"
                                        : curl_easy_strerror(rc);
  }
  // Reset before pooling so no pointer into this call's stack survives in the handle.
  curl_easy_reset(curl);
  Give(std::move(handle));
  return response;
}

}  // namespace nunchi::remote
