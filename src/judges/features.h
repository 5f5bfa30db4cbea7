// Text features for the light classifier: hashed character n-grams of the
// text without spaces (digits folded to '#'), hashed word unigrams and,
// when asked, word bigrams; then sublinear TF-IDF with L2 normalisation
// (classifier.cpp). Which n-grams are counted is a FeatureConfig the model
// carries, so a model trained with one config is read with the same one.
// Pure functions; safe from any thread.
#pragma once

#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

namespace nunchi::judges {

inline constexpr uint32_t kFeatureBits = 18;
inline constexpr uint32_t kFeatureDim = 1u << kFeatureBits;

struct FeatureConfig {
  int char_max = 3;           // character n-grams 1..char_max (1..5)
  bool word_bigrams = false;  // adjacent word pairs as well as words
};

// Sorted, distinct hashed feature ids of text with their raw counts.
std::vector<std::pair<uint32_t, float>> CountFeatures(std::string_view text,
                                                      const FeatureConfig& config = {});

}  // namespace nunchi::judges
