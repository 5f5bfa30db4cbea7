// Opens the bench reports in headless Chromium at a desktop (1280 px) and a
// phone (390 px) width. Screenshots: a PNG of the window's size, several
// times larger than the screenshot of a blank page. Layout: a copy of each
// report with a probe script is laid out in an iframe of each width (headless
// windows are at least 500 px wide, an iframe is not); the probe measures
// and posts what it found to the frame page, whose DOM --dump-dom prints:
// nothing sticks out of the page (wide tables and charts scroll inside
// their own boxes), every chart's SVG has a viewBox, width 100 %, fills the
// column and keeps its aspect ratio, chart text is at least 8 px tall, and
// the legends are HTML outside the SVG. Skips when chromium is not installed.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "bench/compare_summary.h"
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

std::string Slurp(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

std::string Headless(const std::string& chromium, const fs::path& dir, const std::string& name) {
  const fs::path profile = dir / ("profile-" + name);
  fs::create_directories(profile);
  return "timeout 90 " + chromium +
         " --headless --no-sandbox --disable-gpu --disable-background-networking"
         " --disable-component-update --disable-sync --no-first-run --user-data-dir=" +
         profile.string();
}

// Screenshots DIR/NAME.html at width x height; returns the PNG's bytes ("" on failure).
std::string Shoot(const std::string& chromium, const fs::path& dir, const std::string& name,
                  int width = 1200, int height = 1600) {
  const std::string shot = name + "-" + std::to_string(width);
  const fs::path png = dir / (shot + ".png");
  std::string cmd = Headless(chromium, dir, shot) + " --screenshot=" + png.string() +
                    " --window-size=" + std::to_string(width) + "," + std::to_string(height) +
                    " file://" + (dir / (name + ".html")).string() + " >" +
                    (dir / (shot + ".log")).string() + " 2>&1";
  if (std::system(cmd.c_str()) != 0) return "";
  return Slurp(png);
}

// Measures the page it is put into and posts the figures to its parent.
constexpr const char* kProbe = R"js(<script>(function () {
  const W = document.documentElement.clientWidth;
  const out = {width: window.innerWidth, client_width: W, scroll_width: document.documentElement.scrollWidth, overflow: [],
               svgs: [], min_text_px: 1e9, legend_items: 0, legend_in_svg: 0};
  for (const el of document.body.querySelectorAll('*')) {
    if (el.tagName === 'SCRIPT') continue;
    // Inside a box that scrolls on its own (a chart, a table) overflow is allowed.
    if (el.parentElement.closest('.plot, table')) continue;
    const b = el.getBoundingClientRect();
    if (b.width > 0 && (b.right > W + 0.5 || b.left < -0.5) && out.overflow.length < 20)
      out.overflow.push(el.tagName + ' ' + Math.round(b.left) + '..' + Math.round(b.right));
  }
  for (const s of document.querySelectorAll('svg')) {
    const b = s.getBoundingClientRect();
    out.svgs.push({w: b.width, h: b.height, view_box: s.getAttribute('viewBox') || '',
                   width_attr: s.getAttribute('width') || ''});
  }
  for (const t of document.querySelectorAll('svg text')) {
    const b = t.getBoundingClientRect();
    if (b.height > 0) out.min_text_px = Math.min(out.min_text_px, b.height);
  }
  out.legend_items = document.querySelectorAll('ul.legend li').length;
  out.legend_in_svg = document.querySelectorAll('svg ul, svg li').length;
  parent.postMessage(JSON.stringify(out), '*');
})();</script>)js";

// Lays DIR/NAME.html out at `width` in an iframe and returns the probe's figures.
nlohmann::json Layout(const std::string& chromium, const fs::path& dir, const std::string& name,
                      int width) {
  std::string html = Slurp(dir / (name + ".html"));
  const size_t end = html.rfind("</body>");
  if (end == std::string::npos) return nullptr;
  std::ofstream(dir / ("probe-" + name + ".html")) << html.insert(end, kProbe);
  const std::string frame = "frame-" + name + "-" + std::to_string(width);
  std::ofstream(dir / (frame + ".html"))
      << "<!DOCTYPE html><html><body style='margin:0'><iframe src='probe-" << name
      << ".html' width='" << width
      << "' height='900' style='border:0'></iframe><script>"
         "addEventListener('message', e => { const p = document.createElement('pre');"
         " p.id = 'layout'; p.textContent = e.data; document.body.appendChild(p); });"
         "</script></body></html>";
  const fs::path dom = dir / (frame + ".dom");
  std::string cmd = Headless(chromium, dir, frame) +
                    " --window-size=1400,1000 --virtual-time-budget=5000 --dump-dom file://" +
                    (dir / (frame + ".html")).string() + " >" + dom.string() + " 2>/dev/null";
  if (std::system(cmd.c_str()) != 0) return nullptr;
  const std::string text = Slurp(dom);
  const size_t at = text.find("<pre id=\"layout\">");
  if (at == std::string::npos) return nullptr;
  const size_t from = text.find('>', at) + 1;
  std::string json = text.substr(from, text.find("</pre>", from) - from);
  for (auto [esc, ch] : {std::pair{"&quot;", "\""}, {"&lt;", "<"}, {"&gt;", ">"}, {"&amp;", "&"}})
    for (size_t p = json.find(esc); p != std::string::npos; p = json.find(esc, p + 1))
      json.replace(p, std::string(esc).size(), ch);
  return nlohmann::json::parse(json, nullptr, false);
}

