#include "bench/compare.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>

#include "bench/compare_summary.h"
#include "bench/gguf_info.h"

namespace nunchi::bench {
namespace {

std::vector<CycleResult> Cycles(std::vector<double> latencies, std::vector<bool> cut = {}) {
  std::vector<CycleResult> v;
  for (size_t i = 0; i < latencies.size(); ++i) {
    CycleResult c;
    c.index = static_cast<int>(i);
    c.latency_s = latencies[i];
    c.cut = i < cut.size() && cut[i];
    c.spots_ok = c.cut ? 0 : 6;
    c.spots_failed = c.cut ? 6 : 0;
    c.queue_before = 0;
    v.push_back(c);
  }
  return v;
}

TEST(Compare, PercentilesOfAnsweredCyclesAreExact) {
  auto p = CensoredPercentile(Cycles({1, 2, 3, 4, 5, 6, 7, 8, 9, 10}), 50);
  EXPECT_EQ(p.value, 5);
  EXPECT_EQ(p.bound, Bounded::kExact);
  EXPECT_EQ(CensoredPercentile({}, 50).bound, Bounded::kUnknown);
}

TEST(Compare, ACutCycleAtOrBelowTheRankMakesALowerBound) {
  // Ten requests, the two slowest cut at the 50 s deadline.
  auto cycles = Cycles({1, 2, 3, 4, 5, 6, 7, 8, 50, 50},
                       {false, false, false, false, false, false, false, false, true, true});
  EXPECT_EQ(CensoredPercentile(cycles, 50).bound, Bounded::kExact);
  auto p95 = CensoredPercentile(cycles, 95);
  EXPECT_EQ(p95.value, 50);
  EXPECT_EQ(p95.bound, Bounded::kAtLeast);
  // A cut cycle ranked below an answered one (cut at 50 s, answered at 52 s)
  // could really be slower: the percentile at 52 s is a lower bound too.
  auto mixed = Cycles({50, 52}, {true, false});
  auto max = CensoredPercentile(mixed, 100);
  EXPECT_EQ(max.value, 52);
  EXPECT_EQ(max.bound, Bounded::kAtLeast);
  // Ties: the answered one ranks first, so it stays exact.
  auto tie = Cycles({50, 50}, {true, false});
  EXPECT_EQ(CensoredPercentile(tie, 50).bound, Bounded::kExact);
}

TEST(Compare, RatiosCarryTheBounds) {
  const Bounded exact10{10, Bounded::kExact}, exact2{2, Bounded::kExact};
  const Bounded atleast50{50, Bounded::kAtLeast};
  auto r = RatioOf(exact10, exact2);
  EXPECT_DOUBLE_EQ(r.value, 5);
  EXPECT_EQ(r.bound, Bounded::kExact);
  EXPECT_EQ(RatioOf(atleast50, exact2).bound, Bounded::kAtLeast);  // numerator censored
  EXPECT_EQ(RatioOf(exact10, atleast50).bound, Bounded::kAtMost);  // denominator censored
  EXPECT_EQ(RatioOf(atleast50, atleast50).bound, Bounded::kUnknown);
  EXPECT_EQ(RatioOf(exact10, {0, Bounded::kExact}).bound, Bounded::kUnknown);
  EXPECT_EQ(FormatRatio("b/a P95", {12.34, Bounded::kExact}), "b/a P95 = 12.3×");
  EXPECT_EQ(FormatRatio("b/a P95", {123.4, Bounded::kAtLeast}), "b/a P95 ≥ 123×");
  EXPECT_EQ(FormatRatio("c/a P50", {0.5, Bounded::kAtMost}), "c/a P50 ≤ 0.50×");
  EXPECT_EQ(FormatRatio("b/a P50", {0, Bounded::kUnknown}, "why"), "b/a P50: n/a (why)");
  EXPECT_EQ(FormatLatency({50.0123, Bounded::kAtLeast}), "≥ 50.012 s");
}

std::vector<ArmFigures> ThreeArms() {
  Conditions c;
  c.quantization = "Q8_0";
  c.concurrency = 6;
  std::vector<double> a, b, cc;
  std::vector<bool> all_cut;
  for (int i = 0; i < 20; ++i) {
    a.push_back(2 + 0.1 * i);   // P50 2.9 s, P95 3.8 s
    b.push_back(50.05);         // every request cut at the deadline
    cc.push_back(4 + 0.2 * i);  // P50 5.8 s, P95 7.6 s
    all_cut.push_back(true);
  }
  return {MakeArmFigures("a", "nunchi, in-process llama.cpp", c, Cycles(a), 0.5),
          MakeArmFigures("b", "naive client → llama-server", c, Cycles(b, all_cut), 0.5),
          MakeArmFigures("c", "nunchi remote backend → llama-server", c, Cycles(cc), 0.5)};
}

TEST(Compare, RatiosToArmAWithACensoredArm) {
  Comparison c = Compare(ThreeArms());
  ASSERT_EQ(c.ratios.size(), 4u);
  EXPECT_EQ(c.ratios[0].name, "b/a P50");
  EXPECT_EQ(c.ratios[1].name, "b/a P95");
  EXPECT_EQ(c.ratios[2].name, "c/a P50");
  EXPECT_EQ(c.ratios[3].name, "c/a P95");
  EXPECT_EQ(c.ratios[1].ratio.bound, Bounded::kAtLeast);
  EXPECT_NEAR(c.ratios[1].ratio.value, 50.05 / 3.8, 1e-9);
  EXPECT_EQ(c.ratios[1].text, "b/a P95 ≥ 13.2×");
  EXPECT_EQ(c.ratios[3].ratio.bound, Bounded::kExact);
  EXPECT_EQ(c.ratios[3].text, "c/a P95 = 2.00×");
  EXPECT_TRUE(c.arms[1].never_in_time);
  EXPECT_FALSE(c.arms[0].never_in_time);
  ASSERT_EQ(c.notes.size(), 1u);
  EXPECT_NE(c.notes[0].find("(b) never answered inside the 50 s deadline"), std::string::npos);

  const std::string table = CompareTable(c);
  EXPECT_NE(table.find("≥ 50.050 s"), std::string::npos) << table;
  EXPECT_NE(table.find("b/a P95 ≥ 13.2×"), std::string::npos) << table;
  EXPECT_NE(table.find("0/120"), std::string::npos) << table;  // (b): every spot FAILED
  EXPECT_NE(table.find("20 (20 unanswered)"), std::string::npos) << table;

  auto j = CompareJson(c, {{"threads", 2}});
  EXPECT_EQ(j["threads"], 2);
  ASSERT_EQ(j["arms"].size(), 3u);
  EXPECT_EQ(j["arms"][1]["summary"]["latency_s"]["p95"]["bound"], "at_least");
  EXPECT_EQ(j["arms"][1]["summary"]["never_answered_in_time"], true);
  EXPECT_EQ(j["arms"][0]["conditions"]["quantization"], "Q8_0");
  EXPECT_EQ(j["ratios"]["b/a P95"]["bound"], "at_least");
  EXPECT_EQ(j["ratios"]["c/a P50"]["bound"], "exact");
  EXPECT_NEAR(j["ratios"]["c/a P50"]["value"].get<double>(), 5.8 / 2.9, 1e-9);

  const std::string csv = CompareCsv(c);
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 4);
  EXPECT_NE(csv.find("\nb,"), std::string::npos);
  EXPECT_NE(csv.find(",at_least,"), std::string::npos);
}

TEST(Compare, AnArmThatDidNotRunHasNoRatio) {
  auto arms = ThreeArms();
  arms[0] = MakeArmFigures("a", "nunchi", {}, {}, 0.5);
  arms[0].error = "nunchi serve exited at start";
  Comparison c = Compare(arms);
  ASSERT_EQ(c.ratios.size(), 4u);
  for (const auto& r : c.ratios) {
    EXPECT_EQ(r.ratio.bound, Bounded::kUnknown);
    EXPECT_NE(r.text.find("n/a ((a) did not run)"), std::string::npos) << r.text;
  }
  EXPECT_NE(c.notes[0].find("(a) did not run: nunchi serve exited"), std::string::npos);
  // Without (a) there is nothing to divide by.
  EXPECT_TRUE(Compare({ThreeArms()[1], ThreeArms()[2]}).ratios.empty());
}

TEST(Compare, ParseArms) {
  std::vector<std::string> arms;
  std::string error;
  ASSERT_TRUE(ParseArms("a,b,c", &arms, &error));
  EXPECT_EQ(arms, (std::vector<std::string>{"a", "b", "c"}));
  ASSERT_TRUE(ParseArms("c, a", &arms, &error));
  EXPECT_EQ(arms, (std::vector<std::string>{"a", "c"}));
  EXPECT_FALSE(ParseArms("a,a", &arms, &error));
  EXPECT_FALSE(ParseArms("a,d", &arms, &error));
  EXPECT_FALSE(ParseArms("", &arms, &error));
}

// A minimal GGUF v3 header: key-value pairs, then tensor infos.
class GgufWriter {
 public:
  template <typename T>
  void Put(T v) {
    out_.append(reinterpret_cast<const char*>(&v), sizeof v);
  }
  void Str(const std::string& s) {
    Put<uint64_t>(s.size());
    out_ += s;
  }
  std::string Write(const std::string& name) {
    const std::string path =
        (std::filesystem::temp_directory_path() / (name + std::to_string(getpid()) + ".gguf"))
            .string();
    std::ofstream(path, std::ios::binary) << out_;
    return path;
  }

