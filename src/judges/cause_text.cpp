#include "judges/cause_text.h"

#include <cmath>

#include "judges/text_util.h"

namespace nunchi::judges {
namespace {

char32_t LastSyllable(std::string_view s) {
  char32_t last = 0;
  for (size_t i = 0; i < s.size();) last = NextCodePoint(s, i);
  return last;
}

// 으로 after a final consonant other than ㄹ, 로 otherwise.
std::string_view Euro(std::string_view word) {
  char32_t cp = LastSyllable(word);
  if (!IsHangulSyllable(cp)) return "로";
  int final = static_cast<int>((cp - 0xAC00) % 28);
  return (final == 0 || final == 8) ? "로" : "으로";
}

std::string WaitPhrase(const WaitInfo& w) {
  auto n = [](double v) { return std::to_string(static_cast<long>(std::lround(v))); };
  switch (w.unit) {
    case WaitInfo::kMinutes:
      if (w.amount >= 60 && std::fmod(w.amount, 60) == 0)
        return "대기 " + n(w.amount / 60) + "시간";
      if (w.amount >= 60) return "대기 " + n(w.amount) + "분";
      return w.amount <= 0 ? "대기 없음" : "대기 " + n(w.amount) + "분";
    case WaitInfo::kTeams:
      return "대기 " + n(w.amount) + "팀";
    case WaitInfo::kPeople:
      return "줄 " + n(w.amount) + "명";
    case WaitInfo::kMeters:
      return "줄 " + n(w.amount) + "m";
    case WaitInfo::kTicket:
      return "대기번호 " + n(w.amount) + "번";
    case WaitInfo::kVehicles:
      return "차량 " + n(w.amount) + "대 놓침";
  }
  return "";
}

std::string_view LevelWord(Level level) {
  switch (level) {
    case Level::kLow:
      return "한산함";
    case Level::kMedium:
      return "다소 붐빔";
    case Level::kHigh:
      return "매우 혼잡";
    case Level::kUnknown:
      return "혼잡도 불분명";
  }
  return "";
}

}  // namespace

std::string_view DefaultCauseKey(Cause cause) {
  switch (cause) {
    case Cause::kEvent:
      return "행사";
    case Cause::kPeakTime:
      return "혼잡 시간대";
    case Cause::kIncident:
      return "운행 장애";
    case Cause::kConstruction:
      return "공사·통제";
    case Cause::kWeather:
      return "날씨";
    case Cause::kOther:
      return "방문객 증가";
    case Cause::kNone:
      return "";
  }
  return "";
}

std::string MakeCauseText(Relevance relevance, Level level, Cause cause, std::string_view key,
                          const std::optional<WaitInfo>& wait) {
  if (relevance == Relevance::kIrrelevant) return "";
  std::string k(key.empty() ? DefaultCauseKey(cause) : key);
  std::string text;
  bool busy = level == Level::kMedium || level == Level::kHigh;
  switch (cause) {
    case Cause::kNone:
      text = std::string(LevelWord(level));
      if (wait) text = WaitPhrase(*wait) + ", " + text;
      break;
    case Cause::kEvent:
      text = busy ? k + " 인파로 " + std::string(level == Level::kHigh ? "혼잡" : "붐빔")
                  : k + " 중에도 " + std::string(LevelWord(level));
      if (wait && busy) text = k + " 대기줄, " + WaitPhrase(*wait);
      break;
    case Cause::kPeakTime:
      text = k + (busy ? " 인파 몰림" : " " + std::string(LevelWord(level)));
      break;
    case Cause::kIncident:
      text = k + std::string(Euro(k)) + (busy ? " 승객 몰림" : " 영향");
      break;
    case Cause::kConstruction:
      text = k + std::string(Euro(k)) + (busy ? " 통행 혼잡" : " 영향");
      break;
    case Cause::kWeather:
      text = k + " 영향으로 " + std::string(LevelWord(level));
      break;
    case Cause::kOther:
      text = k + std::string(Euro(k)) + (busy ? " 혼잡" : " 영향");
      break;
  }
  if (wait && cause != Cause::kNone && cause != Cause::kEvent && busy) {
    std::string longer = text + ", " + WaitPhrase(*wait);
    if (Utf8Length(longer) <= kMaxCauseTextChars) text = longer;
  }
  return Utf8Truncate(text, kMaxCauseTextChars);
}

}  // namespace nunchi::judges
