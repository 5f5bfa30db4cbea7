#include "engines/remote/hash_ring.h"

#include <algorithm>
#include <cmath>

namespace nunchi::remote {

uint64_t RingHash(std::string_view key) {
  uint64_t h = 1469598103934665603ULL;
  for (unsigned char c : key) {
    h ^= c;
    h *= 1099511628211ULL;
  }
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdULL;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ULL;
  h ^= h >> 33;
  return h;
}

HashRing::HashRing(const std::vector<std::string>& names, int vnodes) : members_(names.size()) {
  vnodes = std::max(1, vnodes);
  points_.reserve(names.size() * static_cast<size_t>(vnodes));
  for (size_t m = 0; m < names.size(); ++m)
    for (int v = 0; v < vnodes; ++v)
      points_.emplace_back(RingHash(names[m] + "#" + std::to_string(v)), m);
  std::sort(points_.begin(), points_.end());
}

std::vector<size_t> HashRing::Walk(uint64_t key_hash) const {
  std::vector<size_t> order;
  if (points_.empty()) return order;
  order.reserve(members_);
  std::vector<bool> seen(members_, false);
  auto it = std::lower_bound(points_.begin(), points_.end(), std::make_pair(key_hash, size_t{0}));
  size_t start = static_cast<size_t>(it - points_.begin());
  for (size_t i = 0; i < points_.size() && order.size() < members_; ++i) {
    size_t m = points_[(start + i) % points_.size()].second;
    if (!seen[m]) seen[m] = true, order.push_back(m);
  }
  return order;
}

size_t PickBounded(const std::vector<size_t>& order, const std::vector<int>& load,
                   const std::vector<bool>& ready, const std::vector<bool>& excluded,
                   double epsilon) {
  long total = 0;
  size_t n_ready = 0;
  for (size_t m = 0; m < load.size(); ++m) {
    total += load[m];
    if (ready[m] && !excluded[m]) ++n_ready;
  }
  if (n_ready == 0) return kNoMember;
  const double bound = std::ceil((1.0 + std::max(0.0, epsilon)) * static_cast<double>(total + 1) /
                                 static_cast<double>(n_ready));
  size_t first_ready = kNoMember;
  for (size_t m : order) {
    if (!ready[m] || excluded[m]) continue;
    if (first_ready == kNoMember) first_ready = m;
    if (static_cast<double>(load[m] + 1) <= bound) return m;
  }
  return first_ready;
}

}  // namespace nunchi::remote
