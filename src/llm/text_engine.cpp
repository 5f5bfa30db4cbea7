#include "llm/text_engine.h"

namespace nunchi::llm {

Result<EngineResult> TextEngine::Run(EngineRequest request, LateResultFn on_late) {
  const auto deadline = request.deadline;
  auto future = Submit(std::move(request), std::move(on_late));
  if (deadline != EngineClock::time_point::max() &&
      future.wait_until(deadline) == std::future_status::timeout) {
    return Status(ErrorCode::kDeadlineExceeded, "engine: deadline passed");
  }
  return future.get();
}

}  // namespace nunchi::llm
