#include "bench/gguf_info.h"

#include <fstream>
#include <map>

namespace nunchi::bench {
namespace {

// GGUF value types.
enum : uint32_t {
  kU8,
  kI8,
  kU16,
  kI16,
  kU32,
  kI32,
  kF32,
  kBool,
  kString,
  kArray,
  kU64,
  kI64,
  kF64
};

class Reader {
 public:
  explicit Reader(const std::string& path) : f_(path, std::ios::binary) {}
  bool ok() const { return static_cast<bool>(f_); }
  template <typename T>
  T Get() {
    T v{};
    f_.read(reinterpret_cast<char*>(&v), sizeof v);
    return v;
  }
  std::string String(size_t keep = 1 << 16) {
    const auto n = Get<uint64_t>();
    if (!f_ || n > keep) {
      f_.seekg(static_cast<std::streamoff>(n), std::ios::cur);
      return {};
    }
    std::string s(n, '\0');
    f_.read(s.data(), static_cast<std::streamsize>(n));
    return s;
  }
  void Skip(uint32_t type, int depth = 0) {
    static const std::map<uint32_t, int> kSize = {{kU8, 1},  {kI8, 1},  {kU16, 2}, {kI16, 2},
                                                  {kU32, 4}, {kI32, 4}, {kF32, 4}, {kBool, 1},
                                                  {kU64, 8}, {kI64, 8}, {kF64, 8}};
    if (type == kString) {
      String(0);
    } else if (type == kArray && depth < 4) {
      const auto elem = Get<uint32_t>();
      const auto n = Get<uint64_t>();
      if (auto it = kSize.find(elem); it != kSize.end())
        f_.seekg(static_cast<std::streamoff>(n * static_cast<uint64_t>(it->second)), std::ios::cur);
      else
        for (uint64_t i = 0; i < n && f_; ++i) Skip(elem, depth + 1);
    } else if (auto it = kSize.find(type); it != kSize.end()) {
      f_.seekg(it->second, std::ios::cur);
    } else {
      f_.setstate(std::ios::failbit);  // unknown type: the rest cannot be read
    }
  }
  // An integer value of any integer type.
  int64_t Integer(uint32_t type) {
    switch (type) {
      case kU8:
        return Get<uint8_t>();
      case kI8:
        return Get<int8_t>();
      case kU16:
        return Get<uint16_t>();
      case kI16:
        return Get<int16_t>();
      case kU32:
        return Get<uint32_t>();
      case kI32:
        return Get<int32_t>();
      case kU64:
        return static_cast<int64_t>(Get<uint64_t>());
      case kI64:
        return Get<int64_t>();
      default:
        Skip(type);
        return -1;
    }
  }

 private:
  std::ifstream f_;
};

}  // namespace

std::string FileTypeName(int64_t t) {
  static const std::map<int64_t, const char*> kNames = {
      {0, "F32"},      {1, "F16"},      {2, "Q4_0"},       {3, "Q4_1"},    {7, "Q8_0"},
      {8, "Q5_0"},     {9, "Q5_1"},     {10, "Q2_K"},      {11, "Q3_K_S"}, {12, "Q3_K_M"},
      {13, "Q3_K_L"},  {14, "Q4_K_S"},  {15, "Q4_K_M"},    {16, "Q5_K_S"}, {17, "Q5_K_M"},
      {18, "Q6_K"},    {19, "IQ2_XXS"}, {20, "IQ2_XS"},    {21, "Q2_K_S"}, {22, "IQ3_XS"},
      {23, "IQ3_XXS"}, {24, "IQ1_S"},   {25, "IQ4_NL"},    {26, "IQ3_S"},  {27, "IQ3_M"},
      {28, "IQ2_S"},   {29, "IQ2_M"},   {30, "IQ4_XS"},    {31, "IQ1_M"},  {32, "BF16"},
      {36, "TQ1_0"},   {37, "TQ2_0"},   {38, "MXFP4_MOE"}, {39, "NVFP4"},  {40, "Q1_0"},
      {41, "Q2_0"}};
  auto it = kNames.find(t);
  return it == kNames.end() ? "" : it->second;
}

std::string TensorTypeName(int64_t t) {
  static const std::map<int64_t, const char*> kNames = {
      {0, "F32"},     {1, "F16"},      {2, "Q4_0"},   {3, "Q4_1"},    {6, "Q5_0"},
      {7, "Q5_1"},    {8, "Q8_0"},     {9, "Q8_1"},   {10, "Q2_K"},   {11, "Q3_K"},
      {12, "Q4_K"},   {13, "Q5_K"},    {14, "Q6_K"},  {15, "Q8_K"},   {16, "IQ2_XXS"},
      {17, "IQ2_XS"}, {18, "IQ3_XXS"}, {19, "IQ1_S"}, {20, "IQ4_NL"}, {21, "IQ3_S"},
      {22, "IQ2_S"},  {23, "IQ4_XS"},  {24, "I8"},    {25, "I16"},    {26, "I32"},
      {27, "I64"},    {28, "F64"},     {29, "IQ1_M"}, {30, "BF16"},   {34, "TQ1_0"},
      {35, "TQ2_0"},  {39, "MXFP4"},   {40, "NVFP4"}, {41, "Q1_0"},   {42, "Q2_0"}};
  auto it = kNames.find(t);
  return it == kNames.end() ? "" : it->second;
}

bool ReadGgufInfo(const std::string& path, GgufInfo* info, std::string* error) {
  *info = {};
  Reader r(path);
  const auto magic = r.Get<uint32_t>();  // "GGUF", little-endian
  const auto version = r.Get<uint32_t>();
  if (!r.ok() || magic != 0x46554747u || version < 2) {
    *error = path + " is not a GGUF file (version 2 or later)";
    return false;
  }
  const auto n_tensors = r.Get<uint64_t>();
  const auto n_kv = r.Get<uint64_t>();
  for (uint64_t i = 0; i < n_kv && r.ok(); ++i) {
    const std::string key = r.String();
    const auto type = r.Get<uint32_t>();
    if (key == "general.name" && type == kString)
      info->name = r.String();
    else if (key == "general.architecture" && type == kString)
      info->architecture = r.String();
    else if (key == "general.file_type")
      info->file_type = static_cast<int>(r.Integer(type));
    else
      r.Skip(type);
  }
  info->quantization = FileTypeName(info->file_type);
  // Without a file type: the type holding most elements among the 2-D tensors.
  std::map<std::string, double> elements;
  for (uint64_t i = 0; i < n_tensors && r.ok() && info->quantization.empty(); ++i) {
    r.String();
    const auto dims = r.Get<uint32_t>();
    double n = 1;
    for (uint32_t d = 0; d < dims && d < 8; ++d) n *= static_cast<double>(r.Get<uint64_t>());
    const auto type = r.Get<uint32_t>();
    r.Get<uint64_t>();  // offset
    if (dims >= 2) elements[TensorTypeName(type)] += n;
  }
  double most = 0;
  for (const auto& [name, n] : elements)
    if (!name.empty() && n > most) most = n, info->quantization = name;
  if (!r.ok() && info->quantization.empty() && info->name.empty()) {
    *error = "cannot read the GGUF header of " + path;
    return false;
  }
  return true;
}

}  // namespace nunchi::bench
