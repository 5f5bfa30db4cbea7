#include "http/edge.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <functional>
#include <mutex>
#include <string_view>
#include <thread>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "http/problem.h"

namespace nunchi {
namespace {

using SteadyClock = std::chrono::steady_clock;
using TimePoint = SteadyClock::time_point;

thread_local bool t_close_after = false;

int MsUntil(TimePoint t) {
  auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(t - SteadyClock::now()).count();
  return ms < 0 ? 0 : static_cast<int>(std::min<long long>(ms, 1'000'000));
}

// Runs the accept loop's closure on the accept thread: EdgeServer's
// process_and_close_socket only hands the socket to the gate.
class InlineQueue final : public httplib::TaskQueue {
 public:
  void enqueue(std::function<void()> fn) override { fn(); }
  void shutdown() override {}
};

// A fixed pool with a bounded queue; TrySubmit refuses when it is full.
class BoundedPool {
 public:
  BoundedPool(size_t threads, size_t max_queued) : max_queued_(max_queued) {
    for (size_t i = 0; i < std::max<size_t>(threads, 1); ++i)
      threads_.emplace_back([this] { Run(); });
  }
  ~BoundedPool() { Join(); }
  bool TrySubmit(std::function<void()> fn) {
    {
      std::lock_guard lock(mu_);
      if (stop_ || queue_.size() >= max_queued_) return false;
      queue_.push_back(std::move(fn));
    }
    cv_.notify_one();
    return true;
  }
  void Join() {
    {
      std::lock_guard lock(mu_);
      stop_ = true;
    }
    cv_.notify_all();
    for (auto& t : threads_)
      if (t.joinable()) t.join();
  }

 private:
  void Run() {
    for (;;) {
      std::function<void()> fn;
      {
        std::unique_lock lock(mu_);
        cv_.wait(lock, [this] { return stop_ || !queue_.empty(); });
        if (queue_.empty()) return;
        fn = std::move(queue_.front());
        queue_.pop_front();
      }
      fn();
    }
  }
  const size_t max_queued_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::function<void()>> queue_;
  bool stop_ = false;
  std::vector<std::thread> threads_;
};

// The stream httplib's process_request reads one request from: first the
// bytes the gate already read, then the socket, within a deadline and a cap.
class EdgeStream final : public httplib::Stream {
 public:
  EdgeStream(int fd, std::string prefetched, TimePoint read_deadline, size_t max_raw,
             std::chrono::milliseconds write_timeout)
      : fd_(fd),
        buf_(std::move(prefetched)),
        read_deadline_(read_deadline),
        max_raw_(max_raw),
        write_timeout_(write_timeout) {}

  bool is_readable() const override {
    if (pos_ < buf_.size()) return true;
    pollfd p{fd_, POLLIN, 0};
    return ::poll(&p, 1, MsUntil(read_deadline_)) > 0;
  }
  bool is_writable() const override {
    pollfd p{fd_, POLLOUT, 0};
    return ::poll(&p, 1, static_cast<int>(write_timeout_.count())) > 0;
  }
  ssize_t read(char* ptr, size_t size) override {
    if (pos_ < buf_.size()) {
      size_t n = std::min(size, buf_.size() - pos_);
      std::memcpy(ptr, buf_.data() + pos_, n);
      pos_ += n;
      return static_cast<ssize_t>(n);
    }
    if (raw_read_ >= max_raw_) {
      failed_ = true;
      return -1;
    }
    size = std::min(size, max_raw_ - raw_read_);
    for (;;) {
      pollfd p{fd_, POLLIN, 0};
      int r = ::poll(&p, 1, MsUntil(read_deadline_));
      if (r < 0 && errno == EINTR) continue;
      if (r <= 0) {
        failed_ = true;  // the body did not arrive in time
        return -1;
      }
      ssize_t n = ::recv(fd_, ptr, size, 0);
      if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
      if (n <= 0) failed_ = true;
      if (n > 0) raw_read_ += static_cast<size_t>(n);
      return n;
    }
  }
  ssize_t write(const char* ptr, size_t size) override {
    size_t done = 0;
    const TimePoint until = SteadyClock::now() + write_timeout_;
    while (done < size) {
      pollfd p{fd_, POLLOUT, 0};
      if (::poll(&p, 1, MsUntil(until)) <= 0) {
        failed_ = true;
        return done ? static_cast<ssize_t>(done) : -1;
      }
      ssize_t n = ::send(fd_, ptr + done, size - done, MSG_NOSIGNAL);
      if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
      if (n <= 0) {
        failed_ = true;
        return done ? static_cast<ssize_t>(done) : -1;
      }
      done += static_cast<size_t>(n);
    }
    return static_cast<ssize_t>(done);
  }
  void get_remote_ip_and_port(std::string& ip, int& port) const override {
    Name(::getpeername, ip, port);
  }
  void get_local_ip_and_port(std::string& ip, int& port) const override {
    Name(::getsockname, ip, port);
  }
  socket_t socket() const override { return fd_; }

