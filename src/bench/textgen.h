// TextGen: a seeded generator of Korean crowd-report texts (posts and
// comments about a spot) for the benchmark. Mostly short texts, now and then
// a long post of 200 to 500 characters; reports of every level and cause,
// chatter, questions, replies. No two texts it returns are ever equal: it
// remembers every text it gave out and varies a repeat until it is new.
// The phrase material is written for this generator.
//
// Thread-safety: none; one generator per backend simulator.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <unordered_set>

namespace nunchi::bench {

class TextGen {
 public:
  explicit TextGen(uint64_t seed, double long_share = 0.02);

  // A post that opens a bundle about `place` (the spot's name).
  std::string Post(const std::string& place);
  // A comment in a bundle about `place`: a report, a reply or chatter.
  std::string Comment(const std::string& place);

  size_t issued() const { return seen_.size(); }
  std::mt19937_64& rng() { return rng_; }

  // Length in Unicode code points of UTF-8 text.
  static size_t CodePoints(const std::string& s);

 private:
  std::string Report(bool post, const std::string& place, int level = -1);
  std::string Chatter(const std::string& place);
  std::string Reply();
  std::string LongPost(const std::string& place);
  std::string Unique(std::string text);
  int Uniform(int lo, int hi);
  bool Chance(double p);
  template <typename C>
  const std::string& Pick(const C& c) {
    return c[static_cast<size_t>(Uniform(0, static_cast<int>(std::size(c)) - 1))];
  }

  std::mt19937_64 rng_;
  double long_share_;
  std::unordered_set<std::string> seen_;
  uint64_t counter_ = 0;
};

}  // namespace nunchi::bench
