// Black-box: nunchi serve against hostile clients and an unlucky disk
// (issue 16). Each test reproduces one failure found by the attack: slow
// headers holding every thread, SIGTERM stuck behind a slow connection,
// unbounded header sections and bodies, two Content-Length headers, raw
// request ids, an open server, a full disk answered 200. Latency figures are
// printed, never asserted.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <thread>
#include <vector>

#include "blackbox/cycle.h"

namespace nunchi::testing {
namespace {

using namespace std::chrono_literals;
using SteadyClock = std::chrono::steady_clock;

int Connect(int port) {
  int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(static_cast<uint16_t>(port));
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

bool SendAll(int fd, const std::string& s) {
  size_t done = 0;
  while (done < s.size()) {
    ssize_t n = ::send(fd, s.data() + done, s.size() - done, MSG_NOSIGNAL);
    if (n <= 0) return false;
    done += static_cast<size_t>(n);
  }
  return true;
}

// Everything the server sends until it closes or timeout passes.
std::string ReadAll(int fd, std::chrono::milliseconds timeout) {
  std::string out;
  const auto until = SteadyClock::now() + timeout;
  char buf[4096];
  while (SteadyClock::now() < until) {
    pollfd p{fd, POLLIN, 0};
    int ms = static_cast<int>(
        std::chrono::duration_cast<std::chrono::milliseconds>(until - SteadyClock::now()).count());
    if (::poll(&p, 1, std::max(ms, 1)) <= 0) break;
    ssize_t n = ::recv(fd, buf, sizeof buf, 0);
    if (n <= 0) break;
    out.append(buf, static_cast<size_t>(n));
  }
  return out;
}

int StatusOf(const std::string& raw) {
  if (raw.rfind("HTTP/1.1 ", 0) != 0 || raw.size() < 12) return -1;
  return std::stoi(raw.substr(9, 3));
}

// True when the server closed fd (EOF or reset) within timeout.
bool ClosedWithin(int fd, std::chrono::milliseconds timeout) {
  const auto until = SteadyClock::now() + timeout;
  char buf[4096];
  while (SteadyClock::now() < until) {
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, 50) <= 0) continue;
    ssize_t n = ::recv(fd, buf, sizeof buf, 0);
    if (n <= 0) return true;
  }
  return false;
}

double Percentile(std::vector<double> v, double q) {
  if (v.empty()) return -1;
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, static_cast<size_t>(q * double(v.size())))];
}

nlohmann::json OneCycle(Backend& b, const std::string& spot) {
  b.AddSpot(spot, "명동 거리");
  std::string p = b.Post(spot, "u1", "사람 많아요 줄 길어요", 1);
  b.Comment(spot, p, "u2", "완전 붐벼요", 0);
  return b.Request();
}

