// EdgeServer in process: keep-alive requests, pipelining, a slow header cut,
// the worker queue bound and a bounded shutdown, with real sockets on
// loopback. No timed assertions: deadlines are set far apart.
#include "http/edge.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <thread>

namespace nunchi {
namespace {

using namespace std::chrono_literals;

int Connect(int port) {
  int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(static_cast<uint16_t>(port));
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  EXPECT_EQ(::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a), 0);
  return fd;
}

std::string ReadFor(int fd, std::chrono::milliseconds t) {
  std::string out;
  char buf[4096];
  const auto until = std::chrono::steady_clock::now() + t;
  while (std::chrono::steady_clock::now() < until) {
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, 20) <= 0) continue;
    ssize_t n = ::recv(fd, buf, sizeof buf, 0);
    if (n <= 0) break;
    out.append(buf, static_cast<size_t>(n));
  }
  return out;
}

size_t Count(const std::string& s, const std::string& what) {
  size_t n = 0;
  for (size_t p = s.find(what); p != std::string::npos; p = s.find(what, p + 1)) ++n;
  return n;
}

class EdgeTest : public ::testing::Test {
 protected:
  void Start(EdgeOptions o) {
    server_ = std::make_unique<EdgeServer>(o, metrics_);
    server_->Get("/hello", [](const httplib::Request&, httplib::Response& res) {
      res.set_content("hi", "text/plain");
    });
    server_->Get("/slow", [this](const httplib::Request&, httplib::Response& res) {
      ++in_slow_;
      while (!release_) std::this_thread::sleep_for(5ms);
      res.set_content("done", "text/plain");
    });
    server_->Get("/livez", [](const httplib::Request&, httplib::Response& res) {
      res.set_content("live", "text/plain");
    });
    port_ = server_->bind_to_any_port("127.0.0.1");
    thread_ = std::thread([this] {
      server_->listen_after_bind();
      server_->Shutdown();
    });
    while (!server_->is_running()) std::this_thread::sleep_for(2ms);
  }
  void TearDown() override {
    release_ = true;
    if (server_) server_->stop();
    if (thread_.joinable()) thread_.join();
  }
  MetricsRegistry metrics_;
  std::unique_ptr<EdgeServer> server_;
  std::thread thread_;
  int port_ = 0;
  std::atomic<bool> release_{false};
  std::atomic<int> in_slow_{0};
};

TEST_F(EdgeTest, KeepAliveAndPipelinedRequestsAreAllAnswered) {
  Start({});
  httplib::Client c("127.0.0.1", port_);
  c.set_keep_alive(true);
  for (int i = 0; i < 20; ++i) {
    auto r = c.Get("/hello");
    ASSERT_TRUE(r);
    EXPECT_EQ(r->body, "hi");
  }
  int fd = Connect(port_);
  std::string two =
      "GET /hello HTTP/1.1\r\nHost: x\r\n\r\nGET /hello HTTP/1.1\r\nHost: x\r\n"
      "Connection: close\r\n\r\n";
  ASSERT_EQ(::send(fd, two.data(), two.size(), 0), static_cast<ssize_t>(two.size()));
  std::string raw = ReadFor(fd, 2s);
  EXPECT_EQ(Count(raw, "HTTP/1.1 200"), 2u) << raw;
  ::close(fd);
}

TEST_F(EdgeTest, ASlowHeaderIsCutWithout408BlockingOthers) {
  EdgeOptions o;
  o.header_timeout = 300ms;
  o.workers = 1;
  Start(o);
  int slow = Connect(port_);
  ASSERT_EQ(::send(slow, "GET /hel", 8, 0), 8);
  httplib::Client c("127.0.0.1", port_);
  EXPECT_EQ(c.Get("/hello")->status, 200) << "the one worker is not held by the slow client";
  std::string raw = ReadFor(slow, 3s);
  EXPECT_NE(raw.find("408"), std::string::npos) << raw;
  ::close(slow);
}

TEST_F(EdgeTest, HealthAnswersWhileEveryWorkerIsBusyAndAFullQueueIs503) {
  EdgeOptions o;
  o.workers = 2;
  o.max_queued = 1;
  Start(o);
  std::vector<std::thread> busy;
  auto start_busy = [&] {
    busy.emplace_back([this] {
      httplib::Client c("127.0.0.1", port_);
      c.set_read_timeout(10, 0);
      (void)c.Get("/slow");
    });
  };
  // One at a time, so that each is taken by a worker before the next comes.
  for (int i = 0; i < 2; ++i) {
    start_busy();
    while (in_slow_ < i + 1) std::this_thread::sleep_for(5ms);
  }
  start_busy();                        // waits in the queue
  std::this_thread::sleep_for(200ms);  // (a later refusal below shows it is there)
  httplib::Client h("127.0.0.1", port_);
  auto live = h.Get("/livez");
  ASSERT_TRUE(live);
  EXPECT_EQ(live->body, "live") << "health has threads of its own";
  httplib::Client extra("127.0.0.1", port_);
  auto r = extra.Get("/hello");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 503);
  EXPECT_EQ(r->get_header_value("Retry-After"), "1");
  release_ = true;
  for (auto& t : busy) t.join();
}

TEST_F(EdgeTest, ShutdownIsBoundedByTheDrainWithAStuckBody) {
  EdgeOptions o;
  o.drain = 200ms;
  o.body_timeout = 60s;
  Start(o);
  server_->Post("/post", [](const httplib::Request& req, httplib::Response& res) {
    res.set_content(std::to_string(req.body.size()), "text/plain");
  });
  int fd = Connect(port_);
  std::string head = "POST /post HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nabc";
  ASSERT_EQ(::send(fd, head.data(), head.size(), 0), static_cast<ssize_t>(head.size()));
  std::this_thread::sleep_for(100ms);
  server_->stop();
  thread_.join();  // returns although the body never comes (60 s body timeout)
  ::close(fd);
}

}  // namespace
}  // namespace nunchi
