// HashRing: consistent hashing with bounded loads for the remote pool's
// bundle affinity. Each member sits on the ring at `vnodes` points (hashes of
// "<name>#<i>"); a key (a bundle) belongs to the first member clockwise of
// the key's hash, so adding, losing or regaining one member moves only the
// keys on its arcs. PickBounded adds the load bound of Mirrokni, Thorup and
// Zadimoghaddam ("Consistent Hashing with Bounded Loads", 2017): a member
// takes a new request only while its in-flight count + 1 is at most
// ceil((1 + epsilon) * (in flight in all + 1) / ready members); otherwise
// the request spills to the next member on the ring.
//
// Pure and immutable after construction: safe from any thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace nunchi::remote {

// 64-bit hash of a key: FNV-1a, then the murmur3 finalizer (so that keys
// differing in one trailing character land far apart on the ring).
uint64_t RingHash(std::string_view key);

class HashRing {
 public:
  // `names` must be distinct; member i is names[i].
  explicit HashRing(const std::vector<std::string>& names, int vnodes = 160);

  // Every member once, in ring order from the key's point: [0] is its home.
  std::vector<size_t> Walk(uint64_t key_hash) const;
  size_t members() const { return members_; }

 private:
  size_t members_ = 0;
  std::vector<std::pair<uint64_t, size_t>> points_;  // sorted by hash
};

inline constexpr size_t kNoMember = static_cast<size_t>(-1);

// The member a request goes to: the first in `order` (a Walk) that is ready
// and under the load bound above, given each member's in-flight count in
// `load` (indexed by member); when every ready member is at its bound, the
// first ready one; kNoMember when none is ready. Members whose entry in
// `excluded` is true are skipped (already tried for this request).
size_t PickBounded(const std::vector<size_t>& order, const std::vector<int>& load,
                   const std::vector<bool>& ready, const std::vector<bool>& excluded,
                   double epsilon);

}  // namespace nunchi::remote