TEST(Hostile, SlowHeadersAreCutAndLivezAnswersDuringAFlood) {
  ServerProcess server(TempDir("slow"), {"--header-timeout-ms", "2000"});
  const int port = server.port();
  // 50 connections sending their headers one byte every 200 ms.
  std::vector<int> slow;
  for (int i = 0; i < 50; ++i) slow.push_back(Connect(port));
  std::atomic<bool> stop{false};
  std::atomic<int> slow_cut{0};
  std::thread trickler([&] {
    const std::string req = "GET /livez HTTP/1.1\r\nHost: x\r\nX-Pad: " + std::string(200, 'a');
    std::vector<bool> cut(slow.size(), false);
    for (size_t k = 0; k < req.size() && !stop; ++k) {
      for (size_t i = 0; i < slow.size(); ++i)
        if (!cut[i] && !SendAll(slow[i], req.substr(k, 1))) cut[i] = true;
      std::this_thread::sleep_for(200ms);
    }
  });
  // 50 flooding clients: valid analyses and health checks, keep-alive.
  std::atomic<int> flood_ok{0}, flood_503{0}, flood_other{0};
  std::vector<std::thread> flooders;
  for (int i = 0; i < 50; ++i)
    flooders.emplace_back([&, i] {
      auto c = server.Client();
      Backend b(0, "f" + std::to_string(i) + "-");
      while (!stop) {
        auto r = i % 2 ? PostAnalysis(c, OneCycle(b, "s" + std::to_string(i))) : c.Get("/metrics");
        if (r && r->status == 200) {
          ++flood_ok;
          if (i % 2) b.Acknowledge(nlohmann::json::parse(r->body));
        } else if (r && r->status == 503) {
          ++flood_503;
        } else {
          ++flood_other;
        }
      }
    });
  // /livez latency meanwhile, on fresh connections.
  std::vector<double> livez_ms;
  int livez_failed = 0;
  const auto until = SteadyClock::now() + 6s;
  while (SteadyClock::now() < until) {
    httplib::Client c("127.0.0.1", port);
    c.set_connection_timeout(5, 0);
    c.set_read_timeout(5, 0);
    const auto t0 = SteadyClock::now();
    auto r = c.Get("/livez");
    const double ms = std::chrono::duration<double, std::milli>(SteadyClock::now() - t0).count();
    if (r && r->status == 200) {
      livez_ms.push_back(ms);
    } else {
      ++livez_failed;
    }
    std::this_thread::sleep_for(20ms);
  }
  // The slow connections are cut by the server (their headers never end).
  for (int fd : slow)
    if (ClosedWithin(fd, 3s)) ++slow_cut;
  stop = true;
  trickler.join();
  for (auto& t : flooders) t.join();
  for (int fd : slow) ::close(fd);
  std::printf(
      "[ figure ] 50 slow-header + 50 flooding clients: /livez n=%zu failed=%d p50=%.1f ms "
      "p99=%.1f ms max=%.1f ms; slow connections cut %d/50; flood ok=%d 503=%d other=%d\n",
      livez_ms.size(), livez_failed, Percentile(livez_ms, 0.5), Percentile(livez_ms, 0.99),
      Percentile(livez_ms, 1.0), slow_cut.load(), flood_ok.load(), flood_503.load(),
      flood_other.load());
  EXPECT_GT(livez_ms.size(), 10u) << "/livez answers during the attack";
  EXPECT_EQ(livez_failed, 0);
  EXPECT_EQ(slow_cut.load(), 50) << "every slow-header connection is cut";
  EXPECT_GT(flood_ok.load(), 0) << "valid requests are still served";
  auto c = server.Client();
  EXPECT_GE(Metric(c, "nunchi_http_rejected_total", "{reason=\"header_timeout\"}"), 50);
}

TEST(Hostile, ASlowConnectionDoesNotStopSigterm) {
  ServerProcess server(TempDir("term"), {"--drain-ms", "1000"});
  int fd = Connect(server.port());
  ASSERT_TRUE(SendAll(fd, "POST /v1/congestion-analyses HTTP/1.1\r\nHost: x\r\n"));  // never ends
  int body = Connect(server.port());
  ASSERT_TRUE(SendAll(body,
                      "POST /v1/congestion-analyses HTTP/1.1\r\nHost: x\r\nContent-Type: "
                      "application/json\r\nContent-Length: 1000\r\n\r\n{"));  // body never ends
  std::this_thread::sleep_for(300ms);
  const auto t0 = SteadyClock::now();
  const int status = server.Stop();
  const double secs = std::chrono::duration<double>(SteadyClock::now() - t0).count();
  std::printf(
      "[ figure ] SIGTERM with a slow header and a slow body connection: exit %d in %.2f s\n",
      status, secs);
  EXPECT_EQ(status, 0) << "exited by itself, not killed";
  ::close(fd);
  ::close(body);
}

TEST(Hostile, HeaderSectionAndLineLimitsAre431) {
  ServerProcess server(TempDir("hdr"), {"--max-header-bytes", "16384"});
  {
    // A 36 MiB header section (was accepted whole): cut at the limit.
    int big = Connect(server.port());
    SendAll(big, "GET /livez HTTP/1.1\r\n");
    std::string line = "X-Big: " + std::string(1000, 'b') + "\r\n";
    size_t sent = 0;
    while (sent < (36u << 20) && SendAll(big, line)) sent += line.size();
    std::printf("[ figure ] header flood: %zu bytes sent before the server closed\n", sent);
    EXPECT_LT(sent, 36u << 20) << "the server stops reading a header section at its limit";
    ::close(big);
  }
  int fd = Connect(server.port());
  std::string req = "GET /readyz HTTP/1.1\r\nHost: x\r\n";
  for (int i = 0; i < 400; ++i)
    req += "X-H" + std::to_string(i) + ": " + std::string(100, 'v') + "\r\n";
  SendAll(fd, req);  // 40 KB and no end: refused before the end
  std::string raw = ReadAll(fd, 3s);
  EXPECT_EQ(StatusOf(raw), 431) << raw.substr(0, 200);
  ::close(fd);
  fd = Connect(server.port());
  SendAll(fd, "GET /readyz HTTP/1.1\r\nX-Long: " + std::string(9000, 'v') + "\r\n\r\n");
  raw = ReadAll(fd, 3s);
  EXPECT_EQ(StatusOf(raw), 431) << raw.substr(0, 200);
  ::close(fd);
  auto c = server.Client();
  EXPECT_EQ(c.Get("/livez")->status, 200);
}

