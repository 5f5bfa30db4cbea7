#include "judges/features.h"

#include <algorithm>
#include <string>

#include "judges/text_util.h"

namespace nunchi::judges {
namespace {

uint32_t Hash(char kind, const char32_t* cps, size_t n) {
  uint32_t h = 2166136261u ^ static_cast<uint32_t>(kind);
  for (size_t i = 0; i < n; ++i) {
    uint32_t c = static_cast<uint32_t>(cps[i]);
    for (int b = 0; b < 4; ++b) {
      h ^= (c >> (8 * b)) & 0xFF;
      h *= 16777619u;
    }
  }
  h ^= h >> 15;
  h *= 0x2c1b3c6dU;
  h ^= h >> 12;
  return h & (kFeatureDim - 1);
}

bool IsWordPunct(char32_t cp) {
  return cp < 0x80 && !((cp >= '0' && cp <= '9') || (cp >= 'a' && cp <= 'z') || cp == '#');
}

}  // namespace

std::vector<std::pair<uint32_t, float>> CountFeatures(std::string_view text,
                                                      const FeatureConfig& config) {
  std::vector<char32_t> chars;  // without spaces
  std::vector<uint32_t> ids;
  chars.reserve(text.size());
  std::vector<char32_t> word, prev;  // prev: the last word, with a separator, for bigrams
  auto flush_word = [&]() {
    if (word.empty()) return;
    ids.push_back(Hash('w', word.data(), word.size()));
    if (config.word_bigrams) {
      if (!prev.empty()) {
        prev.push_back(U' ');
        prev.insert(prev.end(), word.begin(), word.end());
        ids.push_back(Hash('b', prev.data(), prev.size()));
      }
      prev = word;
    }
    word.clear();
  };
  for (size_t i = 0; i < text.size();) {
    char32_t cp = NextCodePoint(text, i);
    if (cp >= 'A' && cp <= 'Z') cp = cp - 'A' + 'a';
    if (cp >= '0' && cp <= '9') cp = '#';
    if (IsSpace(cp)) {
      flush_word();
      continue;
    }
    chars.push_back(cp);
    if (IsWordPunct(cp) || IsEmojiOrSymbol(cp)) {
      flush_word();
    } else if (word.empty() || word.back() != '#' || cp != '#') {
      word.push_back(cp);
    }
  }
  flush_word();
  const size_t char_max = static_cast<size_t>(std::clamp(config.char_max, 1, 5));
  for (size_t i = 0; i < chars.size(); ++i)
    for (size_t n = 1; n <= char_max && i + n <= chars.size(); ++n)
      ids.push_back(Hash(static_cast<char>('0' + n), &chars[i], n));
  std::sort(ids.begin(), ids.end());
  std::vector<std::pair<uint32_t, float>> out;
  for (uint32_t id : ids) {
    if (!out.empty() && out.back().first == id) {
      out.back().second += 1;
    } else {
      out.emplace_back(id, 1.0f);
    }
  }
  return out;
}

}  // namespace nunchi::judges
