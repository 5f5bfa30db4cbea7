#include "http/extract_routes.h"

#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "extract/extractor.h"
#include "http/problem.h"

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

template <typename T>
void PutField(json& out, const char* name, const ex::Field<T>& f) {
  out[name] = f.value ? json(*f.value) : json(nullptr);
  out["confidence"][name] = f.value ? f.confidence : 0.0;
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
            Run run, Render render) {
  std::string bytes;
  if (!ImageBytes(req, res, limits, &bytes)) return;
  ex::Expected<R> result = run(bytes);
  if (auto* e = std::get_if<ex::ExtractError>(&result)) {
    SendProblem(req, res, ProblemFor(e->code, e->message));
    return;
  }
  res.status = 200;
  res.set_content(render(std::get<R>(result)).dump(), "application/json");
}

}  // namespace

void RegisterExtractRoutes(httplib::Server& server, const ExtractLimits& limits,
                           ex::CandidateChooser* chooser) {
  ex::ExtractorOptions options;
  options.chooser = chooser;
  options.limits.max_bytes = limits.max_bytes;
  options.limits.max_pixels = limits.max_pixels;
  auto extractor = std::make_shared<ex::Extractor>(options);

  server.Post("/v1/extractions/taxi-fare",
              [extractor, limits](const httplib::Request& req, httplib::Response& res) {
                Handle<ex::TaxiFareResult>(
                    req, res, limits, [&](const std::string& b) { return extractor->TaxiFare(b); },
                    [](const ex::TaxiFareResult& r) {
                      json out = {{"kind", "taxi_fare"}, {"currency", "KRW"}, {"method", r.method}};
                      PutField(out, "amount", r.amount);
                      out["ocr_text"] = r.ocr_text;
                      out["elapsed_ms"] = static_cast<int64_t>(r.elapsed_ms);
                      return out;
                    });
              });
  server.Post("/v1/extractions/receipt",
              [extractor, limits](const httplib::Request& req, httplib::Response& res) {
                Handle<ex::ReceiptResult>(
                    req, res, limits, [&](const std::string& b) { return extractor->Receipt(b); },
                    [](const ex::ReceiptResult& r) {
                      json out = {{"kind", "receipt"}, {"currency", "KRW"}};
                      PutField(out, "amount", r.amount);
                      PutField(out, "paid_at", r.paid_at);
                      PutField(out, "merchant", r.merchant);
                      PutField(out, "issuer", r.issuer);
                      PutField(out, "approval_number", r.approval_number);
                      out["checks"] = {{"vat_consistent", r.vat_consistent}};
                      out["ocr_text"] = r.ocr_text;
                      out["elapsed_ms"] = static_cast<int64_t>(r.elapsed_ms);
                      return out;
                    });
              });
}

}  // namespace nunchi
