// The Korean rule lexicon as data: level phrases (with what they mean when
// negated), markers (irony, expectation, past/future, another place,
// injection, adverts, agreement replies ...) and cause words with the words a
// cause text uses. Patterns are in the compact form of text_util.h: no
// whitespace, ASCII lower-cased, so spacing errors ("안붐벼요") match too.
// Compile-time constants; safe from any thread.
#pragma once

#include <string_view>

#include "domain/labels.h"

namespace nunchi::judges::lex {

struct LevelCue {
  std::string_view pat;
  Level level;
  float weight;
  Level negated;  // meaning when followed by 지 않/진 않 or preceded by 안
};

enum class Marker : unsigned char {
  kExpect,  // "…줄 알았는데", "…다더니": the cue before it was an expectation
  kIrony,  // "^^", "는 개뿔", "농담이고": a quiet word is sarcasm when crowd evidence exists
  kPast,   // 어제, 지난주, 저번에 …
  kFuture,      // 내일, 주말엔, 이따 …
  kFutureVerb,  // 겠죠, 을 거예요: a guess about later, even "today"
  kNow,         // 지금, 현재, 방금
  kCompare,     // 보다, 처럼: "어제보다 많아요" is about now
  kInjection,   // text that tries to instruct the judge
  kAd,          // links, adverts, spam
  kOtherPlace,  // 옆 카페, 주차장, 건너편 …: the clause is about another place
  kElsewhere,   // 거긴, 그쪽, 대신, "…로 갔더니": the whole text points somewhere else
  kArrival,     // "가는 중", "올릴게요": no report yet
  kReaction,    // 헐, 대박, 부럽다: no information
  kAgree,       // 저도요, 222, 여기도 똑같아요: meaning comes from the parent
  kNotAgree,    // "저 도착", "나도 가고 싶다": looks like agreement but is not
};

struct MarkerCue {
  std::string_view pat;
  Marker kind;
};

struct CauseCue {
  std::string_view pat;
  Cause cause;
  std::string_view display;  // words for the cause text
};

inline constexpr Level L = Level::kLow, M = Level::kMedium, H = Level::kHigh, U = Level::kUnknown;

// clang-format off
inline constexpr LevelCue kLevelCues[] = {
    // LOW
    {"한산", L, 1, M}, {"한가", L, 1, M}, {"널널", L, 1.2, M}, {"널럴", L, 1, M}, {"텅텅", L, 1.2, M},
    {"텅비", L, 1.2, M}, {"텅빈", L, 1, M}, {"여유롭", L, 1, M}, {"여유로", L, 1, M}, {"여유있", L, 1, M},
    {"여유가있", L, 1, M}, {"여유넘", L, 1, M}, {"완전여유", L, 1, M}, {"한적", L, 1, M}, {"쾌적", L, 1, M},
    {"조용", L, 0.6, M}, {"바로입장", L, 1.2, M}, {"바로들어", L, 1.1, M}, {"바로탔", L, 1.1, M},
    {"바로탑승", L, 1.1, M}, {"바로앉", L, 1.1, M}, {"바로주문", L, 1, M}, {"바로통과", L, 1, M},
    {"바로탈수", L, 1, M}, {"줄없", L, 1.3, M}, {"줄이없", L, 1.3, M}, {"줄도없", L, 1.3, M},
    {"줄하나도없", L, 1.3, M}, {"줄한명도없", L, 1.3, M}, {"대기없", L, 1.3, M}, {"대기가없", L, 1.3, M},
    {"대기줄없", L, 1.3, M}, {"웨이팅없", L, 1.3, M}, {"웨이팅0", L, 1.3, H}, {"대기0", L, 1.3, H},
    {"기다림없", L, 1.3, M}, {"기다릴필요없", L, 1.3, M}, {"기다리지않", L, 1.2, H}, {"안기다", L, 1.2, H},
    {"사람없", L, 1.2, M}, {"사람이없", L, 1.2, M}, {"사람도없", L, 1.2, M}, {"사람거의없", L, 1.3, M},
    {"거의없", L, 1, M}, {"별로없", L, 1, M}, {"한명도없", L, 1.2, M}, {"한대도없", L, 1.1, M}, {"아무도없", L, 1.2, M},
    {"몇명없", L, 1.1, M}, {"사람몇명", L, 0.8, M}, {"자리많", L, 1.1, H}, {"자리가많", L, 1.1, H},
    {"자리넉넉", L, 1.1, H}, {"자리여유", L, 1.1, H}, {"빈자리많", L, 1.1, H}, {"좌석많", L, 1, H},
    {"좌석여유", L, 1, H}, {"자리널", L, 1.1, H}, {"빈자리가많", L, 1.1, H}, {"안붐", L, 1.3, H},
    {"안밀", L, 1.1, H}, {"안막혀", L, 1.1, H}, {"안막히", L, 1.1, H}, {"안막힘", L, 1.1, H}, {"안복잡", L, 1.2, H},
    {"안많", L, 1.2, H}, {"안혼잡", L, 1.2, H}, {"붐비지않", L, 1.3, H}, {"붐비진않", L, 1.3, H},
    {"붐비지도않", L, 1.3, H}, {"복잡하지않", L, 1.2, H}, {"혼잡하지않", L, 1.2, H}, {"많지않", L, 1.2, H},
    {"많진않", L, 1.1, H}, {"많지도않", L, 1.2, H}, {"줄안서", L, 1.2, H}, {"줄안섰", L, 1.2, H},
    {"줄거의안", L, 1.2, H}, {"스무스", L, 1, M}, {"막힘없", L, 1, M}, {"전세", L, 0.9, M}, {"사람적", L, 1.1, H},
    {"사람이적", L, 1.1, H}, {"적은편", L, 0.9, M}, {"널렸", L, 1, H}, {"거의비", L, 1.1, M}, {"비어있", L, 1, M},
    {"텅텅비", L, 1.2, M}, {"없다시피", L, 1.1, M}, {"붐빔없", L, 1.2, M}, {"한명도안", L, 1.1, H},
    {"휑", L, 1, M}, {"썰렁", L, 1, M}, {"한적한", L, 1, M}, {"사람안보", L, 1.1, H}, {"한두명", L, 0.9, M},
    {"두세명", L, 0.8, M}, {"줄짧", M, 0.9, H},
    // Twenty-second round (spent blind-66): "줄이 길었는데 지금은 짧아요".
    {"줄이짧", M, 0.9, H}, {"줄은짧", M, 0.9, H}, {"지금은짧", M, 0.9, H},
    // Fifth round (spent blind-13/14): cleared altogether, seats to spare. "좀 풀렸" stays
    // MEDIUM (풀렸 below); "다 풀렸/다 풀림" is LOW 2 of 2 in the written files, "꽤 남" 5 of 5.
    {"다풀렸", L, 1.3, M}, {"다풀림", L, 1.3, M}, {"꽤남", L, 1.2, M},
    // Double negation: "대기 없는 데가 없음" is a wait everywhere (blind-16, spent).
    {"없는데가없", H, 1.6, U}, {"없는곳이없", H, 1.6, U}, {"없는데없", H, 1.6, U},
    {"아무도못타", H, 1.4, U}, {"아무도못탐", H, 1.4, U},
    // Sixth round (spent blind-19..21; counts over the 28 written files and those three):
    // walked in (LOW 12 of 12), "busy but not pushing" (MEDIUM 3 of 3), "rather many".
    {"걸어들어", L, 1.3, M}, {"그냥걸어", L, 1.3, M}, {"걍걸어", L, 1.3, M},
    {"밀리진않", M, 1.4, U}, {"많은편", M, 1.1, U},
    // MEDIUM
    {"적당", M, 1.1, U}, {"보통", M, 0.8, U}, {"북적", M, 0.9, L}, {"약간붐", M, 1.2, L}, {"조금붐", M, 1.2, L},
    {"좀붐", M, 1.2, L}, {"살짝붐", M, 1.2, L}, {"약간북적", M, 1.2, L}, {"살짝북적", M, 1.2, L},
    {"조금북적", M, 1.2, L}, {"좀북적", M, 1.2, L}, {"사람좀있", M, 1.1, L}, {"사람꽤있", M, 1, L},
    {"사람제법", M, 1, L}, {"사람좀많", M, 0.9, L}, {"줄조금", M, 1, L}, {"줄좀있", M, 1, L}, {"짧은줄", M, 1, L},
    {"금방빠", M, 1, L}, {"회전빨", M, 0.9, L}, {"회전이빨", M, 0.9, L}, {"자리몇개", M, 1, L},
    {"자리거의찼", M, 1, L}, {"반정도", M, 0.9, L}, {"좀밀리", M, 1, L}, {"조금밀", M, 1, L}, {"약간밀", M, 1, L},
    {"무난", M, 0.9, L}, {"그럭저럭", M, 0.9, L}, {"평소정도", M, 0.9, L}, {"평소랑비슷", M, 0.9, L},
    {"평소수준", M, 0.9, L}, {"조금기다", M, 1, L}, {"좀기다", M, 1, L}, {"살짝웨이팅", M, 1.1, L},
    {"약간웨이팅", M, 1.1, L}, {"조금웨이팅", M, 1.1, L}, {"웨이팅조금", M, 1.1, L}, {"대기조금", M, 1.1, L},
    {"약간기다", M, 1, L}, {"복잡한편", M, 1, L}, {"약간혼잡", M, 1.2, L}, {"다소혼잡", M, 1.2, L},
    {"조금혼잡", M, 1.2, L}, {"다소붐", M, 1.2, L}, {"좀복잡", M, 1, L}, {"조금복잡", M, 1, L}, {"약간복잡", M, 1, L},
    {"슬슬차", M, 1, L}, {"슬슬많", M, 1, L}, {"많아지기", M, 1, L}, {"차기시작", M, 1, L}, {"활기", M, 0.7, L},
    {"자리잡기", M, 0.9, L}, {"빈자리드문", M, 1, L}, {"중간정도", M, 1, L}, {"걸을만", M, 1, L}, {"움직일만", M, 1, L},
    {"다닐만", M, 1, L}, {"붐비긴", M, 1.1, L}, {"많긴한", M, 1.1, L}, {"많긴하", M, 1.1, L}, {"사람있긴", M, 1, L},
    {"줄있긴", M, 1, L}, {"좀있어", M, 0.8, L}, {"조금있어", M, 0.8, L}, {"좀있네", M, 0.8, L},
    {"널널하진않", M, 1.3, M}, {"한산하진않", M, 1.3, M}, {"여유롭진않", M, 1.3, M}, {"텅비진않", M, 1.3, M},
    {"한산하지않", M, 1.3, M}, {"널널하지않", M, 1.3, M}, {"여유롭지않", M, 1.3, M}, {"안한산", M, 1.2, M},
    {"미어터지진않", M, 1.4, M}, {"미어터질정돈아니", M, 1.4, M}, {"헬은아니", M, 1.4, M}, {"꽉차진않", M, 1.3, M},
    {"길진않", M, 1.3, M}, {"엄청붐비진않", M, 1.4, M}, {"정도는아니", M, 1.2, M}, {"정돈아니", M, 1.2, M},
    {"못걸을정도", M, 0.5, M}, {"붐비는정도", M, 1, M}, {"살짝대기", M, 1, L}, {"좀대기", M, 1, L},
    {"약간대기", M, 1, L}, {"사람좀", M, 0.7, L}, {"웨이팅있", M, 0.8, L}, {"대기있", M, 0.7, L},
    {"줄있어", M, 0.7, L}, {"줄서있", M, 0.4, L},
    // HIGH
    {"미어터", H, 1.5, M}, {"미어져", H, 1.4, M}, {"미어짐", H, 1.4, M}, {"개붐", H, 1.5, M},
    {"존나붐", H, 1.5, M}, {"겁나붐", H, 1.5, M}, {"엄청붐", H, 1.4, M}, {"너무붐", H, 1.4, M},
    {"진짜붐", H, 1.3, M}, {"완전붐", H, 1.3, M}, {"붐비", H, 0.8, L}, {"붐벼", H, 0.8, L}, {"붐빔", H, 0.8, L},
    {"붐볐", H, 0.8, L}, {"발디딜", H, 1.6, M}, {"발들일틈", H, 1.6, M}, {"사람많", H, 1.1, L},
    {"사람이많", H, 1.1, L}, {"사람너무", H, 1.2, L}, {"사람진짜많", H, 1.3, L}, {"사람엄청", H, 1.3, L},
    {"사람개많", H, 1.4, L}, {"사람터", H, 1.4, M}, {"사람미쳤", H, 1.4, M}, {"인산인해", H, 1.5, M},
    {"헬", H, 1.2, M}, {"지옥", H, 1.2, M}, {"꽉차", H, 1.3, M}, {"꽉찼", H, 1.3, M}, {"꽉참", H, 1.3, M},
    {"꽉꽉", H, 1.3, M}, {"만석", H, 1.3, M}, {"만차", H, 1.1, M}, {"자리없", H, 1.2, L},
    {"자리가없", H, 1.2, L}, {"자리하나도없", H, 1.4, L}, {"빈자리없", H, 1.3, L}, {"빈자리가없", H, 1.3, L},
    {"앉을곳없", H, 1.3, L}, {"앉을자리없", H, 1.3, L}, {"줄길", H, 1.2, M}, {"줄이길", H, 1.2, M},
    {"줄엄청", H, 1.3, M}, {"줄개길", H, 1.4, M}, {"줄미쳤", H, 1.4, M}, {"줄이미쳤", H, 1.4, M},
    {"끝이안보", H, 1.5, M}, {"끝이없", H, 1.2, M}, {"줄장난", H, 1.3, M}, {"입장마감", H, 1.6, H},
    {"입장제한", H, 1.5, H}, {"입장일시제한", H, 1.5, H}, {"입장을일시제한", H, 1.5, H}, {"입장을제한", H, 1.5, H}, {"사람반물반", H, 1.4, M}, {"정원초과", H, 1.4, H}, {"입장통제", H, 1.5, H}, {"대기마감", H, 1.6, H}, {"웨이팅마감", H, 1.6, H},
    {"접수마감", H, 1.5, H}, {"마감됐", H, 1.2, H}, {"마감되었", H, 1.2, H}, {"마감입니다", H, 1.2, H}, {"움직일수가없", H, 1.5, M}, {"움직일수없", H, 1.5, M},
    {"못움직", H, 1.5, M}, {"못나가", H, 1.3, M}, {"못들어가", H, 1.3, M}, {"못타", H, 1.3, M},
    {"밀려다", H, 1.3, M}, {"떠밀려", H, 1.4, M}, {"숨막", H, 1.3, M}, {"난리", H, 1.1, M}, {"바글", H, 1.2, M},
    {"콩나물", H, 1.4, M}, {"역대급", H, 1.1, M}, {"혼잡심", H, 1.4, M}, {"너무혼잡", H, 1.4, M},
    {"매우혼잡", H, 1.4, M}, {"엄청혼잡", H, 1.4, M}, {"혼잡", H, 0.7, L}, {"대보냈", H, 1.5, M},
    {"못타서", H, 1.4, M}, {"터질것", H, 1.3, M}, {"터질듯", H, 1.3, M}, {"한바퀴", H, 1.1, M},
    {"끝까지", H, 0.9, M}, {"공기반", H, 1.4, M}, {"장난아니", H, 1.3, M}, {"장난없", H, 1.3, M},
    {"북새통", H, 1.4, M}, {"포화", H, 1.3, M}, {"치여", H, 1.2, M},
    {"사람터져", H, 1.4, M}, {"꽉막", H, 1.3, M}, {"엄청많", H, 1.3, L}, {"너무많", H, 1.3, L},
    {"진짜많", H, 1.2, L}, {"겁나많", H, 1.3, L}, {"개많", H, 1.3, L}, {"대박많", H, 1.3, L},
    {"많아", H, 0.6, L}, {"많음", H, 0.6, L}, {"많네", H, 0.6, L}, {"많습", H, 0.6, L}, {"빽빽", H, 1.3, M},
    {"줄이어마", H, 1.3, M}, {"어마어마", H, 1.1, M}, {"길어요", H, 0.8, M}, {"길어유", H, 0.8, M}, {"길고요", H, 0.8, M},
    {"길어예", H, 0.8, M}, {"공간이없", H, 1.2, L}, {"공간없", H, 1.2, L}, {"줄서있는사람", H, 0.5, M},
    {"꼬리에꼬리", H, 1.3, M}, {"몇바퀴", H, 1.3, M}, {"가득", H, 1.1, M}, {"붐비네", H, 0.8, L},
    {"붐벼요", H, 0.8, L}, {"복잡해", H, 0.7, L}, {"복잡하", H, 0.7, L}, {"밀려요", H, 0.7, L},
    {"막혀", H, 0.6, L}, {"정체", H, 0.9, L}, {"만원", H, 1.1, M}, {"다찼", H, 1.1, M}, {"매진", H, 1.2, H},
    {"통제중", H, 0.8, H},
    // more everyday forms
    {"하나도없", L, 1.1, M}, {"바로탐", L, 1.2, M}, {"바로타", L, 1.1, M}, {"바로들어감", L, 1.2, M},
    {"대기하나도", L, 1.3, H}, {"웨이팅하나도", L, 1.3, H}, {"줄0", L, 1.3, H}, {"대기제로", L, 1.3, H},
    {"웨이팅제로", L, 1.3, H}, {"제로", L, 0.9, M}, {"여유", L, 0.9, M}, {"여유많", L, 1.2, H},
    {"여유없", H, 1.2, L}, {"여유가없", H, 1.2, L}, {"자리많이남", L, 1.3, H}, {"많이남았", L, 1.1, H},
    {"자리남", L, 1.1, H}, {"자리가남", L, 1.1, H}, {"자리아직많", L, 1.2, H}, {"금방잡", L, 1, M},
    // Ninth round: a few seats left is a busy place, almost none a full one (every labeled
    // file: "몇/두세 자리 남" MEDIUM 5 of 5, "자리 몇 개 남" MEDIUM 11 of 11, "자리 거의 없"
    // HIGH 9 of 12); weighted over 자리남 and 거의없.
    {"몇자리남", M, 1.6, U}, {"두세자리남", M, 1.6, U}, {"서너자리남", M, 1.6, U},
    {"한두자리남", M, 1.6, U}, {"자리몇개남", M, 1.6, U}, {"자리가몇개남", M, 1.6, U},
    {"자리몇개만남", M, 1.6, U}, {"자리거의없", H, 1.6, U}, {"자리가거의없", H, 1.6, U},
    {"자리는거의없", H, 1.6, U},
    // Twelfth round (spent blind-37..39; counts over every labeled file): shoulders touching
    // (HIGH 5 of 6), steps that will not move (걸음이 안 떼져요, HIGH 2 of 2).
    {"어깨가닿", H, 1.4, M}, {"어깨닿", H, 1.4, M}, {"어깨가다닿", H, 1.4, M}, {"어깨부딪", H, 1.3, M},
    {"어깨가부딪", H, 1.3, M}, {"어깨붙", H, 1.3, M}, {"어깨가붙", H, 1.3, M},
    {"걸음이안떼", H, 1.6, U}, {"걸음안떼", H, 1.6, U}, {"발이안떨어", H, 1.5, U},
    {"자리금방", L, 1, M}, {"심심해보", L, 1, M}, {"널찍", L, 1, M}, {"한산한", L, 1, M}, {"뻥뚫", L, 1.1, M},
    {"막힘없이", L, 1.1, M}, {"나아졌", M, 0.8, M}, {"좀빠졌", M, 0.9, M}, {"많이빠졌", M, 1, M},
    {"줄었", M, 0.7, M}, {"제자리", H, 1.5, M}, {"꼼짝", H, 1.5, M}, {"안움직", H, 1.5, L},
    {"움직이질않", H, 1.5, L}, {"갇힘", H, 1.4, M}, {"갇혔", H, 1.4, M}, {"꽉찬", H, 1.3, M},
    {"자리도없", H, 1.3, L}, {"깔자리", H, 1.2, M}, {"앉을데없", H, 1.3, L}, {"빈틈없", H, 1.4, L}, {"좌석없", H, 1.2, L}, {"좌석이없", H, 1.2, L},
    {"앉을데가없", H, 1.3, L}, {"펼데가없", H, 1.3, L}, {"펼데없", H, 1.3, L}, {"설자리없", H, 1.3, L}, {"설자리", H, 1.2, M},
    {"서너겹", H, 1.4, M}, {"틈도없", H, 1.4, L}, {"틈이없", H, 1.4, L}, {"숨쉴틈", H, 1.4, M},
    {"몇겹", H, 1.4, M}, {"두겹", H, 1.2, M}, {"겹으로", H, 1.2, M}, {"끝자락", H, 0.9, M},
    {"줄이끝", H, 1.3, M}, {"줄끝", H, 0.9, M}, {"밖까지", H, 1.3, M}, {"복도까지", H, 1.3, M},
    {"입구까지", H, 1.2, M}, {"밖으로", H, 0.6, M}, {"나와있", H, 0.6, M}, {"밀려", H, 0.8, L},
    {"한발짝", H, 1.2, M}, {"까지나와", H, 1.3, M}, {"까지늘어", H, 1.3, M}, {"까지이어", H, 1.3, M},
    {"까지밀려", H, 1.3, M}, {"까지줄", H, 1.2, M}, {"까지서있", H, 1.2, M}, {"까지내려", H, 1.3, M},
    {"까지올라", H, 1.3, M}, {"까지차있", H, 1.3, M}, {"이동이어렵", H, 1.3, M}, {"이동불가", H, 1.5, M},
    {"인파", H, 1.2, M}, {"사람몰", H, 1.0, L}, {"몰려", H, 0.8, L}, {"몰림", H, 0.8, L}, {"몰렸", H, 0.8, L},
    {"장사진", H, 1.5, M}, {"문전성시", H, 1.4, M}, {"아수라장", H, 1.5, M}, {"난장판", H, 1.4, M},
    {"입장불가", H, 1.5, H}, {"못들어감", H, 1.3, M}, {"헬게이트", H, 1.4, M}, {"존많", H, 1.3, L},
    {"ㅈㄴ많", H, 1.3, L}, {"개혼잡", H, 1.5, M}, {"혼잡극심", H, 1.5, M}, {"붐비는중", H, 0.9, L},
    {"사람적당", M, 1.2, L}, {"적당히붐", M, 1.3, L}, {"살짝밀", M, 1.1, L}, {"조금있음", M, 0.9, L},
    {"좀있음", M, 0.9, L}, {"사람없음", L, 1.2, M}, {"텅빔", L, 1.2, M}, {"한가함", L, 1.1, M},
    {"갇혀", H, 1.3, M}, {"많지는않", L, 1.2, H}, {"붐비지는않", L, 1.3, H}, {"풀렸", M, 1.0, U},
    {"풀림", M, 1.0, U}, {"움직이긴", M, 1.0, U},
    // Not about the crowd: consumed so their words do not count ("시간 여유 있을 때 오세요").
    {"시간여유", U, 0, U}, {"여유있을때", U, 0, U}, {"여유있게오", U, 0, U}, {"여유롭게오", U, 0, U},
    // Third round: "분위기 미쳤다", "떼창 미쳤다", "응원봉은 품절" are hype and stock, not the crowd
    // (short written texts: bare 미쳤 IRRELEVANT 13 of 16, 품절 11 of 11; "사람 미쳤", "줄 미쳤" stay).
    {"미쳤다", U, 0, U}, {"품절", U, 0, U},
    {"마음의여유", U, 0, U}, {"자리잡고", U, 0, U}, {"양많", U, 0, U}, {"양이많", U, 0, U},
    {"양도많", U, 0, U}, {"진짜없", L, 1.1, H}, {"정말없", L, 1.1, H},
    // English mixed in
    {"noline", L, 1.4, H}, {"nolines", L, 1.4, H}, {"nowait", L, 1.4, H}, {"notcrowded", L, 1.4, H},
    {"notbusy", L, 1.4, H}, {"empty", L, 1.2, M}, {"quiet", L, 1.1, M}, {"walkedin", L, 1.2, M},
    {"walkedrightin", L, 1.3, M}, {"dead", L, 0.7, M}, {"plentyof", L, 1.1, M},
    {"alittlebusy", M, 1.3, L}, {"kindabusy", M, 1.3, L}, {"kindofbusy", M, 1.3, L},
    {"moderate", M, 1.2, L}, {"shortline", M, 1.2, L}, {"shortwait", M, 1.2, L},
    {"notbad", M, 1, L}, {"somewhatbusy", M, 1.3, L}, {"packed", H, 1.5, M}, {"crowded", H, 1.3, L},
    {"crazy", H, 1.1, M}, {"insane", H, 1.2, M}, {"jammed", H, 1.4, M}, {"longline", H, 1.3, M},
    {"longwait", H, 1.3, M}, {"hugeline", H, 1.4, M}, {"busy", H, 0.9, L}, {"sardine", H, 1.3, M},
    {"madhouse", H, 1.3, M}, {"soldout", H, 1.2, H}, {"full", H, 0.9, M},
    {"nobody", L, 1.2, M}, {"calm", L, 1.0, M}, {"chill", L, 0.9, M}, {"huge", H, 1.1, M},
    {"outthedoor", H, 1.3, M}, {"barelywalk", H, 1.3, M}, {"barelymove", H, 1.3, M},
    {"fillingup", M, 1.1, L}, {"movingslow", M, 1.0, L},
    // Issue 13, third round (blind-4..6): fullness said with a negation or a lack, dialect
    // intensifiers, more English and romanized Korean.
    {"1도없", L, 1.1, M}, {"데도없", H, 1.2, L}, {"댈데도없", H, 1.4, L}, {"댈데가없", H, 1.4, L},
    {"자리모자", H, 1.3, L}, {"자리가모자", H, 1.3, L}, {"자리도모자", H, 1.3, L},
    {"의자도모자", H, 1.3, L}, {"의자가모자", H, 1.3, L}, {"좌석이모자", H, 1.3, L},
    {"좌석도모자", H, 1.3, L}, {"서서기다", H, 1.0, M}, {"억수로많", H, 1.3, L},
    {"억수로붐", H, 1.4, M}, {"허벌나게많", H, 1.3, L}, {"징하게많", H, 1.3, L},
    {"사람천지", H, 1.3, M}, {"천지임", H, 1.1, M}, {"천지네", H, 1.1, M}, {"천지예", H, 1.1, M},
    {"천지에요", H, 1.1, M}, {"천지야", H, 1.1, M},
    {"somanypeople", H, 1.3, L}, {"lotsofpeople", H, 1.2, L}, {"manypeople", H, 1.1, L},
    {"cantmove", H, 1.4, M}, {"can'tmove", H, 1.4, M}, {"straightthrough", L, 1.3, M},
    {"노웨잇", L, 1.4, H}, {"sarammanh", H, 1.2, L}, {"sarameops", L, 1.2, M},
    {"juleops", L, 1.3, M}, {"julgil", H, 1.2, M},
    {"저혼자", L, 1.1, M}, {"나혼자", L, 1.1, M}, {"저밖에없", L, 1.2, M}, {"나밖에없", L, 1.2, M},
    {"끝없", H, 1.3, M}, {"싹빠", L, 1.0, M}, {"텅", L, 0.9, M}, {"두바퀴", H, 1.3, M},
    {"세바퀴", H, 1.3, M}, {"theonlyone", L, 1.1, M}, {"onlyme", L, 1.2, M}, {"justme", L, 1.2, M},
    {"안줄어", H, 1.3, M}, {"안줄었", H, 1.2, M}, {"안줄어들", H, 1.3, M}, {"줄지않", H, 1.2, M},
    {"거의다찼", M, 1.2, L}, {"비었", L, 1.0, M}, {"다비었", L, 1.2, M}, {"바로됨", L, 1.1, M}, {"바로돼", L, 1.1, M},
    {"바로받", L, 1.1, M}, {"바로나옴", L, 1.0, M}, {"바로나왔", L, 1.0, M}, {"바로쳤", L, 1.0, M},
    {"바로진입", L, 1.1, M}, {"바로구매", L, 1.1, M}, {"바로계산", L, 1.1, M}, {"바로접수", L, 1.1, M},
    {"나뿐", L, 1.1, M}, {"저뿐", L, 1.1, M}, {"명뿐", L, 1.0, M}, {"쓱들어가", L, 1.0, M},
    // Thirteenth round (blind-40 in training): "저랑 간호사 선생님 둘뿐" is a count of those
    // there and outweighs the sarcasm before it (둘뿐/셋뿐: every labeled file LOW 3 of 3);
    // "바로 불려요" (called at once) is as quiet as "바로 들어가요" (LOW 51 of 69 for those);
    // "대기가 길어지고 있습니다" is the staff notice of a long wait (HIGH 1 of 1, blind-40).
    {"둘뿐", L, 1.5, M}, {"셋뿐", L, 1.4, M}, {"초컷", L, 1.2, M},
    {"무려두명", L, 1.3, M}, {"빈테이블천지", L, 1.6, M}, {"빈자리천지", L, 1.6, M}, {"개만차있", L, 1.3, M}, {"개만찼", L, 1.3, M},
    // "저 포함 두 명": the writer counting the few who are there.
    {"저포함두명", L, 1.4, M}, {"저포함세명", L, 1.3, M}, {"저포함2명", L, 1.4, M}, {"저포함3명", L, 1.3, M},
    {"나포함두명", L, 1.4, M}, {"나포함세명", L, 1.3, M}, {"나포함2명", L, 1.4, M}, {"나포함3명", L, 1.3, M}, {"바로불려", L, 1.1, M}, {"바로불러", L, 1.1, M},
    {"바로호출", L, 1.1, M}, {"대기가길어지", H, 1.2, L}, {"대기시간이길어지", H, 1.2, L},
    // Fourteenth round (blind-41..43 in training; counts over every labeled file): 반도 못
    // (half the queue not yet) HIGH 19 of 19; 사람 너무 없어 is quiet, not "사람 너무" (LOW 1 of 1);
    // English: no queue LOW, shoulder to shoulder and chaos HIGH (4 of 4).
    {"반도못", H, 1.2, M}, {"사람너무없", L, 1.4, M}, {"사람이너무없", L, 1.4, M},
    {"noqueue", L, 1.3, M}, {"shouldertoshoulder", H, 1.3, M}, {"chaos", H, 1.1, M},
    {"줄이더길", H, 1.2, M}, {"줄더길", H, 1.2, M}, {"사람벽", H, 1.4, M}, {"겨우앉", H, 1.1, M}, {"겨우탔", H, 1.1, M}, {"겨우들어", H, 1.1, M},
    // UNKNOWN: relevant, level cannot be told
    {"애매", U, 1.2, U}, {"모르겠", U, 0.9, U}, {"판단하기어렵", U, 1.3, U}, {"판단이어렵", U, 1.3, U},
    {"말하기어렵", U, 1.3, U}, {"왔다갔다", U, 1.1, U}, {"생겼다없어졌다", U, 1.3, U}, {"들쭉날쭉", U, 1.2, U},
    {"복불복", U, 1.1, U}, {"반반", U, 0.8, U}, {"건지아닌지", U, 1.4, U}, {"인지아닌지", U, 1.4, U},
    {"는지아닌지", U, 1.4, U}, {"은지아닌지", U, 1.4, U}, {"편인지", U, 1.3, U}, {"감이안", U, 1.3, U},
    {"판단이안", U, 1.3, U}, {"잘모르", U, 0.95, U}, {"notsure", U, 1.2, U}, {"hardtotell", U, 1.3, U},
};
// clang-format on

// clang-format off
inline constexpr MarkerCue kMarkers[] = {
    {"줄알았", Marker::kExpect}, {"줄만알았", Marker::kExpect}, {"줄알고", Marker::kExpect}, {"까봐", Marker::kExpect},
    {"거라더니", Marker::kExpect}, {"다더니", Marker::kExpect}, {"라더니", Marker::kExpect},
    {"다길래", Marker::kExpect}, {"라길래", Marker::kExpect}, {"다고해서", Marker::kExpect},
    {"다던", Marker::kExpect}, {"라던", Marker::kExpect}, {"다며", Marker::kExpect},
    {"걱정했", Marker::kExpect}, {"예상했", Marker::kExpect}, {"각오했", Marker::kExpect},
    // "항상 헬인데 오늘은 웬일로 2명": what the place usually is, against today.
    {"인데오늘은", Marker::kExpect}, {"인데오늘따라", Marker::kExpect}, {"인데웬일로", Marker::kExpect},
    {"는개뿔", Marker::kIrony}, {"개뿔", Marker::kIrony}, {"농담이고", Marker::kIrony},
    {"농담", Marker::kIrony}, {"누구임", Marker::kIrony}, {"누구냐", Marker::kIrony},
    {"퍽이나", Marker::kIrony}, {"는무슨", Marker::kIrony}, {"여유는무슨", Marker::kIrony},
    {"어제", Marker::kPast}, {"그제", Marker::kPast}, {"그저께", Marker::kPast}, {"지난주", Marker::kPast},
    {"지난번", Marker::kPast}, {"지난달", Marker::kPast}, {"저번주", Marker::kPast}, {"저번에", Marker::kPast},
    {"저번달", Marker::kPast}, {"작년", Marker::kPast}, {"예전", Marker::kPast}, {"옛날", Marker::kPast},
    {"왔을땐", Marker::kPast}, {"왔을때", Marker::kPast}, {"갔을땐", Marker::kPast}, {"갔을때", Marker::kPast},
    {"었었", Marker::kPast}, {"았었", Marker::kPast}, {"했었", Marker::kPast}, {"볐었", Marker::kPast},
    {"였었", Marker::kPast}, {"졌었", Marker::kPast}, {"섰었", Marker::kPast}, {"왔었", Marker::kPast},
    {"렸었", Marker::kPast}, {"찼었", Marker::kPast}, {"갔었", Marker::kPast}, {"쳤었", Marker::kPast},
    {"혔었", Marker::kPast}, {"됐었", Marker::kPast}, {"지난주말", Marker::kPast}, {"아침엔", Marker::kPast}, {"오전엔", Marker::kPast},
    {"한시간전", Marker::kPast}, {"아까", Marker::kPast}, {"던데", Marker::kPast}, {"내일", Marker::kFuture}, {"모레", Marker::kFuture},
    {"다음주", Marker::kFuture}, {"다음달", Marker::kFuture}, {"다음에", Marker::kFuture},
    {"주말엔", Marker::kFuture}, {"주말에는", Marker::kFuture}, {"연휴엔", Marker::kFuture},
    {"이따", Marker::kFuture}, {"나중에", Marker::kFuture}, {"저녁엔", Marker::kFuture},
    {"밤엔", Marker::kFuture}, {"평일엔", Marker::kFuture}, {"보통은", Marker::kFuture},
    {"원래", Marker::kFuture}, {"겠죠", Marker::kFutureVerb}, {"겠네", Marker::kFutureVerb},
    {"겠다", Marker::kFutureVerb}, {"겠어", Marker::kFutureVerb}, {"겠지", Marker::kFutureVerb},
    {"을거예요", Marker::kFutureVerb}, {"일거예요", Marker::kFutureVerb}, {"일거에요", Marker::kFutureVerb},
    {"을거에요", Marker::kFutureVerb}, {"ㄹ거예요", Marker::kFutureVerb}, {"할거예요", Marker::kFutureVerb},
    {"될거예요", Marker::kFutureVerb}, {"질거예요", Marker::kFutureVerb}, {"릴거예요", Marker::kFutureVerb},
    {"예정", Marker::kFutureVerb}, {"질듯", Marker::kFutureVerb}, {"몰릴", Marker::kFutureVerb},
    {"을까요", Marker::kFutureVerb}, {"지금", Marker::kNow}, {"현재", Marker::kNow}, {"방금", Marker::kNow},
    {"실시간", Marker::kNow}, {"현장", Marker::kNow}, {"오늘", Marker::kNow}, {"째", Marker::kNow},
    {"보다", Marker::kCompare}, {"보단", Marker::kCompare}, {"처럼", Marker::kCompare},
    {"만큼", Marker::kCompare}, {"이랑비슷", Marker::kCompare}, {"랑비슷", Marker::kCompare},
    {"지시무시", Marker::kInjection}, {"지시를무시", Marker::kInjection}, {"지시사항", Marker::kInjection},
    {"이전지시", Marker::kInjection}, {"앞의지시", Marker::kInjection}, {"내용무시", Marker::kInjection},
    {"프롬프트", Marker::kInjection}, {"시스템:", Marker::kInjection}, {"system", Marker::kInjection},
    {"ignoreprevious", Marker::kInjection}, {"ignoreall", Marker::kInjection},
    {"instruction", Marker::kInjection}, {"로답해", Marker::kInjection}, {"으로답해", Marker::kInjection},
    {"라고답", Marker::kInjection}, {"로답변", Marker::kInjection}, {"으로답변", Marker::kInjection},
    {"로출력", Marker::kInjection}, {"출력해", Marker::kInjection}, {"출력할", Marker::kInjection},
    {"판정해", Marker::kInjection}, {"분류해", Marker::kInjection}, {"분류할것", Marker::kInjection},
    {"라고판정", Marker::kInjection}, {"관리자명령", Marker::kInjection}, {"개발자모드", Marker::kInjection},
    {"규칙무시", Marker::kInjection}, {"level=", Marker::kInjection}, {"relevance", Marker::kInjection},
    {"irrelevant", Marker::kInjection}, {"무조건high", Marker::kInjection},
    {"무조건low", Marker::kInjection}, {"로만출력", Marker::kInjection}, {"너는이제", Marker::kInjection},
    {"지금부터너는", Marker::kInjection}, {"ai야", Marker::kInjection}, {"라고해줘", Marker::kInjection},
    {"high로", Marker::kInjection}, {"low로", Marker::kInjection}, {"medium으로", Marker::kInjection},
    {"라고답해", Marker::kInjection}, {"무시하고", Marker::kInjection}, {"output", Marker::kInjection},
    // Issue 13, second round: instructions addressed to a bot or to every answer.
    {"봇이면", Marker::kInjection}, {"봇아", Marker::kInjection}, {"분석봇", Marker::kInjection},
    {"분석하는봇", Marker::kInjection}, {"혼잡도분석", Marker::kInjection}, {"모든답", Marker::kInjection},
    {"모든판정", Marker::kInjection}, {"모든신호", Marker::kInjection}, {"전부high", Marker::kInjection},
    {"전부low", Marker::kInjection}, {"모두high", Marker::kInjection}, {"모두low", Marker::kInjection},
    {"으로해라", Marker::kInjection}, {"분류기야", Marker::kInjection}, {"모델아", Marker::kInjection},
    {"assistant:", Marker::kInjection}, {"레이블", Marker::kInjection}, {"라벨을", Marker::kInjection},
    // Issue 13, third round: the judge addressed by name or asked to classify.
    {"ai님", Marker::kInjection}, {"판정시스템", Marker::kInjection}, {"라고해주세요", Marker::kInjection},
    {"라고해주십시오", Marker::kInjection}, {"로분류하", Marker::kInjection}, {"으로분류하", Marker::kInjection},
    {"무시하십시오", Marker::kInjection}, {"신호는무시", Marker::kInjection}, {"labelthis", Marker::kInjection},
    {"markthis", Marker::kInjection}, {"classifythis", Marker::kInjection},
    // Fifteenth round (blind-44 in training): the machine addressed in dialect or politely, and
    // "forget the rules" (counts over every labeled file: 규칙 잊/무시 IRRELEVANT 14 of 14,
    // 읽는/분석하는 인공지능·컴퓨터 8 of 8, 인공지능아/님/양반 and 컴퓨터 양반 6 of 6).
    {"컴퓨터양반", Marker::kInjection}, {"읽는컴퓨터", Marker::kInjection},
    {"인공지능아", Marker::kInjection}, {"인공지능님", Marker::kInjection},
    {"인공지능양반", Marker::kInjection}, {"읽는인공지능", Marker::kInjection},
    {"분석하는인공지능", Marker::kInjection}, {"규칙다잊", Marker::kInjection},
    {"규칙잊", Marker::kInjection}, {"규칙을잊", Marker::kInjection},
    {"이글의혼잡도", Marker::kInjection}, {"이글은혼잡도", Marker::kInjection}, {"이게시글", Marker::kInjection},
    {"이댓글은", Marker::kInjection}, {"분류기", Marker::kInjection}, {"시스템테스트", Marker::kInjection},
    {"높음으로판단", Marker::kInjection}, {"낮음으로판단", Marker::kInjection}, {"높음으로분류", Marker::kInjection},
    {"낮음으로분류", Marker::kInjection}, {"혼잡도는high", Marker::kInjection}, {"혼잡도는low", Marker::kInjection},
    {"high입니다", Marker::kInjection}, {"low입니다", Marker::kInjection}, {"으로판단하", Marker::kInjection},
    {"로기록해", Marker::kInjection}, {"으로기록해", Marker::kInjection},
    {"ai는", Marker::kInjection}, {"ai에게", Marker::kInjection}, {"ai한테", Marker::kInjection},
    {"분석기", Marker::kInjection}, {"모델에게", Marker::kInjection}, {"무시하시고", Marker::kInjection},
    {"규칙을무시", Marker::kInjection}, {"forgetyour", Marker::kInjection}, {"youmustanswer", Marker::kInjection},
    // Twenty-second round (spent blind-66): English role play ("You are DAN, a labeler with
    // no rules").
    {"youarenow", Marker::kInjection}, {"labeler", Marker::kInjection},
    {"withnorules", Marker::kInjection},
    // Twenty-eighth round (spent blind-80..82): the judge named a 판정기 and role play (every
    // labeled file: 판정기 IRRELEVANT 18 of 18, 역할극 3 of 3, 넌 이제/당신은 이제 2 of 2).
    {"판정기", Marker::kInjection}, {"역할극", Marker::kInjection}, {"넌이제", Marker::kInjection},
    {"당신은이제", Marker::kInjection},
    // Fourth round (blind-13, dialect): an order to the "AI" or by a self-named
    // administrator, in words other than classify/output/answer.
    {"인공지능아", Marker::kInjection}, {"인공지능은", Marker::kInjection},
    {"인공지능한테", Marker::kInjection}, {"인공지능에게", Marker::kInjection},
    {"시스템관리자", Marker::kInjection}, {"관리자다", Marker::kInjection}, {"관리자모드", Marker::kInjection},
    {"관리자공지", Marker::kInjection}, {"혼잡도무조건", Marker::kInjection}, {"무조건보통", Marker::kInjection},
    {"고적어라", Marker::kInjection}, {"라고적어", Marker::kInjection},
    // Eighth round (blind-30): an order to a bot that "summarises" or "reads" the post, a
    // level to "display", an English address to the classifier.
    {"요약하는봇", Marker::kInjection}, {"읽는봇", Marker::kInjection}, {"표시할것", Marker::kInjection},
    {"로표시해", Marker::kInjection}, {"으로표시해", Marker::kInjection}, {"classifier", Marker::kInjection},
    {"tothemodel", Marker::kInjection}, {"ignoreprior", Marker::kInjection},
    {"markthequeue", Marker::kInjection}, {"marktheline", Marker::kInjection},
    {"http", Marker::kAd}, {"www.", Marker::kAd}, {".com", Marker::kAd}, {".kr", Marker::kAd},
    {".net", Marker::kAd}, {"bit.ly", Marker::kAd}, {"open.kakao", Marker::kAd},
    // The compact text drops '.', so links are matched without it too (third round).
    {"bitly/", Marker::kAd}, {"openkakao", Marker::kAd}, {"wwwnaver", Marker::kAd},
    {"smartstore", Marker::kAd}, {"linktr", Marker::kAd},
    {"오픈채팅", Marker::kAd}, {"카톡문의", Marker::kAd}, {"카톡", Marker::kAd}, {"dm주세요", Marker::kAd},
    {"dm문의", Marker::kAd}, {"문의dm", Marker::kAd}, {"[광고]", Marker::kAd}, {"광고)", Marker::kAd},
    {"홍보)", Marker::kAd}, {"부업", Marker::kAd}, {"리딩방", Marker::kAd}, {"대출", Marker::kAd},
    {"수익", Marker::kAd}, {"구독", Marker::kAd}, {"좋아요부탁", Marker::kAd}, {"팔로우하면", Marker::kAd},
    {"체험단", Marker::kAd}, {"기프티콘받", Marker::kAd}, {"최저가", Marker::kAd}, {"010-", Marker::kAd},
    {"대리구매", Marker::kAd}, {"링크", Marker::kAd}, {"프로필", Marker::kAd}, {"옆카페", Marker::kOtherPlace},
    {"nextdoor", Marker::kOtherPlace}, {"옆가게", Marker::kOtherPlace}, {"옆집", Marker::kOtherPlace}, {"옆매장", Marker::kOtherPlace},
    {"옆건물", Marker::kOtherPlace}, {"옆식당", Marker::kOtherPlace}, {"옆골목", Marker::kOtherPlace},
    {"옆편집숍", Marker::kOtherPlace}, {"건너편", Marker::kOtherPlace}, {"맞은편", Marker::kOtherPlace},
    {"주차장", Marker::kOtherPlace}, {"다른게이트", Marker::kOtherPlace}, {"다른출구", Marker::kOtherPlace},
    {"다른입구", Marker::kOtherPlace}, {"다른매장", Marker::kOtherPlace}, {"다른지점", Marker::kOtherPlace},
    {"다른놀이기구", Marker::kOtherPlace}, {"반대편", Marker::kOtherPlace}, {"다른곳", Marker::kOtherPlace},
    {"딴데", Marker::kOtherPlace}, {"다른데", Marker::kOtherPlace}, {"근처다른", Marker::kOtherPlace},
    {"옆동네", Marker::kOtherPlace}, {"대신", Marker::kElsewhere}, {"그쪽으로", Marker::kElsewhere},
    {"옆에있는", Marker::kOtherPlace}, {"거긴", Marker::kElsewhere}, {"거기는", Marker::kElsewhere}, {"거기도", Marker::kElsewhere},
    {"그쪽", Marker::kElsewhere}, {"로갔더니", Marker::kElsewhere}, {"으로갔더니", Marker::kElsewhere},
    {"로가보니", Marker::kElsewhere}, {"로옮겼", Marker::kElsewhere}, {"에있는데여긴", Marker::kElsewhere},
    {"에있는데여기는", Marker::kElsewhere}, {"에있는데여기", Marker::kElsewhere}, {"로옮기", Marker::kElsewhere},
    {"로가세요", Marker::kElsewhere}, {"가는중", Marker::kArrival}, {"가는길", Marker::kArrival},
    {"출발", Marker::kArrival}, {"도착하면", Marker::kArrival}, {"올릴게", Marker::kArrival},
    {"알려드릴게", Marker::kArrival}, {"공유할게", Marker::kArrival}, {"보고올게", Marker::kArrival},
    {"가볼게", Marker::kArrival}, {"들어가볼게", Marker::kArrival}, {"도착예정", Marker::kArrival},
    {"갈게요", Marker::kArrival}, {"가려고", Marker::kArrival}, {"갈예정", Marker::kArrival},
    {"타고가는", Marker::kArrival}, {"나왔어요집", Marker::kArrival}, {"뒤도착", Marker::kArrival},
    {"곧도착", Marker::kArrival}, {"헐", Marker::kReaction}, {"대박", Marker::kReaction},
    {"부럽", Marker::kReaction}, {"맛있겠", Marker::kReaction}, {"감사", Marker::kReaction},
    {"고마워", Marker::kReaction}, {"화이팅", Marker::kReaction}, {"파이팅", Marker::kReaction},
    {"귀엽", Marker::kReaction}, {"굿굿", Marker::kReaction}, {"와우", Marker::kReaction},
    {"가고싶", Marker::kReaction}, {"좋은하루", Marker::kReaction}, {"ㅋㅋ", Marker::kReaction},
    {"ㅎㅎ", Marker::kReaction}, {"ㅠㅠ", Marker::kReaction}, {"ㅜㅜ", Marker::kReaction},
    {"웃기", Marker::kReaction}, {"다행", Marker::kReaction}, {"ㄱㅅ", Marker::kReaction},
    {"꿀팁", Marker::kReaction}, {"이해안", Marker::kReaction}, {"이해가안", Marker::kReaction},
    {"말이되", Marker::kReaction}, {"무슨생각", Marker::kReaction}, {"어이없", Marker::kReaction},
    {"짜증", Marker::kReaction}, {"lol", Marker::kReaction}, {"omg", Marker::kReaction},
    {"thanks", Marker::kReaction}, {"저도요", Marker::kAgree}, {"저도", Marker::kAgree},
    {"저두", Marker::kAgree}, {"나도", Marker::kAgree}, {"나두", Marker::kAgree}, {"222", Marker::kAgree},
    {"333", Marker::kAgree}, {"여기도", Marker::kAgree}, {"똑같", Marker::kAgree},
    {"동감", Marker::kAgree}, {"인정", Marker::kAgree}, {"ㅇㅈ", Marker::kAgree}, {"ㄹㅇ", Marker::kAgree},
    {"samehere", Marker::kAgree}, {"same", Marker::kAgree}, {"metoo", Marker::kAgree}, {"맞아요", Marker::kAgree}, {"마자요", Marker::kAgree}, {"맞음", Marker::kAgree},
    {"같은상황", Marker::kAgree}, {"저희도", Marker::kAgree}, {"우리도", Marker::kAgree},
    {"이쪽도", Marker::kAgree}, {"그러네요", Marker::kAgree}, {"딱그래", Marker::kAgree},
    {"마찬가지", Marker::kAgree}, {"저도착", Marker::kNotAgree}, {"하나도", Marker::kNotAgree},
    {"여기도착", Marker::kNotAgree}, {"나도가", Marker::kNotAgree}, {"저도가", Marker::kNotAgree},
    {"싶", Marker::kNotAgree}, {"궁금", Marker::kNotAgree},
};
// clang-format on

// Cause words, most specific first within a cause. Priority between causes is in rules.cpp.
// clang-format off
inline constexpr CauseCue kCauseCues[] = {
    {"팝업스토어", Cause::kEvent, "팝업스토어"}, {"팝업", Cause::kEvent, "팝업스토어"},
    {"콘서트", Cause::kEvent, "콘서트"}, {"공연", Cause::kEvent, "공연"}, {"불꽃", Cause::kEvent, "불꽃축제"},
    {"축제", Cause::kEvent, "축제"}, {"페스티벌", Cause::kEvent, "페스티벌"}, {"군항제", Cause::kEvent, "군항제"},
    {"야구", Cause::kEvent, "야구 경기"}, {"축구", Cause::kEvent, "축구 경기"}, {"경기끝", Cause::kEvent, "경기 종료"},
    {"경기시작", Cause::kEvent, "경기 시작"}, {"경기있", Cause::kEvent, "경기"}, {"경기라", Cause::kEvent, "경기"},
    {"경기때문", Cause::kEvent, "경기"}, {"경기보러", Cause::kEvent, "경기"}, {"경기날", Cause::kEvent, "경기"},
    {"더블헤더", Cause::kEvent, "더블헤더 경기"}, {"개막", Cause::kEvent, "개막"}, {"a매치", Cause::kEvent, "A매치"},
    {"팬미팅", Cause::kEvent, "팬미팅"}, {"팬싸", Cause::kEvent, "팬사인회"}, {"사인회", Cause::kEvent, "사인회"},
    {"굿즈", Cause::kEvent, "굿즈 판매"}, {"한정판", Cause::kEvent, "한정판 판매"}, {"오픈런", Cause::kPeakTime, "오픈 시간 몰림"},
    {"오픈이벤트", Cause::kEvent, "오픈 이벤트"}, {"오픈날", Cause::kEvent, "오픈 첫날"},
    {"신규오픈", Cause::kEvent, "신규 오픈"}, {"그랜드오픈", Cause::kEvent, "그랜드 오픈"},
    {"세일", Cause::kEvent, "세일"}, {"할인행사", Cause::kEvent, "할인 행사"}, {"출시", Cause::kEvent, "신제품 출시"},
    {"발매", Cause::kEvent, "발매"}, {"런칭", Cause::kEvent, "런칭 행사"}, {"박람회", Cause::kEvent, "박람회"},
    {"특별전", Cause::kEvent, "특별전"}, {"전시", Cause::kEvent, "전시"}, {"마라톤", Cause::kEvent, "마라톤"},
    {"퍼레이드", Cause::kEvent, "퍼레이드"}, {"드론쇼", Cause::kEvent, "드론쇼"}, {"버스킹", Cause::kEvent, "버스킹"},
    {"행사", Cause::kEvent, "행사"}, {"이벤트", Cause::kEvent, "이벤트"}, {"야시장", Cause::kEvent, "야시장"},
    {"집회", Cause::kEvent, "집회"}, {"콜라보", Cause::kEvent, "콜라보 행사"}, {"불꽃쇼", Cause::kEvent, "불꽃쇼"},
    {"출퇴근", Cause::kPeakTime, "출퇴근 시간"}, {"출근시간", Cause::kPeakTime, "출근 시간"},
    {"출근길", Cause::kPeakTime, "출근길"}, {"출근때", Cause::kPeakTime, "출근 시간"},
    {"퇴근시간", Cause::kPeakTime, "퇴근 시간"}, {"퇴근길", Cause::kPeakTime, "퇴근길"},
    {"퇴근러시", Cause::kPeakTime, "퇴근 러시"}, {"퇴근때", Cause::kPeakTime, "퇴근 시간"},
    {"퇴근이라", Cause::kPeakTime, "퇴근 시간"}, {"러시아워", Cause::kPeakTime, "러시아워"},
    {"점심시간", Cause::kPeakTime, "점심시간"}, {"점심때", Cause::kPeakTime, "점심시간"},
    {"점심피크", Cause::kPeakTime, "점심 피크"}, {"점심이라", Cause::kPeakTime, "점심시간"},
    {"저녁시간", Cause::kPeakTime, "저녁 시간"}, {"저녁피크", Cause::kPeakTime, "저녁 피크"},
    {"저녁때", Cause::kPeakTime, "저녁 시간"}, {"피크", Cause::kPeakTime, "피크 시간"},
    {"주말", Cause::kPeakTime, "주말"}, {"연휴", Cause::kPeakTime, "연휴"}, {"휴일", Cause::kPeakTime, "휴일"},
    {"명절", Cause::kPeakTime, "명절"}, {"추석", Cause::kPeakTime, "추석 연휴"},
    {"설날", Cause::kPeakTime, "설 연휴"}, {"불금", Cause::kPeakTime, "금요일 저녁"},
    {"금요일저녁", Cause::kPeakTime, "금요일 저녁"}, {"방학", Cause::kPeakTime, "방학"},
    {"휴가철", Cause::kPeakTime, "휴가철"}, {"성수기", Cause::kPeakTime, "성수기"},
    {"하교", Cause::kPeakTime, "하교 시간"}, {"등교", Cause::kPeakTime, "등교 시간"},
    {"사고", Cause::kIncident, "사고"}, {"고장", Cause::kIncident, "고장"},
    {"지연", Cause::kIncident, "운행 지연"}, {"연착", Cause::kIncident, "연착"},
    {"결항", Cause::kIncident, "결항"}, {"운행중단", Cause::kIncident, "운행 중단"},
    {"운행중지", Cause::kIncident, "운행 중지"}, {"중단돼", Cause::kIncident, "운행 중단"},
    {"중단되", Cause::kIncident, "운행 중단"}, {"멈춰", Cause::kIncident, "운행 멈춤"},
    {"멈췄", Cause::kIncident, "운행 멈춤"}, {"멈춤", Cause::kIncident, "운행 멈춤"},
    {"장애", Cause::kIncident, "장애"}, {"오류", Cause::kIncident, "시스템 오류"},
    {"먹통", Cause::kIncident, "시스템 먹통"}, {"화재", Cause::kIncident, "화재"},
    {"정전", Cause::kIncident, "정전"}, {"탈선", Cause::kIncident, "탈선"},
    {"배차", Cause::kIncident, "배차 지연"}, {"비상정지", Cause::kIncident, "비상 정지"},
    {"환자발생", Cause::kIncident, "응급 환자"}, {"응급", Cause::kIncident, "응급 상황"},
    {"공사", Cause::kConstruction, "공사"}, {"통제", Cause::kConstruction, "통제"},
    {"폐쇄", Cause::kConstruction, "폐쇄"}, {"막아놔", Cause::kConstruction, "통로 차단"},
    {"막아놓", Cause::kConstruction, "통로 차단"}, {"차단", Cause::kConstruction, "차단"},
    {"우회", Cause::kConstruction, "우회 통행"}, {"보수", Cause::kConstruction, "보수 공사"},
    {"펜스", Cause::kConstruction, "공사 펜스"}, {"경찰", Cause::kConstruction, "경찰 통제"},
    {"리모델링", Cause::kConstruction, "리모델링"}, {"점검중", Cause::kConstruction, "시설 점검"},
    {"비와", Cause::kWeather, "비"}, {"비가", Cause::kWeather, "비"}, {"비오", Cause::kWeather, "비"},
    {"비때문", Cause::kWeather, "비"}, {"비내", Cause::kWeather, "비"}, {"비땜", Cause::kWeather, "비"},
    {"우산", Cause::kWeather, "비"}, {"소나기", Cause::kWeather, "소나기"}, {"폭우", Cause::kWeather, "폭우"},
    {"장마", Cause::kWeather, "장마"}, {"태풍", Cause::kWeather, "태풍"}, {"눈와", Cause::kWeather, "눈"},
    {"눈이와", Cause::kWeather, "눈"}, {"눈오", Cause::kWeather, "눈"}, {"눈이오", Cause::kWeather, "눈"},
    {"폭설", Cause::kWeather, "폭설"}, {"더워", Cause::kWeather, "더위"}, {"더위", Cause::kWeather, "더위"},
    {"더운", Cause::kWeather, "더위"}, {"폭염", Cause::kWeather, "폭염"}, {"추워", Cause::kWeather, "추위"},
    {"추위", Cause::kWeather, "추위"}, {"추운", Cause::kWeather, "추위"}, {"한파", Cause::kWeather, "한파"},
    {"날씨", Cause::kWeather, "날씨"}, {"미세먼지", Cause::kWeather, "미세먼지"}, {"황사", Cause::kWeather, "황사"},
    {"눈펑펑", Cause::kWeather, "폭설"}, {"눈보라", Cause::kWeather, "눈보라"}, {"눈때문", Cause::kWeather, "눈"},
    {"눈덕분", Cause::kWeather, "눈"}, {"비덕분", Cause::kWeather, "비"}, {"비뚫", Cause::kWeather, "비"},
    {"눈뚫", Cause::kWeather, "눈"}, {"이날씨", Cause::kWeather, "날씨"}, {"날씨때문", Cause::kWeather, "날씨"},
    {"토요일", Cause::kPeakTime, "토요일"}, {"일요일", Cause::kPeakTime, "일요일"},
    {"월요일", Cause::kPeakTime, "월요일"}, {"금요일", Cause::kPeakTime, "금요일"},
    {"토욜", Cause::kPeakTime, "토요일"}, {"일욜", Cause::kPeakTime, "일요일"},
    {"개강", Cause::kPeakTime, "개강 시즌"}, {"개학", Cause::kPeakTime, "개학 시즌"},
    {"졸업식", Cause::kEvent, "졸업식"}, {"입학식", Cause::kEvent, "입학식"}, {"무정차", Cause::kIncident, "무정차 통과"},
    {"운행재개", Cause::kIncident, "운행 중단 후 재개"}, {"출입금지", Cause::kConstruction, "출입 통제"},
    {"통행제한", Cause::kConstruction, "통행 제한"}, {"땡볕", Cause::kWeather, "땡볕"}, {"햇볕", Cause::kWeather, "햇볕"},
    {"비바람", Cause::kWeather, "비바람"}, {"우박", Cause::kWeather, "우박"}, {"인플루언서", Cause::kOther, "인플루언서 방문"},
    {"sns", Cause::kOther, "SNS 입소문"}, {"인스타", Cause::kOther, "SNS 입소문"}, {"티비", Cause::kOther, "방송 소개"},
    {"단체", Cause::kOther, "단체 손님"}, {"관광객", Cause::kOther, "관광객"}, {"관광버스", Cause::kOther, "관광버스"},
    {"수학여행", Cause::kOther, "수학여행단"}, {"체험학습", Cause::kOther, "체험학습 학생"},
    {"현장학습", Cause::kOther, "현장학습 학생"}, {"촬영", Cause::kOther, "촬영"}, {"방송", Cause::kOther, "방송"},
    {"유튜버", Cause::kOther, "유튜버 방문"}, {"연예인", Cause::kOther, "연예인 방문"},
    {"투어", Cause::kOther, "단체 투어"}, {"티비나온", Cause::kOther, "방송 소개"}, {"소문", Cause::kOther, "입소문"},
    // Issue 13, second round: the time of day or week a quiet or busy report names
    // ("평일이라 한산", "새벽이라 그런가"), written forms of events, breakdowns, control and
    // staffing found missing across the written sets (docs/quality.md).
    {"평일", Cause::kPeakTime, "평일"}, {"weekday", Cause::kPeakTime, "평일"},
    {"weekend", Cause::kPeakTime, "주말"}, {"rushhour", Cause::kPeakTime, "러시아워"},
    {"peakhour", Cause::kPeakTime, "피크 시간"}, {"lunch", Cause::kPeakTime, "점심시간"},
    {"새벽", Cause::kPeakTime, "새벽 시간"}, {"아침시간", Cause::kPeakTime, "아침 시간"},
    {"아침이라", Cause::kPeakTime, "아침 시간"}, {"오전이라", Cause::kPeakTime, "오전 시간"},
    {"오후라", Cause::kPeakTime, "오후 시간"}, {"저녁이라", Cause::kPeakTime, "저녁 시간"},
    {"시간대라", Cause::kPeakTime, "붐비는 시간대"}, {"개장직후", Cause::kPeakTime, "개장 직후"},
    {"오픈직후", Cause::kPeakTime, "오픈 직후"}, {"시넘어", Cause::kPeakTime, "시간대"},
    {"시넘으", Cause::kPeakTime, "시간대"}, {"시넘으니", Cause::kPeakTime, "시간대"},
    {"월초", Cause::kPeakTime, "월초"}, {"월말", Cause::kPeakTime, "월말"},
    {"어린이날", Cause::kPeakTime, "어린이날 연휴"}, {"공휴일", Cause::kPeakTime, "공휴일"},
    {"바람불", Cause::kWeather, "강풍"}, {"바람땜", Cause::kWeather, "강풍"},
    {"바람때문", Cause::kWeather, "강풍"}, {"바람이많", Cause::kWeather, "강풍"},
    {"강풍", Cause::kWeather, "강풍"}, {"눈길", Cause::kWeather, "눈길"}, {"빙판", Cause::kWeather, "빙판길"},
    {"비그쳐", Cause::kWeather, "비"}, {"비그치", Cause::kWeather, "비"},
    {"기온", Cause::kWeather, "기온"}, {"무더위", Cause::kWeather, "무더위"},
    // Twenty-second round (spent blind-62): rough seas stop ferries (not 안개: a fog delay is
    // INCIDENT in blind-9, WEATHER in blind-67).
    {"풍랑", Cause::kWeather, "풍랑"},
    {"기상악화", Cause::kWeather, "기상 악화"},
    {"매진", Cause::kEvent, "매진 행사"}, {"시리즈", Cause::kEvent, "시리즈 경기"},
    {"개장첫", Cause::kEvent, "개장 첫 주"}, {"야간개장", Cause::kEvent, "야간 개장"},
    {"벚꽃", Cause::kEvent, "벚꽃 시즌"}, {"해맞이", Cause::kEvent, "해맞이"},
    {"설명회", Cause::kEvent, "설명회"}, {"시사회", Cause::kEvent, "시사회"},
    {"무대인사", Cause::kEvent, "무대인사"}, {"선착순", Cause::kEvent, "선착순 행사"},
    {"수량한정", Cause::kEvent, "한정 판매"}, {"한정수량", Cause::kEvent, "한정 판매"},
    {"리뉴얼", Cause::kEvent, "리뉴얼 오픈"}, {"오픈기념", Cause::kEvent, "오픈 기념 행사"},
    {"모터쇼", Cause::kEvent, "모터쇼"}, {"에어쇼", Cause::kEvent, "에어쇼"},
    {"할로윈", Cause::kEvent, "핼러윈"}, {"핼러윈", Cause::kEvent, "핼러윈"},
    {"크리스마스", Cause::kEvent, "크리스마스"}, {"대동제", Cause::kEvent, "대학 축제"},
    {"플레이오프", Cause::kEvent, "플레이오프 경기"}, {"결승", Cause::kEvent, "결승 경기"},
    {"개막전", Cause::kEvent, "개막전"}, {"추첨", Cause::kEvent, "추첨 행사"},
    {"경품", Cause::kEvent, "경품 행사"}, {"증정", Cause::kEvent, "증정 행사"},
    {"concert", Cause::kEvent, "콘서트"}, {"festival", Cause::kEvent, "축제"},
    {"점검때문", Cause::kIncident, "점검으로 운행 중단"}, {"재가동", Cause::kIncident, "운행 중단 후 재가동"},
    {"딜레이", Cause::kIncident, "지연"}, {"delay", Cause::kIncident, "지연"},
    {"cancel", Cause::kIncident, "취소"}, {"broken", Cause::kIncident, "고장"},
    {"가방검사", Cause::kConstruction, "가방 검사"}, {"소지품검사", Cause::kConstruction, "소지품 검사"},
    {"보안검사", Cause::kConstruction, "보안 검사"}, {"안전요원", Cause::kConstruction, "안전요원 통제"},
    {"인원제한", Cause::kConstruction, "인원 제한"}, {"진입금지", Cause::kConstruction, "진입 통제"},
    {"크루즈", Cause::kOther, "크루즈 관광객"}, {"만열어", Cause::kOther, "창구 일부만 운영"},
    {"만열려", Cause::kOther, "창구 일부만 운영"}, {"만운영", Cause::kOther, "창구 일부만 운영"},
    {"하나닫", Cause::kOther, "창구 일부 닫힘"}, {"인력부족", Cause::kOther, "인력 부족"},
    {"직원부족", Cause::kOther, "직원 부족"},
};
// clang-format on

// Words in a spot's name or description that make it an event venue: a crowd
// there with no stated cause is there for the event.
// Fourth round of issue 13: more kinds of event, from the 19 written files (busy reports at
// spots named so are labeled EVENT: 고사장 24 of 27, 굿즈 24 of 35, 아레나 12 of 16, 행사 10
// of 12, 마라톤 9 of 13, 해맞이 9 of 9, 대동제 5 of 6, the list before 61-84 %).
inline constexpr std::string_view kEventSpotWords[] = {
    "팝업", "축제", "야구장", "경기장", "공연장", "콘서트", "특별전", "군항제", "페스티벌", "불꽃",
    "고사장", "굿즈", "아레나", "행사", "마라톤", "해맞이", "대동제", "박람회", "바자회", "팬미팅",
    // Eighth round (blind-28, fans): venues and queues that exist for a show or a fan event.
    "공연", "뮤지컬", "팬사인회", "팬싸", "생일카페", "생카", "럭키드로우", "스탠딩", "시어터",
    "아트센터"};

}  // namespace nunchi::judges::lex
