// Opens a report in headless Chromium and checks the screenshot is a real
// page: a PNG of the window's size, several times larger than the
// screenshot of a blank page. Skips when chromium is not installed.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "bench/html_report.h"
#include "bench/sweep_report.h"

namespace nunchi::bench {
namespace {

namespace fs = std::filesystem;

std::string Chromium() {
  for (const char* p : {"/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"})
    if (fs::exists(p)) return p;
  return "";
}

// Screenshots `html_file` into `png`; returns the PNG's bytes ("" on failure).
std::string Shoot(const std::string& chromium, const fs::path& dir, const std::string& name) {
  const fs::path profile = dir / ("profile-" + name);
  fs::create_directories(profile);
  const fs::path png = dir / (name + ".png");
  std::string cmd = "timeout 90 " + chromium +
                    " --headless --no-sandbox --disable-gpu --disable-background-networking"
                    " --disable-component-update --disable-sync --no-first-run"
                    " --user-data-dir=" +
                    profile.string() + " --screenshot=" + png.string() +
                    " --window-size=1200,1600 file://" + (dir / (name + ".html")).string() + " >" +
                    (dir / (name + ".log")).string() + " 2>&1";
  if (std::system(cmd.c_str()) != 0) return "";
  std::ifstream f(png, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

uint32_t Be32(const std::string& s, size_t at) {
  return (uint32_t(uint8_t(s[at])) << 24) | (uint32_t(uint8_t(s[at + 1])) << 16) |
         (uint32_t(uint8_t(s[at + 2])) << 8) | uint32_t(uint8_t(s[at + 3]));
}

TEST(HtmlReport, RendersInHeadlessChromium) {
  const std::string chromium = Chromium();
  if (chromium.empty()) {
    GTEST_SKIP() << "chromium is not installed (scripts/apt-packages/bench.txt)";
  }
  const fs::path dir =
      fs::temp_directory_path() / ("nunchi-bench-html-" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::vector<CycleResult> cycles;
  for (int i = 0; i < 120; ++i) {
    CycleResult c;
    c.index = i;
    c.latency_s = 0.5 + 0.3 * ((i * 37) % 11) / 10.0 + (i == 0 ? 4 : 0);
    c.start_lag_s = i > 100 ? 0.02 * (i - 100) : 0;
    c.spots_ok = 6;
    c.cold = i == 0;
    c.new_signals = 6;
    c.bundle_signals = 60 + i % 10;
    c.tokens.prefilled = 200 + 10 * (i % 9);
    c.tokens.generated = 48 * 6;
    c.tokens.reused = 3000 + 20 * i;
    cycles.push_back(c);
  }
  LoadSpec load;
  Conditions cond;
  cond.engine = "llama.cpp (in-process)";
  cond.quantization = "Q8_0";
  Summary s = Summarize(cycles, 60);
  std::ofstream(dir / "report.html") << HtmlReport(load, cond, s, cycles);
  std::ofstream(dir / "blank.html") << "<!DOCTYPE html><html><body></body></html>";
  std::string report = Shoot(chromium, dir, "report");
  std::string blank = Shoot(chromium, dir, "blank");
  ASSERT_GT(report.size(), 24u) << "no screenshot; see " << dir;
  EXPECT_EQ(report.substr(1, 3), "PNG");
  EXPECT_EQ(Be32(report, 16), 1200u);  // IHDR width
  EXPECT_EQ(Be32(report, 20), 1600u);  // IHDR height
  EXPECT_GT(report.size(), 20'000u);
  if (!blank.empty()) {
    EXPECT_GT(report.size(), 4 * blank.size());
  }
  // The sweep report of two points, built from the same cycles.
  std::vector<SweepPoint> points(2);
  for (int i = 0; i < 2; ++i) {
    points[i].label = "c" + std::to_string(2 + 3 * i);
    points[i].conditions = cond;
    points[i].summary = s;
    points[i].summary.judged_by = {{"llama", 50.0 + 10 * i}, {"rules", 20}};
  }
  std::ofstream(dir / "sweep.html") << SweepHtml(load, points);
  std::string sweep = Shoot(chromium, dir, "sweep");
  ASSERT_GT(sweep.size(), 24u) << "no screenshot of the sweep report; see " << dir;
  EXPECT_EQ(sweep.substr(1, 3), "PNG");
  EXPECT_GT(sweep.size(), 20'000u);
  if (!blank.empty()) {
    EXPECT_GT(sweep.size(), 4 * blank.size());
  }
  fs::remove_all(dir);
}

}  // namespace
}  // namespace nunchi::bench