  bool failed() const { return failed_; }
  // Bytes read past this request (a pipelined next request).
  std::string Leftover() const { return buf_.substr(std::min(pos_, buf_.size())); }

 private:
  template <typename F>
  void Name(F f, std::string& ip, int& port) const {
    sockaddr_storage addr{};
    socklen_t len = sizeof addr;
    ip.clear();
    port = 0;
    if (f(fd_, reinterpret_cast<sockaddr*>(&addr), &len) != 0) return;
    char text[INET6_ADDRSTRLEN] = {};
    if (addr.ss_family == AF_INET) {
      auto* a = reinterpret_cast<sockaddr_in*>(&addr);
      inet_ntop(AF_INET, &a->sin_addr, text, sizeof text);
      port = ntohs(a->sin_port);
    } else if (addr.ss_family == AF_INET6) {
      auto* a = reinterpret_cast<sockaddr_in6*>(&addr);
      inet_ntop(AF_INET6, &a->sin6_addr, text, sizeof text);
      port = ntohs(a->sin6_port);
    }
    ip = text;
  }
  int fd_;
  std::string buf_;
  size_t pos_ = 0;
  TimePoint read_deadline_;
  size_t max_raw_;
  size_t raw_read_ = 0;
  std::chrono::milliseconds write_timeout_;
  bool failed_ = false;
};

std::string Lower(std::string_view s) {
  std::string out(s);
  for (auto& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
    s.remove_suffix(1);
  return s;
}

// A refusal written by the gate: the whole answer, then the connection closes.
std::string RawProblem(int status, const std::string& code, const std::string& detail,
                       bool retry_after) {
  Problem p = MakeProblem(status, code, detail);
  std::string body = ProblemBody(p, "");
  std::string out = "HTTP/1.1 " + std::to_string(status) + " " + p.title + "\r\n";
  out += "Content-Type: application/problem+json\r\nConnection: close\r\n";
  if (retry_after) out += "Retry-After: 1\r\n";
  out += "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
  return out;
}

}  // namespace

class EdgeServer::Impl {
 public:
  Impl(EdgeServer* owner, EdgeOptions o, MetricsRegistry& metrics)
      : owner_(owner),
        o_(o),
        rejected_(metrics.Counter("nunchi_http_rejected_total",
                                  "Connections or requests refused at the HTTP edge, by reason.")),
        main_(o.workers, o.max_queued),
        health_(o.health_workers, 256) {
    epfd_ = ::epoll_create1(EPOLL_CLOEXEC);
    if (::pipe2(wake_pipe_, O_CLOEXEC | O_NONBLOCK) == 0) {
      epoll_event ev{};
      ev.events = EPOLLIN;
      ev.data.fd = wake_pipe_[0];
      ::epoll_ctl(epfd_, EPOLL_CTL_ADD, wake_pipe_[0], &ev);
    }
    metrics.OnRender([this](MetricsRegistry& m) {
      m.Gauge("nunchi_http_connections", "Open client connections.").Set({}, double(open_.load()));
      m.Gauge("nunchi_http_busy_connections", "Connections whose request is being served.")
          .Set({}, double(busy_count()));
    });
    gate_ = std::thread([this] { GateLoop(); });
  }

  ~Impl() { Shutdown(); }

  void Admit(int fd) {
    if (stopping_.load() || open_.load() >= o_.max_connections) {
      Refuse(fd, 503, "TOO_MANY_CONNECTIONS",
             "the server holds its limit of " + std::to_string(o_.max_connections) + " connections",
             true, "connections");
      return;
    }
    open_.fetch_add(1);
    ToGate(fd, {}, 0, /*keep_alive=*/false);
  }

