// libFuzzer target: the model-output parser (llm/output.h) on arbitrary
// answers for three target ids. It must never crash and must answer one
// result per id.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "llm/output.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace nunchi;
  static const std::vector<std::string> kIds = {"#1", "#2", "#7"};
  static const llm::JudgmentStamp kStamp{"fuzz", "m", "judge-v1"};
  static llm::OutputCounters counters;
  std::string_view answer(reinterpret_cast<const char*>(data), size);
  for (bool truncate : {false, true}) {
    JudgeOutput out = llm::ParseJudgeOutput(answer, kIds, kStamp, &counters, {truncate});
    if (out.size() != kIds.size()) std::abort();
  }
  return 0;
}
