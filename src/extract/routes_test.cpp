// Black-box tests of the extraction routes over a real socket.
#include <gtest/gtest.h>

#include <chrono>
#include <nlohmann/json.hpp>
#include <thread>

#include "http/extract_routes.h"
#include "render.h"

namespace nunchi {
namespace {

class ExtractRoutesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ExtractLimits limits;
    limits.max_bytes = 2 << 20;
    RegisterExtractRoutes(server_, limits);
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

}  // namespace
}  // namespace nunchi