 private:
  std::string out_;
};

TEST(Compare, QuantizationFromTheGgufHeader) {
  GgufWriter w;
  w.Put<uint32_t>(0x46554747);  // "GGUF"
  w.Put<uint32_t>(3);
  w.Put<uint64_t>(0);  // tensors
  w.Put<uint64_t>(4);  // key-value pairs
  w.Str("general.architecture");
  w.Put<uint32_t>(8);
  w.Str("llama");
  w.Str("tokenizer.ggml.tokens");  // an array of strings to skip
  w.Put<uint32_t>(9);
  w.Put<uint32_t>(8);
  w.Put<uint64_t>(3);
  for (const char* t : {"a", "bb", "한국"}) w.Str(t);
  w.Str("general.name");
  w.Put<uint32_t>(8);
  w.Str("nunchi-random-tiny");
  w.Str("general.file_type");
  w.Put<uint32_t>(4);
  w.Put<uint32_t>(7);  // MOSTLY_Q8_0
  const std::string path = w.Write("nunchi-gguf-info-");
  GgufInfo info;
  std::string error;
  ASSERT_TRUE(ReadGgufInfo(path, &info, &error)) << error;
  EXPECT_EQ(info.name, "nunchi-random-tiny");
  EXPECT_EQ(info.architecture, "llama");
  EXPECT_EQ(info.file_type, 7);
  EXPECT_EQ(info.quantization, "Q8_0");
  std::filesystem::remove(path);

  // No file type: the type of most 2-D weights (1-D norms are F32).
  GgufWriter t;
  t.Put<uint32_t>(0x46554747);
  t.Put<uint32_t>(3);
  t.Put<uint64_t>(3);
  t.Put<uint64_t>(0);
  auto tensor = [&](const char* name, std::vector<uint64_t> dims, uint32_t type) {
    t.Str(name);
    t.Put<uint32_t>(static_cast<uint32_t>(dims.size()));
    for (auto d : dims) t.Put<uint64_t>(d);
    t.Put<uint32_t>(type);
    t.Put<uint64_t>(0);
  };
  tensor("norm.weight", {100000}, 0);
  tensor("blk.0.ffn_up.weight", {64, 256}, 1);    // F16
  tensor("blk.0.attn_q.weight", {64, 1024}, 12);  // Q4_K
  const std::string path2 = t.Write("nunchi-gguf-tensors-");
  ASSERT_TRUE(ReadGgufInfo(path2, &info, &error)) << error;
  EXPECT_EQ(info.file_type, -1);
  EXPECT_EQ(info.quantization, "Q4_K");
  std::filesystem::remove(path2);

  EXPECT_FALSE(ReadGgufInfo("/nonexistent.gguf", &info, &error));
  EXPECT_EQ(FileTypeName(15), "Q4_K_M");
  EXPECT_EQ(FileTypeName(1), "F16");
}

}  // namespace
}  // namespace nunchi::bench
