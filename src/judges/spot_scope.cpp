// Spot descriptions' exclusion clauses (spot_scope.h).
#include "judges/spot_scope.h"

#include <algorithm>
#include <initializer_list>
#include <string_view>

#include "judges/text_util.h"

namespace nunchi::judges {
namespace {

// Where an exclusion clause's list of places starts: after the last sentence or clause end
// before the verb, then after the last comma-separated part that still says what the spot
// includes ("…포함, 상부 전망대, 정상 카페는 별도": the list is the two after 포함).
size_t ListStart(std::string_view d, size_t verb) {
  size_t start = 0;
  for (std::string_view delim : {".", "(", "며 ", "며,", "고 ", "고,", ";", ":"}) {
    size_t at = d.rfind(delim, verb == 0 ? 0 : verb - 1);
    if (at != std::string_view::npos && at < verb) start = std::max(start, at + delim.size());
  }
  for (size_t comma = d.find(',', start); comma != std::string_view::npos && comma < verb;
       comma = d.find(',', comma + 1)) {
    std::string_view part = d.substr(start, comma - start);
    for (std::string_view says : {"포함", "해당", "까지", "이며", "이고", "만 ", "이다", "한다"})
      if (part.find(says) != std::string_view::npos) {
        start = comma + 1;
        break;
      }
  }
  return start;
}

// "옆 방파제는 " -> "옆 방파제": the list without its trailing particle and spaces.
std::string_view TrimList(std::string_view s) {
  while (!s.empty() && (s.back() == ' ' || s.front() == ' ')) {
    if (s.back() == ' ') s.remove_suffix(1);
    if (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  }
  for (std::string_view particle : {"은", "는", "이", "가", "도", "을", "를"})
    if (s.ends_with(particle)) {
      s.remove_suffix(particle.size());
      break;
    }
  return s;
}

// The items of a list: split at 과/와 before a space, commas, middle dots, 및, 그리고.
std::vector<std::string_view> Items(std::string_view list) {
  std::vector<std::string_view> out;
  size_t from = 0;
  for (size_t i = 0; i <= list.size();) {
    size_t skip = 0;
    if (i == list.size()) {
      skip = 1;
    } else {
      for (std::string_view sep : {"과 ", "와 ", ",", "·", " 및 ", " 그리고 ", "/"})
        if (list.substr(i).starts_with(sep)) {
          skip = sep.size();
          break;
        }
    }
    if (skip) {
      out.push_back(list.substr(from, i - from));
      i += skip;
      from = i;
    } else {
      ++i;
    }
  }
  return out;
}

// "ATM", "KTX": a name in Latin letters, two or more.
bool IsLatinWord(std::string_view w) {
  return w.size() >= 2 && std::all_of(w.begin(), w.end(), [](char ch) {
           return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z');
         });
}

bool Generic(std::string_view w) {
  for (std::string_view g : {"곳", "구역", "쪽", "공간", "주변", "대기줄", "줄", "대기", "사람",
                             "좌석", "자리", "안", "밖", "앞", "시설", "장소"})
    if (w == g) return true;
  return false;
}

}  // namespace

SpotScope MakeSpotScope(const SpotInfo& spot) {
  SpotScope scope;
  std::string_view d = spot.description;
  std::string included;  // the description with its exclusion clauses cut out
  std::vector<std::string_view> candidates;
  size_t kept_from = 0;
  for (size_t pos = 0; pos < d.size();) {
    size_t verb = std::string_view::npos, verb_len = 0;
    for (std::string_view v : {"포함하지 않", "포함되지 않", "다른 곳", "제외", "별도"}) {
      size_t at = d.find(v, pos);
      if (at < verb) verb = at, verb_len = v.size();
    }
    if (verb == std::string_view::npos) break;
    size_t start = std::max(ListStart(d, verb), kept_from);
    for (std::string_view item : Items(TrimList(d.substr(start, verb - start)))) {
      size_t space = item.find_last_of(' ');
      std::string_view last = space == std::string_view::npos ? item : item.substr(space + 1);
      candidates.push_back(last);
      // "ATM 코너": a name in Latin letters before the last word names the place too.
      if (space != std::string_view::npos) {
        std::string_view head = item.substr(0, space);
        size_t before = head.find_last_of(' ');
        std::string_view word = before == std::string_view::npos ? head : head.substr(before + 1);
        if (IsLatinWord(word)) candidates.push_back(word);
      }
    }
    included.append(d.substr(kept_from, start - kept_from));
    kept_from = verb + verb_len;
    pos = kept_from;
  }
  included.append(d.substr(kept_from));
  scope.included_compact = MakeCompact(spot.name + " " + included).text;
  for (std::string_view c : candidates) {
    std::string noun = MakeCompact(c).text;
    size_t syllables = 0;
    for (size_t i = 0; i < noun.size();) syllables += IsHangulSyllable(NextCodePoint(noun, i));
    if ((syllables < 2 && !IsLatinWord(noun)) || Generic(noun)) continue;
    if (scope.included_compact.find(noun) != std::string::npos) continue;  // the spot's too
    if (std::find(scope.excluded.begin(), scope.excluded.end(), noun) == scope.excluded.end())
      scope.excluded.push_back(noun);
  }
  return scope;
}

}  // namespace nunchi::judges