  void Shutdown() {
    if (shut_.exchange(true)) return;
    stopping_.store(true);
    {
      std::lock_guard lock(mu_);
      wake_ = true;
    }
    Wake();
    if (gate_.joinable()) gate_.join();  // closes what it holds
    // Bounded drain for requests being served, then their sockets are shut
    // down under them so that a blocked read or write returns.
    const TimePoint until = SteadyClock::now() + o_.drain;
    while (busy_count() > 0 && SteadyClock::now() < until)
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    {
      std::lock_guard lock(busy_mu_);
      for (int fd : busy_) ::shutdown(fd, SHUT_RDWR);
    }
    main_.Join();
    health_.Join();
    if (epfd_ >= 0) ::close(epfd_);
    epfd_ = -1;
  }

 private:
  struct Conn {
    std::string buf;
    TimePoint idle_deadline;                       // for the first byte
    TimePoint header_deadline = TimePoint::max();  // once a byte came
    size_t served = 0;
  };

  size_t busy_count() {
    std::lock_guard lock(busy_mu_);
    return busy_.size();
  }

  void Refuse(int fd, int status, const std::string& code, const std::string& detail,
              bool retry_after, const char* reason) {
    rejected_.Add({{"reason", reason}});
    std::string raw = RawProblem(status, code, detail, retry_after);
    (void)!::send(fd, raw.data(), raw.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
    ::shutdown(fd, SHUT_WR);
    // Take what already arrived, so that the close sends a FIN after the
    // answer rather than a reset that could discard it.
    char sink[16384];
    for (size_t taken = 0; taken < (1u << 20);) {
      ssize_t n = ::recv(fd, sink, sizeof sink, MSG_DONTWAIT);
      if (n <= 0) break;
      taken += static_cast<size_t>(n);
    }
    ::close(fd);
  }
  void CloseOpen(int fd) {
    ::shutdown(fd, SHUT_RDWR);
    ::close(fd);
    open_.fetch_sub(1);
  }
  void RefuseOpen(int fd, int status, const std::string& code, const std::string& detail,
                  bool retry_after, const char* reason) {
    Refuse(fd, status, code, detail, retry_after, reason);
    open_.fetch_sub(1);
  }

  // Hands a connection (new, or back from a worker) to the gate thread.
  void ToGate(int fd, std::string leftover, size_t served, bool keep_alive) {
    Conn c;
    c.buf = std::move(leftover);
    c.served = served;
    const TimePoint now = SteadyClock::now();
    c.idle_deadline = now + (keep_alive ? o_.keep_alive_timeout : o_.header_timeout);
    if (!c.buf.empty()) c.header_deadline = now + o_.header_timeout;
    {
      std::lock_guard lock(mu_);
      incoming_.emplace_back(fd, std::move(c));
    }
    Wake();
  }

  void Wake() {
    std::lock_guard lock(wake_mu_);
    if (wake_pipe_[1] >= 0) (void)!::write(wake_pipe_[1], "x", 1);
  }

  void GateLoop() {
    std::unordered_map<int, Conn> conns;
    std::vector<epoll_event> events(256);
    char chunk[4096];
    for (;;) {
      // New and returning connections.
      std::deque<std::pair<int, Conn>> in;
      bool stop = false;
      {
        std::lock_guard lock(mu_);
        in.swap(incoming_);
        stop = wake_;
      }
      for (auto& [fd, c] : in) {
        epoll_event e{};
        e.events = EPOLLIN | EPOLLRDHUP;
        e.data.fd = fd;
        ::epoll_ctl(epfd_, EPOLL_CTL_ADD, fd, &e);
        const bool ready = !c.buf.empty();
        conns[fd] = std::move(c);
        if (ready) Examine(fd, conns);  // a pipelined request already read
      }
      if (stop) break;
      // The nearest deadline bounds the wait.
      TimePoint next = SteadyClock::now() + std::chrono::milliseconds(500);
      for (auto& [fd, c] : conns) next = std::min({next, c.idle_deadline, c.header_deadline});
      int n = ::epoll_wait(epfd_, events.data(), static_cast<int>(events.size()), MsUntil(next));
      for (int i = 0; i < n; ++i) {
        const int fd = events[i].data.fd;
        if (fd == wake_pipe_[0]) {
          while (::read(wake_pipe_[0], chunk, sizeof chunk) > 0) {
          }
          continue;
        }
        auto it = conns.find(fd);
        if (it == conns.end()) continue;
        Conn& c = it->second;
        bool closed = false;
        for (;;) {
          ssize_t r = ::recv(fd, chunk, sizeof chunk, MSG_DONTWAIT);
          if (r > 0) {
            if (c.buf.empty()) c.header_deadline = SteadyClock::now() + o_.header_timeout;
            c.buf.append(chunk, static_cast<size_t>(r));
            if (c.buf.size() > o_.max_header_bytes) break;
            continue;
          }
          if (r == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)) closed = true;
          if (r < 0 && errno == EINTR) continue;
          break;
        }
        if (closed) {
          ::epoll_ctl(epfd_, EPOLL_CTL_DEL, fd, nullptr);
          conns.erase(it);
          CloseOpen(fd);
          continue;
        }
        Examine(fd, conns);
      }
      // Reap the slow and the idle.
      const TimePoint now = SteadyClock::now();
      for (auto it = conns.begin(); it != conns.end();) {
        const Conn& c = it->second;
        const int fd = it->first;
        if (c.buf.empty() && now >= c.idle_deadline) {
          ::epoll_ctl(epfd_, EPOLL_CTL_DEL, fd, nullptr);
          rejected_.Add({{"reason", c.served ? "idle" : "no_request"}});
          CloseOpen(fd);
          it = conns.erase(it);
        } else if (!c.buf.empty() && now >= c.header_deadline) {
          ::epoll_ctl(epfd_, EPOLL_CTL_DEL, fd, nullptr);
          RefuseOpen(fd, 408, "HEADER_TIMEOUT",
                     "the header section did not arrive within " +
                         std::to_string(o_.header_timeout.count()) + " ms",
                     false, "header_timeout");
          it = conns.erase(it);
        } else {
          ++it;
        }
      }
    }
    for (auto& [fd, c] : conns) CloseOpen(fd);
    std::lock_guard lock(wake_mu_);
    ::close(wake_pipe_[0]);
    ::close(wake_pipe_[1]);
    wake_pipe_[0] = wake_pipe_[1] = -1;
  }

