// Text features for the light classifier: hashed character 1–3-grams of the
// text without spaces (digits folded to '#') and hashed word unigrams, then
// sublinear TF-IDF with L2 normalisation. Pure functions; safe from any thread.
#pragma once

#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

namespace nunchi::judges {

inline constexpr uint32_t kFeatureBits = 18;
inline constexpr uint32_t kFeatureDim = 1u << kFeatureBits;

// Sorted, distinct hashed feature ids of text with their raw counts.
std::vector<std::pair<uint32_t, float>> CountFeatures(std::string_view text);

}  // namespace nunchi::judges
