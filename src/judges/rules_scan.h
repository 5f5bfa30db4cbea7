// The lexicon scanner behind Rules: finds level cues (longest match first,
// with negation applied), markers, cause words and waiting-time / queue-size
// figures in a compact text. Internal to the judges module. The index is built
// once and immutable; Scan() is safe from any thread.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "judges/lexicon.h"
#include "judges/rule_quantity.h"
#include "judges/rules.h"
#include "judges/text_util.h"

namespace nunchi::judges {

struct LevelHit {
  size_t pos = 0, end = 0;
  Level level = Level::kUnknown;
  float weight = 0;
  uint16_t clause = 0;
  bool dropped = false;
  bool negated = false;  // "안 붐벼요", "붐비지 않아요": level is the cue's negated meaning
};
struct MarkerHit {
  size_t pos = 0, end = 0;
  lex::Marker kind{};
  uint16_t clause = 0;
  uint8_t origin = 0;  // other-place markers: PlaceOrigin (rule_passes.h)
};
struct CauseHit {
  size_t pos = 0;
  const lex::CauseCue* cue = nullptr;
  uint16_t clause = 0;
  bool in_spot = false;  // the word is part of the spot's name or description
};
struct NumberHit {
  size_t pos = 0;
  WaitInfo info;
  uint16_t clause = 0;
  bool dropped = false;
  FigureForm form = FigureForm::kDigits;
  size_t len = 0;  // bytes of the figure in the compact text
};
struct ScanHits {
  std::vector<LevelHit> levels;
  std::vector<MarkerHit> markers;
  std::vector<CauseHit> causes;
  std::vector<NumberHit> numbers;
};

struct Rules::Index {
  struct Ref {
    std::string_view pat;
    uint8_t table;  // 0 level, 1 marker, 2 cause
    uint16_t idx;
    char32_t second;  // the pattern's second code point, 0 if none (a cheap pre-check)
  };
  // Patterns by their first code point, longest first: Hangul syllables and ASCII in flat
  // tables (the hot path), everything else in a map.
  std::vector<std::vector<Ref>> hangul;  // 11172 syllables
  std::vector<std::vector<Ref>> ascii;   // 128
  std::unordered_map<char32_t, std::vector<Ref>> other;
  const std::vector<Ref>* Find(char32_t cp) const;
};

const Rules::Index& GetScanIndex();

// spot_compact: the spot's name and description in compact form, or null. Other-place
// markers that the spot itself names are not reported.
// excluded: the places the spot's description leaves out (spot_scope.h), or null; each one
// named in a clause makes that clause about another place.
ScanHits Scan(const Rules::Index& index, const CompactText& c, const std::string* spot_compact,
              const std::vector<std::string>* excluded = nullptr);

// Other-place markers found from the text's shape (rules_places.cpp); spot may be null.
void ScanNumberedPlaces(std::string_view t, const std::string* spot, const CompactText& c,
                        ScanHits* hits);
void ScanSides(std::string_view t, const std::string* spot, const CompactText& c, ScanHits* hits);
void ScanBeside(std::string_view t, const std::string* spot, const CompactText& c, ScanHits* hits);
void ScanNamedPlaces(std::string_view t, const std::string* spot, const CompactText& c,
                     ScanHits* hits);

}  // namespace nunchi::judges