TEST(Hostile, FramingAttacksAre400) {
  ServerProcess server(TempDir("frame"));
  const std::string body = "{}";
  int fd = Connect(server.port());
  SendAll(fd,
          "POST /v1/congestion-analyses HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
          "Content-Length: 2\r\nContent-Length: 40\r\n\r\n" +
              body);
  std::string raw = ReadAll(fd, 3s);
  EXPECT_EQ(StatusOf(raw), 400) << raw.substr(0, 300);
  EXPECT_NE(raw.find("BAD_FRAMING"), std::string::npos);
  ::close(fd);
  fd = Connect(server.port());
  SendAll(fd,
          "POST /v1/congestion-analyses HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
          "Content-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n");
  raw = ReadAll(fd, 3s);
  EXPECT_EQ(StatusOf(raw), 400) << raw.substr(0, 300);
  ::close(fd);
  // The same value twice is one Content-Length (RFC 9112 6.3).
  fd = Connect(server.port());
  SendAll(fd,
          "POST /v1/congestion-analyses HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
          "Content-Length: 2\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}");
  raw = ReadAll(fd, 3s);
  EXPECT_EQ(StatusOf(raw), 422) << raw.substr(0, 300);
  ::close(fd);
}

TEST(Hostile, ChunkedAndCompressedBodiesAreCountedDecoded) {
  ServerProcess server(TempDir("body"), {"--max-body-bytes", "100000"});
  const long rss_before = server.StatusKiB("VmRSS");
  // A chunked body past the limit: refused while reading, not read whole.
  int fd = Connect(server.port());
  SendAll(fd,
          "POST /v1/congestion-analyses HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
          "Transfer-Encoding: chunked\r\n\r\n");
  std::string chunk = std::string(16384, ' ');
  char size[32];
  std::snprintf(size, sizeof size, "%zx\r\n", chunk.size());
  for (int i = 0; i < 64; ++i)  // 1 MiB offered; the server stops after ~100 KB
    if (!SendAll(fd, size + chunk + "\r\n")) break;
  std::string raw = ReadAll(fd, 3s);
  EXPECT_EQ(StatusOf(raw), 413) << raw.substr(0, 300);
  ::close(fd);
  // A gzip bomb: 20 MB of spaces, a few KB on the wire.
  auto c = server.Client();
  c.set_compress(true);
  auto r = c.Post("/v1/congestion-analyses", std::string(20 << 20, ' '), "application/json");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 413) << r->body;
  // Elsewhere an encoded body is refused before it is read (httplib would inflate it whole).
  r = c.Post("/v1/extractions/receipt", std::string(20 << 20, ' '), "image/png");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 415) << r->body;
  auto plain = server.Client();
  EXPECT_EQ(plain.Get("/livez")->status, 200);
  std::printf(
      "[ figure ] 1 MiB chunked + 20 MB gzip bomb + 20 MB gzip on an image route: server "
      "RSS %ld -> %ld KiB, peak %ld KiB\n",
      rss_before, server.StatusKiB("VmRSS"), server.StatusKiB("VmHWM"));
}

