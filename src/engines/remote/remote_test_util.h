// Test-only helpers shared by the remote judge tests: a small task and
// options pointing at a FakeOpenAiServer.
#pragma once

#include "engines/remote/fake_openai_server.h"
#include "engines/remote/remote_judge.h"

namespace nunchi::remote::testing {

inline Signal MakeSignal(const std::string& id, const std::string& author, int minute,
                         const std::string& text) {
  std::string t =
      "2026-11-29T14:" + std::string(minute < 10 ? "0" : "") + std::to_string(minute) + ":00+09:00";
  return Signal{id, author, ParseTimestamp(t).value(), text};
}

// A post and two comments; targets #2 and #3 (the comments).
inline JudgeTask MakeTask(std::chrono::milliseconds budget = std::chrono::seconds(10)) {
  JudgeTask task;
  task.spot = {"s1", "성수 팝업거리", "팝업스토어 앞 보행로"};
  task.bundle.post_id = "p1";
  task.bundle.post = MakeSignal("p1", "u1", 2, "팝업 오픈런 줄이 골목 끝까지");
  task.bundle.comments = {MakeSignal("c1", "u2", 5, "끝이 안 보여요"),
                          MakeSignal("c2", "u3", 6, "근처 주차장은 널널해요")};
  task.targets = {1, 2};
  task.analyzed_at = ParseTimestamp("2026-11-29T14:10:00+09:00")->ms;
  task.deadline = Clock::now() + budget;
  task.request_id = "r1";
  return task;
}

inline const char* kGoodAnswer =
    R"({"#2":{"r":"RELEVANT","l":"HIGH","c":"EVENT","t":"팝업 오픈런 대기줄"},"#3":{"r":"IRRELEVANT"}})";

inline RemoteOptions OptionsFor(const FakeOpenAiServer& server, bool stream = false) {
  RemoteOptions o;
  o.name = "fake";
  o.base_url = server.base_url();
  o.model = "fake-model";
  o.stream = stream;
  o.timeout = std::chrono::seconds(5);
  o.deadline_margin = std::chrono::milliseconds(0);
  o.backoff_base = std::chrono::milliseconds(10);
  o.backoff_max = std::chrono::milliseconds(50);
  return o;
}

inline std::unique_ptr<RemoteJudge> MakeJudge(const RemoteOptions& o) {
  auto judge = RemoteJudge::Create(o);
  if (!judge.ok()) return nullptr;
  return std::move(judge).value();
}

}  // namespace nunchi::remote::testing