  // A connection's buffer changed: refuse it, dispatch it, or keep waiting.
  void Examine(int fd, std::unordered_map<int, Conn>& conns) {
    Conn& c = conns[fd];
    size_t end = c.buf.find("\r\n\r\n");
    const size_t section = end == std::string::npos ? c.buf.size() : end + 4;
    auto drop = [&](int status, const char* code, const std::string& detail, const char* reason) {
      ::epoll_ctl(epfd_, EPOLL_CTL_DEL, fd, nullptr);
      conns.erase(fd);
      RefuseOpen(fd, status, code, detail, status == 503, reason);
    };
    // Per-line limit over the complete lines seen so far.
    std::string_view head(c.buf.data(), std::min(section, c.buf.size()));
    size_t line_start = 0;
    std::vector<std::string_view> lines;
    for (size_t p; (p = head.find('\n', line_start)) != std::string_view::npos; line_start = p + 1)
      lines.push_back(head.substr(line_start, p - line_start));
    for (auto l : lines)
      if (l.size() > o_.max_header_line)
        return drop(431, "HEADER_TOO_LARGE",
                    "a header line is over " + std::to_string(o_.max_header_line) + " bytes",
                    "header_line");
    if (end == std::string::npos) {
      if (c.buf.size() > o_.max_header_bytes || head.size() - line_start > o_.max_header_line)
        return drop(431, "HEADER_TOO_LARGE",
                    "the header section is over " + std::to_string(o_.max_header_bytes) + " bytes",
                    "header_section");
      return;
    }
    if (section > o_.max_header_bytes)
      return drop(431, "HEADER_TOO_LARGE",
                  "the header section is over " + std::to_string(o_.max_header_bytes) + " bytes",
                  "header_section");
    // Framing: one Content-Length, never with Transfer-Encoding.
    std::string content_length;
    bool has_cl = false, has_te = false, encoded = false;
    for (size_t i = 1; i < lines.size(); ++i) {
      auto l = lines[i];
      size_t colon = l.find(':');
      if (colon == std::string_view::npos) continue;
      std::string name = Lower(Trim(l.substr(0, colon)));
      std::string_view value = Trim(l.substr(colon + 1));
      if (name == "content-length") {
        if (has_cl && value != content_length)
          return drop(400, "BAD_FRAMING", "two different Content-Length headers", "framing");
        has_cl = true;
        content_length = std::string(value);
      } else if (name == "transfer-encoding") {
        has_te = true;
      } else if (name == "content-encoding") {
        encoded = encoded || Lower(value) != "identity";
      }
    }
    if (has_cl && has_te)
      return drop(400, "BAD_FRAMING", "both Content-Length and Transfer-Encoding", "framing");
    // Dispatch: health and metrics to their own threads.
    std::string_view request_line = lines.empty() ? std::string_view() : Trim(lines[0]);
    bool health = false;
    for (const char* path : {"/livez", "/readyz", "/health", "/metrics"}) {
      std::string prefix = std::string("GET ") + path;
      if (request_line.starts_with(prefix) &&
          (request_line.size() == prefix.size() || request_line[prefix.size()] == ' ' ||
           request_line[prefix.size()] == '?'))
        health = true;
    }
    if (encoded) {
      // "POST /path HTTP/1.1": the path between the first two spaces, before any '?'.
      size_t sp = request_line.find(' ');
      std::string_view target =
          sp == std::string_view::npos ? std::string_view() : request_line.substr(sp + 1);
      target = target.substr(0, std::min(target.find(' '), target.find('?')));
      if (std::find(o_.decoding_paths.begin(), o_.decoding_paths.end(), target) ==
          o_.decoding_paths.end())
        return drop(415, "UNSUPPORTED_MEDIA_TYPE",
                    "a Content-Encoding is accepted on the analyses route only", "encoding");
    }
    ::epoll_ctl(epfd_, EPOLL_CTL_DEL, fd, nullptr);
    Conn conn = std::move(c);
    conns.erase(fd);
    {
      std::lock_guard lock(busy_mu_);
      busy_.insert(fd);
    }
    auto job = [this, fd, conn = std::move(conn)]() mutable { Serve(fd, std::move(conn)); };
    if (!(health ? health_ : main_).TrySubmit(std::move(job))) {
      {
        std::lock_guard lock(busy_mu_);
        busy_.erase(fd);
      }
      RefuseOpen(fd, 503, "OVERLOADED", "every HTTP worker is busy and the queue is full", true,
                 "queue_full");
    }
  }