// A PNG of one colour, w x h RGB: a few tens of KB on the wire, w * h * 4
// bytes once decoded (a "PNG bomb" under the pixel limit).
std::string SolidPng(uint32_t w, uint32_t h) {
  auto be32 = [](std::string& s, uint32_t v) {
    for (int k = 3; k >= 0; --k) s.push_back(static_cast<char>((v >> (8 * k)) & 0xff));
  };
  auto chunk = [&](std::string& out, const char* type, const std::string& data) {
    be32(out, static_cast<uint32_t>(data.size()));
    std::string body = std::string(type, 4) + data;
    out += body;
    be32(out, static_cast<uint32_t>(crc32(0, reinterpret_cast<const Bytef*>(body.data()),
                                          static_cast<uInt>(body.size()))));
  };
  std::string ihdr;
  be32(ihdr, w);
  be32(ihdr, h);
  ihdr += std::string("\x08\x02\x00\x00\x00", 5);  // 8-bit RGB, deflate, no filter, no interlace
  std::string raw;
  raw.reserve(static_cast<size_t>(h) * (1 + 3 * w));
  for (uint32_t y = 0; y < h; ++y) {
    raw.push_back('\0');
    raw.append(3 * static_cast<size_t>(w), static_cast<char>(0xf0));
  }
  uLongf n = compressBound(static_cast<uLong>(raw.size()));
  std::string z(n, '\0');
  compress2(reinterpret_cast<Bytef*>(z.data()), &n, reinterpret_cast<const Bytef*>(raw.data()),
            static_cast<uLong>(raw.size()), 9);
  z.resize(n);
  std::string png("\x89PNG\r\n\x1a\n", 8);
  chunk(png, "IHDR", ihdr);
  chunk(png, "IDAT", z);
  chunk(png, "IEND", "");
  return png;
}

