// Black-box tests of the extraction routes over a real socket.
#include <gtest/gtest.h>

#include <chrono>
#include <nlohmann/json.hpp>
#include <thread>

#include "http/extract_routes.h"
#include "ops/metrics.h"
#include "render.h"

namespace nunchi {
namespace {

class ExtractRoutesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ExtractLimits limits;
    limits.max_bytes = 2 << 20;
    RegisterExtractRoutes(server_, limits, nullptr, &metrics_);
    port_ = server_.bind_to_any_port("127.0.0.1");
    thread_ = std::thread([this] { server_.listen_after_bind(); });
    while (!server_.is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  void TearDown() override {
    server_.stop();
    thread_.join();
  }
  httplib::Client Client() { return httplib::Client("127.0.0.1", port_); }

  static void ExpectProblem(const httplib::Result& res, int status, const std::string& code) {
    ASSERT_TRUE(res);
    EXPECT_EQ(res->status, status);
    EXPECT_EQ(res->get_header_value("Content-Type"), "application/problem+json");
    auto body = nlohmann::json::parse(res->body);
    EXPECT_EQ(body["code"], code);
    EXPECT_EQ(body["status"], status);
    EXPECT_FALSE(body["detail"].get<std::string>().empty());
    EXPECT_EQ(body["type"].get<std::string>().rfind("https://nunchi.dev/problems/", 0), 0u);
  }

  MetricsRegistry metrics_;
  httplib::Server server_;
  std::thread thread_;
  int port_ = 0;
};

std::string Image(const render::RenderedImage& img) {
  return std::string(img.bytes.begin(), img.bytes.end());
}
std::string Mime(const render::RenderedImage& img) {
  return img.extension == "png" ? "image/png" : "image/jpeg";
}

TEST_F(ExtractRoutesTest, ReceiptFromRawBody) {
  render::RenderedImage img = render::RenderReceipt(11);
  auto res = Client().Post("/v1/extractions/receipt", Image(img), Mime(img));
  ASSERT_TRUE(res);
  ASSERT_EQ(res->status, 200) << res->body;
  auto body = nlohmann::json::parse(res->body);
  EXPECT_EQ(body["kind"], "receipt");
  for (const char* f : {"amount", "paid_at", "merchant", "issuer", "approval_number"}) {
    EXPECT_TRUE(body.contains(f)) << f;
    EXPECT_TRUE(body["confidence"].contains(f)) << f;
    EXPECT_TRUE(body["evidence"].contains(f)) << f;
  }
  ASSERT_TRUE(body["amount"].is_number_integer()) << res->body;
  EXPECT_EQ(body["amount"].get<int64_t>(), img.truth.amount) << res->body;
  EXPECT_TRUE(body["evidence"]["amount"]["box"].contains("x"));
}

TEST_F(ExtractRoutesTest, TaxiFareFromMultipart) {
  render::RenderedImage img = render::RenderTaxiMeter(12);
  httplib::MultipartFormDataItems items = {
      {"image", Image(img), "meter." + img.extension, Mime(img)}};
  auto res = Client().Post("/v1/extractions/taxi-fare", items);
  ASSERT_TRUE(res);
  ASSERT_EQ(res->status, 200) << res->body;
  auto body = nlohmann::json::parse(res->body);
  EXPECT_EQ(body["kind"], "taxi_fare");
  EXPECT_EQ(body["amount"], img.truth.amount) << res->body;
}

TEST_F(ExtractRoutesTest, MalformedUploadsGetProblems) {
  auto c = Client();
  ExpectProblem(c.Post("/v1/extractions/receipt", "just some text", "text/plain"), 415,
                "NOT_AN_IMAGE");
  std::string png = Image(render::RenderReceipt(3));
  ExpectProblem(c.Post("/v1/extractions/receipt", png.substr(0, png.size() / 2), "image/png"), 422,
                "IMAGE_TRUNCATED");
  ExpectProblem(c.Post("/v1/extractions/taxi-fare", std::string(3 << 20, 'x'), "image/jpeg"), 413,
                "IMAGE_TOO_LARGE");
  ExpectProblem(c.Post("/v1/extractions/taxi-fare", "", "image/jpeg"), 400, "MISSING_IMAGE");
  httplib::MultipartFormDataItems wrong = {{"photo", png, "a.png", "image/png"}};
  ExpectProblem(c.Post("/v1/extractions/receipt", wrong), 400, "MISSING_IMAGE");
}

TEST(DecodeAdmission, BoundsConcurrencyAndDecodedBytes) {
  DecodeAdmission a(2, 300);
  EXPECT_TRUE(a.TryAcquire(500)) << "one image alone is always admitted";
  EXPECT_FALSE(a.TryAcquire(1)) << "over the byte budget";
  a.Release(500);
  EXPECT_TRUE(a.TryAcquire(100));
  EXPECT_TRUE(a.TryAcquire(100));
  EXPECT_FALSE(a.TryAcquire(0)) << "over the concurrency bound";
  a.Release(100);
  EXPECT_TRUE(a.TryAcquire(200));
  EXPECT_EQ(a.in_use_bytes(), 300u);
  EXPECT_FALSE(a.TryAcquire(1));
}

// A blank page is no meter: no amount, listed as low confidence, counted.
TEST_F(ExtractRoutesTest, BlankPageAnswersLowConfidenceAndIsCounted) {
  // A 64x64 grey PNG (8-bit grey, one colour).
  static const unsigned char kPng[] = {
      0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44,
      0x52, 0x00, 0x00, 0x00, 0x40, 0x00, 0x00, 0x00, 0x40, 0x08, 0x00, 0x00, 0x00, 0x00, 0x8f,
      0x02, 0x2e, 0x02, 0x00, 0x00, 0x00, 0x2a, 0x49, 0x44, 0x41, 0x54, 0x78, 0xda, 0xed, 0xcc,
      0x41, 0x11, 0x00, 0x00, 0x0c, 0x02, 0x20, 0xfb, 0xa7, 0x34, 0x8a, 0x21, 0xf6, 0xdb, 0x41,
      0x00, 0xd2, 0xa3, 0x08, 0x04, 0x02, 0x81, 0x40, 0x20, 0x10, 0x08, 0x04, 0x02, 0x81, 0x40,
      0x20, 0xf8, 0x1e, 0x0c, 0xba, 0xda, 0x00, 0xd3, 0xad, 0x3a, 0x3b, 0x93, 0x00, 0x00, 0x00,
      0x00, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82};
  std::string png(reinterpret_cast<const char*>(kPng), sizeof kPng);
  auto res = Client().Post("/v1/extractions/taxi-fare", png, "image/png");
  ASSERT_TRUE(res);
  ASSERT_EQ(res->status, 200) << res->body;
  auto body = nlohmann::json::parse(res->body);
  EXPECT_TRUE(body["amount"].is_null()) << res->body;
  EXPECT_EQ(body["confidence"]["amount"], 0.0);
  ASSERT_TRUE(body["low_confidence"].is_array()) << res->body;
  EXPECT_EQ(body["low_confidence"][0], "amount");
  EXPECT_EQ(metrics_.Counter("nunchi_extract_low_confidence_total", "")
                .Get({{"kind", "taxi_fare"}, {"field", "amount"}}),
            1.0);
  EXPECT_NE(metrics_.Render().find("nunchi_extract_low_confidence_total"), std::string::npos);
}

}  // namespace
}  // namespace nunchi
