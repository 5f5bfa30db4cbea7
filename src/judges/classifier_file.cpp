#include "judges/classifier_file.h"

#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>

namespace nunchi::judges {
namespace {

constexpr char kMagic[] = "NUNCHICLF1";
constexpr size_t kMagicLen = sizeof(kMagic) - 1;

template <typename T>
void Put(std::string& out, const T& v) {
  out.append(reinterpret_cast<const char*>(&v), sizeof(T));
}
template <typename T>
void PutVec(std::string& out, const std::vector<T>& v) {
  Put<uint64_t>(out, v.size());
  out.append(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(T));
}

struct Reader {
  const std::string& s;
  size_t at = 0;
  template <typename T>
  bool Get(T* v) {
    if (s.size() - at < sizeof(T)) return false;
    std::memcpy(v, s.data() + at, sizeof(T));
    at += sizeof(T);
    return true;
  }
  template <typename T>
  bool GetVec(std::vector<T>* v, uint64_t max) {
    uint64_t n;
    if (!Get(&n) || n > max || (s.size() - at) / sizeof(T) < n) return false;
    v->resize(n);
    std::memcpy(v->data(), s.data() + at, n * sizeof(T));
    at += n * sizeof(T);
    return true;
  }
};

}  // namespace

Status WriteClassifierModel(const ClassifierModel& m, const std::string& path) {
  std::string out(kMagic, kMagicLen);
  Put<int32_t>(out, m.features.char_max);
  Put<uint8_t>(out, m.features.word_bigrams ? 1 : 0);
  Put(out, m.calibration.rel_a);
  Put(out, m.calibration.rel_b);
  Put(out, m.calibration.lvl_a);
  Put(out, m.calibration.lvl_b);
  Put<uint8_t>(out, m.calibration.fitted ? 1 : 0);
  for (float b : m.bias) Put(out, b);
  PutVec(out, m.feature_ids);
  PutVec(out, m.idf);
  PutVec(out, m.weights);
  const std::string tmp = path + ".tmp";
  {
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    f.write(out.data(), static_cast<std::streamsize>(out.size()));
    if (!f) return Status(ErrorCode::kIo, "cannot write " + tmp);
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) return Status(ErrorCode::kIo, "cannot rename " + tmp + ": " + ec.message());
  return Status::Ok();
}

Result<ClassifierModel> ReadClassifierModel(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return Status(ErrorCode::kNotFound, "cannot open " + path);
  std::string s((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  auto bad = [&](const char* what) {
    return Status(ErrorCode::kInvalidArgument, path + ": not a classifier model (" + what + ")");
  };
  if (s.compare(0, kMagicLen, kMagic) != 0) return bad("magic");
  Reader r{s, kMagicLen};
  ClassifierModel m;
  int32_t char_max;
  uint8_t bigrams, fitted;
  if (!r.Get(&char_max) || !r.Get(&bigrams) || !r.Get(&m.calibration.rel_a) ||
      !r.Get(&m.calibration.rel_b) || !r.Get(&m.calibration.lvl_a) ||
      !r.Get(&m.calibration.lvl_b) || !r.Get(&fitted))
    return bad("header");
  if (char_max < 1 || char_max > 5) return bad("char_max");
  m.features.char_max = char_max;
  m.features.word_bigrams = bigrams != 0;
  m.calibration.fitted = fitted != 0;
  for (float& b : m.bias)
    if (!r.Get(&b)) return bad("bias");
  constexpr uint64_t kMax = 1ull << 28;
  if (!r.GetVec(&m.feature_ids, kMax) || !r.GetVec(&m.idf, kMax) || !r.GetVec(&m.weights, kMax))
    return bad("tables");
  if (m.idf.size() != m.feature_ids.size() || m.weights.size() != m.feature_ids.size() * kColumns)
    return bad("sizes");
  if (r.at != s.size()) return bad("trailing bytes");
  return m;
}

}  // namespace nunchi::judges
