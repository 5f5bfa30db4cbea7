// Rng: a small seeded random source (splitmix64) whose sequence is identical on
// every platform, so a seed always renders the same image. Not thread-safe:
// use one Rng per thread.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace nunchi::render {

class Rng {
 public:
  explicit Rng(uint64_t seed) : state_(seed) {}

  uint64_t Next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  // Uniform integer in [lo, hi].
  int Int(int lo, int hi) {
    return lo + static_cast<int>(Next() % static_cast<uint64_t>(hi - lo + 1));
  }
  // Uniform real in [lo, hi).
  double Real(double lo, double hi) {
    return lo + (hi - lo) * static_cast<double>(Next() >> 11) * 0x1.0p-53;
  }
  bool Chance(double p) { return Real(0, 1) < p; }
  // Approximately normal (sum of uniforms), mean 0, standard deviation 1.
  double Gauss() {
    double s = 0;
    for (int i = 0; i < 4; ++i) s += Real(0, 1);
    return (s - 2.0) * 1.7320508;
  }
  template <typename T>
  T Pick(const std::vector<T>& v) {
    return v[static_cast<size_t>(Int(0, static_cast<int>(v.size()) - 1))];
  }
  std::string Digits(int n) {
    std::string s;
    for (int i = 0; i < n; ++i) s += static_cast<char>('0' + Int(0, 9));
    return s;
  }

 private:
  uint64_t state_;
};

}  // namespace nunchi::render