  // On a worker: serve one request, then hand the connection back or close it.
  void Serve(int fd, Conn c) {
    t_close_after = false;
    EdgeStream strm(fd, std::move(c.buf), SteadyClock::now() + o_.body_timeout,
                    o_.max_raw_body_bytes, o_.write_timeout);
    const bool last = stopping_.load() || c.served + 1 >= o_.keep_alive_max;
    bool connection_closed = false;
    bool ok = owner_->process_request(strm, last, connection_closed, nullptr);
    {
      std::lock_guard lock(busy_mu_);
      busy_.erase(fd);
    }
    if (!ok || last || connection_closed || strm.failed() || t_close_after || stopping_.load()) {
      CloseOpen(fd);
      return;
    }
    ToGate(fd, strm.Leftover(), c.served + 1, /*keep_alive=*/true);
  }

  EdgeServer* owner_;
  EdgeOptions o_;
  CounterFamily& rejected_;
  int epfd_ = -1;
  int wake_pipe_[2] = {-1, -1};
  std::mutex wake_mu_;
  std::mutex mu_;
  std::deque<std::pair<int, Conn>> incoming_;
  bool wake_ = false;
  std::atomic<bool> stopping_{false};
  std::atomic<bool> shut_{false};
  std::atomic<size_t> open_{0};
  std::mutex busy_mu_;
  std::unordered_set<int> busy_;
  BoundedPool main_;
  BoundedPool health_;
  std::thread gate_;
};

EdgeServer::EdgeServer(EdgeOptions options, MetricsRegistry& metrics) {
  new_task_queue = [] { return new InlineQueue(); };
  impl_ = std::make_unique<Impl>(this, options, metrics);
}

EdgeServer::~EdgeServer() {
  if (impl_) impl_->Shutdown();
}

void EdgeServer::Shutdown() { impl_->Shutdown(); }

void EdgeServer::RaiseBacklog(int backlog) {
  const socket_t sock = svr_sock_.load();
  if (sock != INVALID_SOCKET) ::listen(sock, backlog);
}

void EdgeServer::CloseAfterThisRequest() { t_close_after = true; }

bool EdgeServer::process_and_close_socket(socket_t sock) {
  impl_->Admit(sock);
  return true;
}

}  // namespace nunchi