// Eight 6000 x 6000 PNG bombs at once took +1.34 GiB before the decode
// budget, and +830 MiB with the budget charging 4 bytes a pixel (three
// decoded at once, each holding 7.7 bytes a pixel at its peak). Charged at 8
// bytes a pixel (275 MiB an image), the default 512 MiB admits one at a
// time; the others answer 503 EXTRACTION_BUSY, and the peak stays under it.
TEST(Hostile, EightPngBombsAtOnceStayWithinTheDecodeBudget) {
  ServerProcess server(TempDir("pngbomb"));
  const std::string png = SolidPng(6000, 6000);
  ASSERT_LT(png.size(), 200'000u) << "a bomb is small on the wire";
  {
    auto probe = server.Client();
    auto r = probe.Post("/v1/extractions/receipt", "", "image/png");
    ASSERT_TRUE(r);
    if (r->status == 404) GTEST_SKIP() << "built without the extraction routes";
  }
  const long rss_before = server.StatusKiB("VmRSS");
  std::vector<int> status(8, 0);
  std::vector<std::string> retry_after(8), body(8);
  std::vector<std::thread> clients;
  for (int i = 0; i < 8; ++i) {
    clients.emplace_back([&, i] {
      auto c = server.Client();
      c.set_read_timeout(120s);
      auto r = c.Post("/v1/extractions/receipt", png, "image/png");
      if (!r) return;
      status[i] = r->status;
      retry_after[i] = r->get_header_value("Retry-After");
      body[i] = r->body.substr(0, 200);
    });
  }
  for (auto& t : clients) t.join();
  const long rss_peak = server.StatusKiB("VmHWM");
  int busy = 0, decoded = 0;
  for (int i = 0; i < 8; ++i) {
    if (status[i] == 503) {
      ++busy;
      EXPECT_EQ(retry_after[i], "1");
      EXPECT_NE(body[i].find("EXTRACTION_BUSY"), std::string::npos) << body[i];
    } else {
      // Decoded: a receipt with no text is an answer or a 422, never a 5xx.
      EXPECT_TRUE(status[i] == 200 || status[i] == 422) << status[i] << " " << body[i];
      ++decoded;
    }
  }
  EXPECT_GE(busy, 1) << "eight at once cannot all fit in 512 MiB";
  EXPECT_GE(decoded, 1);
  // The budget bounds the memory, not only the pixels.
  const double grown_mib = double(rss_peak - rss_before) / 1024.0;
  EXPECT_LT(grown_mib, 512.0) << "peak RSS grew " << grown_mib << " MiB, over --max-decoded-mib";
  auto plain = server.Client();
  EXPECT_EQ(plain.Get("/livez")->status, 200);
  std::printf(
      "[ figure ] eight 6000x6000 PNG bombs (%zu bytes each) at once: %d decoded, %d answered "
      "503 EXTRACTION_BUSY; server RSS %ld KiB before, peak %ld KiB (+%.0f MiB)\n",
      png.size(), decoded, busy, rss_before, rss_peak, grown_mib);
}

TEST(Hostile, RequestIdsAreSanitizedBeforeEchoAndLog) {
  ServerProcess server(TempDir("rid"));
  int fd = Connect(server.port());
  SendAll(fd,
          "GET /readyz HTTP/1.1\r\nHost: x\r\nX-Request-Id: bad\xff\xfeid\r\nConnection: "
          "close\r\n\r\n");
  std::string raw = ReadAll(fd, 3s);
  ::close(fd);
  EXPECT_EQ(StatusOf(raw), 200) << raw.substr(0, 300);
  EXPECT_EQ(raw.find("\xff"), std::string::npos) << "the raw id is not echoed";
  EXPECT_NE(raw.find("X-Request-Id: r-"), std::string::npos) << "a fresh id instead";
  auto c = server.Client();
  auto r = c.Get("/readyz", {{"X-Request-Id", "cycle-42.a"}});
  EXPECT_EQ(r->get_header_value("X-Request-Id"), "cycle-42.a");
}

TEST(Hostile, InboundBearerAuthentication) {
  const std::string dir = TempDir("auth");
  { std::ofstream(dir + "/key") << "s3cret-key-0123456789\n"; }
  ServerProcess server(dir, {"--auth-key-file", dir + "/key"});
  auto c = server.Client();
  EXPECT_EQ(c.Get("/livez")->status, 200) << "/livez stays open";
  auto r = c.Get("/readyz");
  EXPECT_EQ(r->status, 401);
  EXPECT_EQ(r->get_header_value("WWW-Authenticate"), "Bearer");
  EXPECT_NE(r->body.find("UNAUTHORIZED"), std::string::npos);
  EXPECT_EQ(c.Get("/metrics")->status, 401);
  Backend b;
  r = PostAnalysis(c, OneCycle(b, "s1"));
  EXPECT_EQ(r->status, 401);
  EXPECT_EQ(c.Get("/readyz", {{"Authorization", "Bearer wrong-key-0123456789"}})->status, 401);
  EXPECT_EQ(c.Get("/readyz", {{"Authorization", "Bearer s3cret-key-012345678"}})->status, 401);
  c.set_bearer_token_auth("s3cret-key-0123456789");
  EXPECT_EQ(c.Get("/readyz")->status, 200);
  r = PostAnalysis(c, OneCycle(b, "s2"));
  EXPECT_EQ(r->status, 200) << r->body;
  EXPECT_EQ(server.log().find("s3cret"), std::string::npos) << "the key is never logged";
  std::ifstream log(dir + "/decisions.jsonl");
  std::string all((std::istreambuf_iterator<char>(log)), std::istreambuf_iterator<char>());
  EXPECT_EQ(all.find("s3cret"), std::string::npos);
  ServerProcess open(TempDir("auth-open"), {"--auth-key-file", dir + "/key", "--metrics-open"});
  auto o = open.Client();
  EXPECT_EQ(o.Get("/metrics")->status, 200);
  EXPECT_EQ(o.Get("/readyz")->status, 401);
}

TEST(Hostile, AMegabyteIdentifierIs422AndStoresNothing) {
  const std::string dir = TempDir("bigid");
  ServerProcess server(dir);
  auto c = server.Client();
  Backend b;
  nlohmann::json j = OneCycle(b, "s1");
  j["spots"][0]["spot_id"] = std::string(1 << 20, 's');  // grew the data dir by 150-251 MiB
  const double rows = Metric(c, "nunchi_store_rows");
  auto r = PostAnalysis(c, j);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 422) << r->body.substr(0, 300);
  EXPECT_NE(r->body.find("/spots/0/spot_id"), std::string::npos);
  EXPECT_LT(r->body.size(), 4096u);
  EXPECT_EQ(Metric(c, "nunchi_store_rows"), rows);
  std::ifstream log(dir + "/decisions.jsonl", std::ios::ate);
  EXPECT_LT(log ? static_cast<long long>(log.tellg()) : 0, 4096) << "nothing logged for it";
}