// The layout checks of one page at one width.
void ExpectReadable(const std::string& chromium, const fs::path& dir, const std::string& name,
                    int width) {
  SCOPED_TRACE(name + " at " + std::to_string(width) + " px");
  const nlohmann::json l = Layout(chromium, dir, name, width);
  ASSERT_TRUE(l.is_object()) << "no layout figures; see " << dir;
  EXPECT_EQ(l["width"], width);
  // The page's own width, less a scroll bar.
  EXPECT_LE(l["scroll_width"].get<double>(), l["client_width"].get<double>())
      << "the page scrolls sideways: " << l.dump();
  EXPECT_TRUE(l["overflow"].empty()) << "elements outside the page: " << l["overflow"].dump();
  ASSERT_FALSE(l["svgs"].empty());
  for (const auto& s : l["svgs"]) {
    EXPECT_FALSE(s["view_box"].get<std::string>().empty()) << s.dump();
    EXPECT_EQ(s["width_attr"], "100%") << s.dump();
    const double w = s["w"], h = s["h"];
    ASSERT_GT(h, 0) << s.dump();
    // Fills the text column (at most 1000 px wide, 2 x 24 or 2 x 10 px margins).
    EXPECT_GE(w, std::min(width - 60.0, 950.0)) << s.dump();
    EXPECT_NEAR(w / h, 800.0 / 300.0, 0.05) << "the chart is distorted: " << s.dump();
  }
  EXPECT_GE(l["min_text_px"].get<double>(), 8) << "chart text too small to read";
  EXPECT_GT(l["legend_items"].get<int>(), 0);
  EXPECT_EQ(l["legend_in_svg"], 0);
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
  std::string blank = Shoot(chromium, dir, "blank");
  for (auto [w, h] : {std::pair{1280, 1600}, {390, 844}}) {
    SCOPED_TRACE("screenshot at " + std::to_string(w));
    std::string report = Shoot(chromium, dir, "report", w, h);
    ASSERT_GT(report.size(), 24u) << "no screenshot; see " << dir;
    EXPECT_EQ(report.substr(1, 3), "PNG");
    EXPECT_EQ(Be32(report, 16), static_cast<uint32_t>(w));  // IHDR width
    EXPECT_EQ(Be32(report, 20), static_cast<uint32_t>(h));  // IHDR height
    EXPECT_GT(report.size(), 20'000u);
    const std::string blank_w = Shoot(chromium, dir, "blank", w, h);
    if (!blank_w.empty()) {
      EXPECT_GT(report.size(), 4 * blank_w.size());
    }
  }
  ExpectReadable(chromium, dir, "report", 1280);
  ExpectReadable(chromium, dir, "report", 390);
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
  ExpectReadable(chromium, dir, "sweep", 1280);
  ExpectReadable(chromium, dir, "sweep", 390);
  // The comparison report: a 14-column table and an overlaid CDF of two arms.
  std::vector<CycleResult> slower = cycles;
  for (auto& c : slower) c.latency_s *= 3;
  Comparison cmp = Compare({MakeArmFigures("a", "nunchi, in-process llama.cpp", cond, cycles, 60),
                            MakeArmFigures("b", "naive client, llama-server", cond, slower, 60)});
  std::ofstream(dir / "compare.html") << CompareHtml(
      cmp, load, nlohmann::json{{"model", {{"file", "m.gguf"}, {"random_weights", true}}}},
      {cycles, slower});
  ExpectReadable(chromium, dir, "compare", 1280);
  ExpectReadable(chromium, dir, "compare", 390);
  // Keeps the pages, screenshots and DOM dumps for a look.
  if (HasFailure() || std::getenv("NUNCHI_KEEP_HTML")) {
    std::printf("pages, screenshots and layout dumps kept in %s\n", dir.c_str());
    return;
  }
  fs::remove_all(dir);
}

}  // namespace
}  // namespace nunchi::bench
