// GgufInfo: what the benchmark records from a GGUF model file's header —
// general.name, general.architecture and the quantization (from
// general.file_type, else the most common type among the 2-D weight
// tensors), so the execution conditions need not be typed by hand. Reads
// the header only (key-value pairs and tensor infos), never the weights.
// Pure functions; thread-safe.
#pragma once

#include <cstdint>
#include <string>

namespace nunchi::bench {

struct GgufInfo {
  std::string name;          // general.name, "" when absent
  std::string architecture;  // general.architecture, "" when absent
  int file_type = -1;        // general.file_type (llama_ftype), -1 when absent
  std::string quantization;  // e.g. "Q8_0", "F16", "Q4_K_M"; "" when unknown
};

// Reads the header of `path`. False and *error when it is not a GGUF file.
bool ReadGgufInfo(const std::string& path, GgufInfo* info, std::string* error);

// The name of a llama_ftype ("MOSTLY_Q8_0" -> "Q8_0"), "" when unknown.
std::string FileTypeName(int64_t file_type);
// The name of a ggml_type ("Q8_0", "F16"), "" when unknown.
std::string TensorTypeName(int64_t type);

}  // namespace nunchi::bench
