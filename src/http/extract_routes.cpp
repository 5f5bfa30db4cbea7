#include "http/extract_routes.h"

#include <algorithm>
#include <cctype>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "extract/extractor.h"
#include "extract/image_input.h"
#include "http/problem.h"
#include "ops/metrics.h"

namespace nunchi {
namespace {

using nlohmann::json;
namespace ex = extract;

// The problem code and status for an unreadable upload; the body is written
// by src/http/problem.cpp like every other problem.
Problem ProblemFor(ex::InputError e, const std::string& detail) {
  switch (e) {
    case ex::InputError::kNotAnImage:
      return MakeProblem(415, "NOT_AN_IMAGE", detail);
    case ex::InputError::kTruncated:
      return MakeProblem(422, "IMAGE_TRUNCATED", detail);
    case ex::InputError::kTooLarge:
      return MakeProblem(413, "IMAGE_TOO_LARGE", detail);
    case ex::InputError::kUndecodable:
      return MakeProblem(422, "IMAGE_UNREADABLE", detail);
    case ex::InputError::kEngineFailure:
      return MakeProblem(503, "EXTRACTION_UNAVAILABLE", detail);
  }
  return MakeProblem(500, "INTERNAL", detail);
}

void SendProblem(const httplib::Request& req, httplib::Response& res, const Problem& p) {
  res.status = p.status;
  res.set_content(ProblemBody(p, req.path), kProblemContentType);
}

json BoxJson(const ex::Box& b) { return {{"x", b.x}, {"y", b.y}, {"w", b.w}, {"h", b.h}}; }

// Fields under kLowConfidence (an absent one included) are listed in
// `low_confidence` and counted per kind and field.
template <typename T>
void PutField(json& out, const char* name, const ex::Field<T>& f, CounterFamily* low = nullptr) {
  out[name] = f.value ? json(*f.value) : json(nullptr);
  double confidence = f.value ? f.confidence : 0.0;
  out["confidence"][name] = confidence;
  if (!out.contains("low_confidence")) out["low_confidence"] = json::array();
  if (confidence < ex::kLowConfidence) {
    out["low_confidence"].push_back(name);
    if (low) low->Add({{"kind", out.value("kind", "")}, {"field", name}});
  }
  out["evidence"][name] = f.value ? json{{"source", f.evidence.source},
                                         {"text", f.evidence.text},
                                         {"box", BoxJson(f.evidence.box)}}
                                  : json(nullptr);
}

// The image bytes of the request, or a problem already written to res.
bool ImageBytes(const httplib::Request& req, httplib::Response& res, const ExtractLimits& limits,
                std::string* bytes) {
  if (req.is_multipart_form_data()) {
    if (!req.has_file("image")) {
      SendProblem(req, res,
                  MakeProblem(400, "MISSING_IMAGE", "multipart upload without an `image` field"));
      return false;
    }
    *bytes = req.get_file_value("image").content;
  } else {
    *bytes = req.body;
  }
  if (bytes->empty()) {
    SendProblem(req, res,
                MakeProblem(400, "MISSING_IMAGE",
                            "send the image as multipart field `image` or as an image/jpeg or "
                            "image/png body"));
    return false;
  }
  if (bytes->size() > limits.max_bytes) {
    SendProblem(req, res,
                ProblemFor(ex::InputError::kTooLarge, "image of " + std::to_string(bytes->size()) +
                                                          " bytes is over the limit of " +
                                                          std::to_string(limits.max_bytes)));
    return false;
  }
  return true;
}

template <typename R, typename Run, typename Render>
void Handle(const httplib::Request& req, httplib::Response& res, const ExtractLimits& limits,
            DecodeAdmission& admission, Run run, Render render) {
  std::string bytes;
  if (!ImageBytes(req, res, limits, &bytes)) return;
  // The pixel size is known from the header, before any decoding.
  size_t need = 0;
  ex::Expected<ex::ImageHeader> header = ex::InspectImage(bytes);
  if (auto* h = std::get_if<ex::ImageHeader>(&header))
    need = static_cast<size_t>(std::max(h->width, 0)) *
           static_cast<size_t>(std::max(h->height, 0)) * ExtractLimits::kWorkingBytesPerPixel;
  if (!admission.TryAcquire(need)) {
    res.set_header("Retry-After", "1");
    SendProblem(
        req, res,
        MakeProblem(503, "EXTRACTION_BUSY", "images being decoded hold the decode budget; retry"));
    return;
  }
  struct Releaser {
    DecodeAdmission& a;
    size_t n;
    ~Releaser() { a.Release(n); }
  } releaser{admission, need};
  ex::Expected<R> result = run(bytes);
  if (auto* e = std::get_if<ex::ExtractError>(&result)) {
    SendProblem(req, res, ProblemFor(e->code, e->message));
    return;
  }
  res.status = 200;
  res.set_content(render(std::get<R>(result)).dump(), "application/json");
}

}  // namespace

bool DecodeAdmission::TryAcquire(size_t bytes) {
  std::lock_guard lock(mu_);
  if (running_ > 0 && (running_ >= max_concurrent_ || bytes_ + bytes > max_bytes_)) return false;
  ++running_;
  bytes_ += bytes;
  return true;
}

void DecodeAdmission::Release(size_t bytes) {
  std::lock_guard lock(mu_);
  --running_;
  bytes_ -= bytes;
}

size_t DecodeAdmission::in_use_bytes() const {
  std::lock_guard lock(mu_);
  return bytes_;
}

void RegisterExtractRoutes(httplib::Server& server, const ExtractLimits& limits,
                           ex::CandidateChooser* chooser, MetricsRegistry* metrics) {
  CounterFamily* low =
      metrics ? &metrics->Counter("nunchi_extract_low_confidence_total",
                                  "Extracted fields answered below the low-confidence level "
                                  "(absent ones included), by kind and field")
              : nullptr;
  ex::ExtractorOptions options;
  options.chooser = chooser;
  options.limits.max_bytes = limits.max_bytes;
  options.limits.max_pixels = limits.max_pixels;
  auto extractor = std::make_shared<ex::Extractor>(options);
  auto admission =
      std::make_shared<DecodeAdmission>(limits.max_concurrent_decodes, limits.max_decoded_bytes);

  server.Post("/v1/extractions/taxi-fare", [extractor, limits, admission, low](
                                               const httplib::Request& req,
                                               httplib::Response& res) {
    Handle<ex::TaxiFareResult>(
        req, res, limits, *admission, [&](const std::string& b) { return extractor->TaxiFare(b); },
        [low](const ex::TaxiFareResult& r) {
          json out = {{"kind", "taxi_fare"}, {"currency", "KRW"}, {"method", r.method}};
          PutField(out, "amount", r.amount, low);
          out["ocr_text"] = r.ocr_text;
          out["elapsed_ms"] = static_cast<int64_t>(r.elapsed_ms);
          return out;
        });
  });
  server.Post("/v1/extractions/receipt", [extractor, limits, admission, low](
                                             const httplib::Request& req, httplib::Response& res) {
    Handle<ex::ReceiptResult>(
        req, res, limits, *admission, [&](const std::string& b) { return extractor->Receipt(b); },
        [low](const ex::ReceiptResult& r) {
          json out = {{"kind", "receipt"}, {"currency", "KRW"}};
          PutField(out, "amount", r.amount, low);
          PutField(out, "paid_at", r.paid_at, low);
          PutField(out, "merchant", r.merchant, low);
          PutField(out, "issuer", r.issuer, low);
          PutField(out, "approval_number", r.approval_number, low);
          out["checks"] = {{"vat_consistent", r.vat_consistent}};
          out["ocr_text"] = r.ocr_text;
          out["elapsed_ms"] = static_cast<int64_t>(r.elapsed_ms);
          return out;
        });
  });
}

}  // namespace nunchi