TEST(Hostile, OverTheJudgeQueueIs503WithRetryAfter) {
  ServerProcess server(TempDir("queue"), {"--max-judge-queue", "1"});
  auto c = server.Client();
  Backend b;
  b.AddSpot("s1", "명동");
  b.Post("s1", "u1", "사람 많아요", 1);
  b.Post("s1", "u2", "줄 길어요", 1);  // two bundles: two judge tasks > 1
  const double rows = Metric(c, "nunchi_store_rows");
  auto r = PostAnalysis(c, b.Request());
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 503) << r->body;
  EXPECT_EQ(r->get_header_value("Retry-After"), "1");
  EXPECT_NE(r->body.find("OVERLOADED"), std::string::npos);
  EXPECT_EQ(Metric(c, "nunchi_store_rows"), rows) << "a refused request changes nothing";
  EXPECT_EQ(Metric(c, "nunchi_refused_total", "{reason=\"judge_queue\"}"), 1);
}

TEST(Hostile, AFullDiskIs503NotReadyAndRecoversByItself) {
  const std::string dir = TempDir("disk");
  const std::string control = dir + "/fault";
  ServerProcess server(dir, {"--inject-store-faults", control});
  auto c = server.Client();
  Backend b;
  auto r = PostAnalysis(c, OneCycle(b, "s1"));
  ASSERT_EQ(r->status, 200) << r->body;
  b.Acknowledge(nlohmann::json::parse(r->body));
  { std::ofstream(control) << "disk_full\n"; }
  b.Comment("s1", b.Post("s1", "u3", "여기 붐벼요"), "u4", "맞아요");
  r = PostAnalysis(c, b.Request());
  EXPECT_EQ(r->status, 503) << r->body;
  EXPECT_NE(r->body.find("STORAGE_UNAVAILABLE"), std::string::npos) << r->body;
  EXPECT_EQ(r->get_header_value("Retry-After"), "1");
  EXPECT_EQ(c.Get("/readyz")->status, 503);
  EXPECT_NE(server.log().find("\"event\":\"storage_fault\""), std::string::npos) << server.log();
  std::remove(control.c_str());  // space returns
  int ready = 0;
  for (int i = 0; i < 50 && ready != 200; ++i) {
    std::this_thread::sleep_for(100ms);
    ready = c.Get("/readyz")->status;
  }
  EXPECT_EQ(ready, 200);
  EXPECT_NE(server.log().find("\"event\":\"storage_recovered\""), std::string::npos);
  r = PostAnalysis(c, b.Request());
  EXPECT_EQ(r->status, 200) << r->body;
}

TEST(Hostile, ACorruptStoreFileIsANewEpochAndStateReset) {
  const std::string dir = TempDir("corrupt");
  Backend b;
  std::string epoch;
  {
    ServerProcess server(dir);
    auto c = server.Client();
    auto r = PostAnalysis(c, OneCycle(b, "s1"));
    ASSERT_EQ(r->status, 200) << r->body;
    auto body = nlohmann::json::parse(r->body);
    epoch = body["state_epoch"];
    b.Acknowledge(body);
    ASSERT_EQ(server.Stop(), 0);
  }
  {
    // Garbage over the start of the file: the SQLite header and first page.
    std::fstream f(dir + "/judgments.db", std::ios::in | std::ios::out | std::ios::binary);
    const std::string junk(8192, '\x5a');
    f.write(junk.data(), static_cast<std::streamsize>(junk.size()));
  }
  ServerProcess server(dir);
  EXPECT_NE(server.log().find("\"event\":\"store_corrupt\""), std::string::npos) << server.log();
  auto c = server.Client();
  auto ready = c.Get("/readyz");
  ASSERT_EQ(ready->status, 200);
  EXPECT_NE(nlohmann::json::parse(ready->body)["state_epoch"], epoch) << "a new epoch";
  b.Comment("s1", "p1", "u6", "진짜요");  // a new comment on the post of the first cycle
  auto r = PostAnalysis(c, b.Request());
  EXPECT_EQ(r->status, 409) << "an incremental cycle on the new epoch is STATE_RESET: " << r->body;
  r = PostAnalysis(c, b.Request(/*resend_all=*/true));
  EXPECT_EQ(r->status, 200) << "a full resend recovers: " << r->body;
}

}  // namespace
}  // namespace nunchi::testing
