// Other-place detection from the shape of a text: numbered exits and gates,
// named sides ("… 쪽은"), named places of a kind ("…역은", "…식당은") and what
// stands next to the spot ("옆에 회전목마는") that the spot's own name and
// description do not name.
#include <algorithm>
#include <string>

#include "judges/rules_scan.h"

namespace nunchi::judges {

using lex::Marker;

namespace {
bool At(std::string_view s, size_t pos, std::string_view w) {
  return pos <= s.size() && s.substr(pos).starts_with(w);
}
}  // namespace

void ScanNumberedPlaces(std::string_view t, const std::string* spot, const CompactText& c,
                        ScanHits* hits) {
  if (!spot) return;
  for (size_t i = 0; i < t.size(); ++i) {
    if (!(t[i] >= '0' && t[i] <= '9') || (i > 0 && t[i - 1] >= '0' && t[i - 1] <= '9')) continue;
    size_t p = i;
    while (p < t.size() && t[p] >= '0' && t[p] <= '9') ++p;
    if (!At(t, p, "번")) continue;
    for (auto noun : {"출구", "게이트", "출국장", "승강장", "홈", "창구", "검색대", "입구",
                      "리프트", "레인", "텐트"}) {
      if (!At(t, p + 3, noun)) continue;
      // Same place when the spot names the same number ("출국장 3번" vs "3번 출국장").
      std::string number(t.substr(i, p + 3 - i));
      if (spot->find(number) == std::string::npos)
        hits->markers.push_back(
            {i, p + 3 + std::string_view(noun).size(), Marker::kOtherPlace, c.clause[i], 1});
    }
  }
}

// "송정 쪽은 한산하대요": a named side or area the spot's own text does not name is
// another place. Sides of the spot itself (앞쪽, 안쪽, 입구 쪽 when the spot names 입구) are not.
void ScanSides(std::string_view t, const std::string* spot, const CompactText& c, ScanHits* hits) {
  if (!spot) return;
  for (size_t p = t.find("쪽"); p != std::string_view::npos; p = t.find("쪽", p + 3)) {
    size_t q = p + 3;
    bool topic = At(t, q, "은") || At(t, q, "엔") || At(t, q, "에는") || At(t, q, "도") ||
                 (At(t, q, "이") && !At(t, q, "이에") && !At(t, q, "이예")) || At(t, q, "으로는") ||
                 At(t, q, "끝은") || At(t, q, "에서는");
    if (!topic || p < 6) continue;
    size_t a = p - 3;
    size_t i = a;
    char32_t last = NextCodePoint(t, i);
    if (!IsHangulSyllable(last) || c.clause[a] != c.clause[p]) continue;
    bool own_side = false;
    for (char32_t s : {U'이', U'앞', U'안', U'뒤', U'위', U'래', U'밑', U'깥', U'밖', U'왼', U'른',
                       U'양', U'한', U'그', U'간', U'속',
                       // "가는 쪽", "들어온 쪽": a direction described by a verb, not a named place
                       U'는', U'던', U'된', U'온', U'운'})
      if (last == s) own_side = true;
    if (own_side) continue;
    size_t b = a >= 3 ? a - 3 : a;
    std::string noun(t.substr(b, p - b));
    if (spot->find(noun) != std::string::npos) continue;
    hits->markers.push_back({b, q, Marker::kOtherPlace, c.clause[p], 2});
  }
}

// "해운대역은 조금 붐벼요": a named place of a kind (역, 정류장, 식당 …) with a topic
// particle that the spot's own text does not name is another place. The bare kind ("매장은")
// refers to the spot.
void ScanNamedPlaces(std::string_view t, const std::string* spot, const CompactText& c,
                     ScanHits* hits) {
  if (!spot) return;
  static constexpr std::string_view kKinds[] = {
      "역", "정류장", "센터", "공원", "광장", "상가", "식당", "카페", "매장", "출구", "입구",
      "게이트", "승강장", "관", "길", "홀", "존", "구역", "코너", "편의점", "터미널", "화장실",
      "리프트", "개찰구", "시장", "백화점", "몰", "학교", "마트", "극장", "박물관", "해변", "지점",
      "경기장", "수영장", "매표소", "국제선", "국내선", "대교", "로터리", "쇼룸", "지하", "터미널",
      "출국장", "병원", "채혈실", "진료실", "검사실", "대여점", "빵집", "시험장", "경찰청",
      "승차장", "탑승장",
      // Issue 13, second round: kinds the written sets name as the other place.
      "약국", "부스", "전망대", "잔디밭", "등산로", "산책로", "발급기", "승차홈", "국수집",
      "식당가", "푸드코트", "주차장", "캐빈", "키오스크",
      // Third round (blind-4..6): shops, stairs and tills named as the other place.
      "숍", "샵", "계단", "계산대",
      // Fifth round (spent blind-16..18): windows and departments of an office or a
      // hospital, rooms, pools, slopes and resorts named as the other place.
      "창구", "검진실", "접종실", "외과", "내과", "약제과", "원무과", "소아과", "치과", "전시장",
      "전시실", "풀", "탕", "슬로프", "리조트", "스키장", "구이터", "놀이터",
      // Twentieth round (spent blind-59..61): rooms, floors, courts, trucks, printers and
      // corridors of a campus named as the other place (not 팀: "열 팀은" is a count).
      "실", "층", "코트", "트럭", "통로", "프린터", "복사", "매점", "인도장", "무대", "산책로"};
  // Kinds that are as often a part of the spot as another place ("예약 창구" of a rental
  // shop, "큰 풀" of a water park): another one only when the spot is itself one of that
  // kind ("일반 창구는" when the spot is the 경로 우대 창구).
  static constexpr std::string_view kPartKinds[] = {"창구", "풀", "탕", "검진실", "접종실"};
  static constexpr std::string_view kLeading[] = {"지금", "현재", "방금", "오늘", "여기",  "근데",
                                                  "진짜", "완전", "저희", "우리", "그리고"};
  // Walk the topic particles (은/는, "도" of "1층 약국도 …", and "…인데" saying where the
  // writer is) and look back for a kind of place right before them.
  for (size_t q = 0; q + 3 <= t.size(); q += 3) {
    q = std::min({t.find("은", q), t.find("는", q), t.find("인데", q), t.find("도", q)});
    if (q == std::string_view::npos) break;
    if (At(t, q, "는") && At(t, q + 3, "데")) continue;  // 는데/은데: a connective
    if (At(t, q, "은") && At(t, q + 3, "데")) continue;
    size_t end = q;
    // "결핵검진실 앞에는", "정형외과 앞은", "3층 쪽은": the place before its side.
    if (At(t, q, "는") && end >= 3 && t.substr(end - 3, 3) == "에") end -= 3;
    if (end >= 3 && (t.substr(end - 3, 3) == "쪽" || t.substr(end - 3, 3) == "앞" ||
                     t.substr(end - 3, 3) == "안"))
      end -= 3;
    for (auto kind : kKinds) {
      if (end < kind.size() || t.substr(end - kind.size(), kind.size()) != kind) continue;
      if (std::find(std::begin(kPartKinds), std::end(kPartKinds), kind) != std::end(kPartKinds) &&
          spot->find(kind) == std::string::npos)
        break;
      size_t p = end - kind.size();
      // The modifier: syllables before the kind in the same clause, at most four.
      size_t start = p;
      for (int n = 0; n < 4 && start >= 3 && c.clause[start - 3] == c.clause[p]; ++n) {
        size_t probe = start - 3;
        if (!IsHangulSyllable(NextCodePoint(t, probe))) break;
        start -= 3;
      }
      // "1층 매점은", "777 정류장도": the number of a floor or a stop belongs to the name. A
      // bare "2층은" or "2구역은" is as often a part of the spot as another place.
      size_t named_from = start;
      while (start > 0 && c.clause[start - 1] == c.clause[p] && t[start - 1] >= '0' &&
             t[start - 1] <= '9')
        --start;
      std::string_view after_number = t.substr(named_from, end - named_from);
      if (start < named_from && (after_number == "층" || after_number == "구역")) break;
      std::string_view mod = t.substr(start, p - start);
      for (bool again = true; again;) {
        again = false;
        for (auto lead : kLeading) {
          size_t at = mod.rfind(lead);  // "…빠져서 지금 광장은": only what follows "지금"
          if (at != std::string_view::npos && (at + lead.size()) % 3 == 0)
            mod.remove_prefix(at + lead.size()), again = true;
        }
      }
      if (mod.empty()) break;
      // "사람 많은 매장은": a relative clause describes the place, it does not name another.
      size_t last_at = mod.size() - 3;
      char32_t last = NextCodePoint(mod, last_at);
      bool adnominal = false;
      for (char32_t e :
           {U'는', U'은', U'던', U'한', U'된', U'인', U'운', U'난', U'린', U'긴', U'빈'})
        adnominal = adnominal || last == e;
      if (adnominal) break;
      std::string_view tail = mod.size() > 6 ? mod.substr(mod.size() - 6) : mod;
      std::string named = std::string(tail) + std::string(kind);
      // "동편 인도장은" for the spot "동편 면세품 인도장": its name has both the words (a kind of
      // one syllable, 역 or 관, is too often part of another word: 구역).
      bool spots_words = kind.size() >= 6 && spot->find(tail) != std::string::npos &&
                         spot->find(kind) != std::string::npos;
      if (spot->find(named) == std::string::npos && !spots_words)
        hits->markers.push_back({start, q + 3, Marker::kOtherPlace, c.clause[p], 3});
      break;
    }
  }
}

// "옆에 회전목마는 바로탐", "바로 옆 베이글집은 줄 없어요": what stands next to the spot,
// named with a topic particle (은/는, or 도 after two syllables), is another place, unless
// the spot's text names it or it is a part of the spot (옆자리, 옆 사람, 옆 테이블).
void ScanBeside(std::string_view t, const std::string* spot, const CompactText& c, ScanHits* hits) {
  if (!spot) return;
  for (size_t p = t.find("옆"); p != std::string_view::npos; p = t.find("옆", p + 3)) {
    size_t q = p + 3;
    if (At(t, q, "에서") || At(t, q, "으로") || At(t, q, "구리")) continue;  // beside, not a place
    for (std::string_view glue : {"에있는", "에있던", "에", "쪽"})
      if (At(t, q, glue)) {
        q += glue.size();
        break;
      }
    // "옆은", "옆쪽엔": 옆 itself is the topic, no place named.
    if (At(t, q, "은") || At(t, q, "는") || At(t, q, "도") || At(t, q, "엔")) continue;
    // The noun: up to six syllables (or ASCII letters) in the clause of 옆, up to a particle
    // (은/는 after one syllable, 도 after two: "인도" is a word).
    size_t i = q;
    int syllables = 0;
    bool found = false;
    while (i < t.size() && c.clause[i] == c.clause[p] && syllables <= 6) {
      size_t next = i;
      char32_t cp = NextCodePoint(t, next);
      bool topic = syllables >= 1 && (cp == U'은' || cp == U'는');
      if (topic && At(t, next, "데")) break;  // 는데/은데: a connective, nothing named
      if (topic || (cp == U'도' && syllables >= 2)) {
        found = true;
        break;
      }
      bool letter = IsHangulSyllable(cp) || (cp >= 'a' && cp <= 'z');
      if (!letter) break;
      ++syllables;
      i = next;
    }
    if (!found || (syllables < 2 && !(i > q && t[q] >= 'a' && t[q] <= 'z'))) continue;
    std::string noun(t.substr(q, i - q));
    if (spot->find(noun) != std::string::npos) continue;
    bool own_part = false;  // the writer's neighbours and seats are the spot's
    for (std::string_view part : {"자리", "좌석", "테이블", "사람", "줄", "친구", "분들", "애들",
                                  "팀들", "라인", "창구", "칸"})
      own_part = own_part || noun.starts_with(part);
    if (own_part) continue;
    // "옆에 줄 서 있는 분들은": a verb before the particle describes, it names nothing.
    bool verb = false;
    size_t last_at = i - 3;
    char32_t last = static_cast<unsigned char>(t[i - 1]) >= 0x80 ? NextCodePoint(t, last_at) : 0;
    for (char32_t v : {U'하', U'리', U'있', U'없', U'되', U'가', U'오', U'보', U'서', U'주', U'지',
                       U'먹', U'타', U'받', U'들', U'앉', U'같'})
      verb = verb || last == v;
    if (verb) continue;
    hits->markers.push_back({p, i + 3, Marker::kOtherPlace, c.clause[p], 0});
  }
}

}  // namespace nunchi::judges
