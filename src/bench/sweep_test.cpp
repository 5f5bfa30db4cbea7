// `nunchi bench` sweeps end to end on the default judge (no model): every
// point of the grid runs against a server of its own and gets a row in
// sweep.csv and a results.json recording what it ran under.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "bench/test_files.h"

namespace nunchi::bench {
namespace {

namespace fs = std::filesystem;

using test_files::Read;

// Runs `nunchi bench` on 2 cycles of the peak load with the sweep flags into
// a fresh folder named after `name`; returns its path (stdout and stderr beside it).
std::string RunSweep(const std::string& name, const std::string& sweep_flags) {
  const std::string out =
      (fs::temp_directory_path() / (name + "-" + std::to_string(getpid()))).string();
  fs::remove_all(out);
  const std::string cmd = std::string(NUNCHI_BINARY) +
                          " bench --load '" NUNCHI_LOADS_DIR
                          "/peak.toml' --cycles 2 --interval 0.05 --seed 3 " +
                          sweep_flags + " --no-progress --out '" + out + "' >'" + out +
                          ".stdout' 2>'" + out + ".stderr'";
  EXPECT_EQ(std::system(cmd.c_str()), 0) << Read(out + ".stdout") << Read(out + ".stderr");
  return out;
}

void RemoveSweep(const std::string& out) {
  fs::remove_all(out);
  fs::remove(out + ".stdout");
  fs::remove(out + ".stderr");
}

TEST(BenchSweep, BundleCapTimesPrefixReuseRunsEveryPoint) {
  const std::string out =
      RunSweep("nunchi-bench-sweep", "--sweep-bundle-cap 8,20 --sweep-prefix-reuse on,off");
  ASSERT_FALSE(HasFailure());

  std::istringstream csv(Read(out + "/sweep.csv"));
  std::string header, line;
  std::getline(csv, header);
  EXPECT_EQ(
      header.rfind("label,load,concurrency,bundle_cap,prefix_reuse,bundles_per_call,cycles,", 0),
      0u);
  std::vector<std::string> labels;
  while (std::getline(csv, line)) labels.push_back(line.substr(0, line.find(',')));
  EXPECT_EQ(labels, (std::vector<std::string>{"cap8-reuse-on", "cap8-reuse-off", "cap20-reuse-on",
                                              "cap20-reuse-off"}));
  const std::string html = Read(out + "/sweep.html");
  for (const auto& label : labels) {
    EXPECT_NE(html.find(">" + label + "<"), std::string::npos) << label;
    auto r = nlohmann::json::parse(Read(out + "/" + label + "/results.json"));
    EXPECT_EQ(r["summary"]["cycles"], 2) << label;
    EXPECT_EQ(r["load"]["bundle_cap"], label.rfind("cap8", 0) == 0 ? 8 : 20) << label;
    EXPECT_EQ(r["conditions"]["prefix_reuse"],
              label.ends_with("reuse-on") ? std::string("on") : std::string("off"))
        << label;
  }
  RemoveSweep(out);
}

// Routes in one invocation: each point runs its own server with serve --route R,
// records it, and is put against the first point.
TEST(BenchSweep, RoutesRunInOneInvocationWithRatios) {
  const std::string out = RunSweep("nunchi-bench-routes", "--sweep-route auto,default");
  ASSERT_FALSE(HasFailure());
  std::istringstream csv(Read(out + "/sweep.csv"));
  std::string header, line;
  std::getline(csv, header);
  EXPECT_TRUE(header.ends_with(",route")) << header;
  std::vector<std::string> labels, routes;
  while (std::getline(csv, line)) {
    labels.push_back(line.substr(0, line.find(',')));
    routes.push_back(line.substr(line.rfind(',') + 1));
  }
  EXPECT_EQ(labels, (std::vector<std::string>{"route-auto", "route-default"}));
  EXPECT_EQ(routes, (std::vector<std::string>{"auto", "default"}));
  for (const char* route : {"auto", "default"}) {
    auto r = nlohmann::json::parse(Read(out + "/route-" + route + "/results.json"));
    EXPECT_EQ(r["conditions"]["route"], route);
    EXPECT_NE(r["conditions"]["server_args"].dump().find(route), std::string::npos);
  }
  const std::string stdout_text = Read(out + ".stdout");
  EXPECT_NE(stdout_text.find("ratio route-default / route-auto: P95"), std::string::npos)
      << stdout_text;
  RemoveSweep(out);
}

// A one-flag sweep in one invocation: the CSV has one row per value in order,
// each point's server got `serve FLAG VALUE` and recorded it, and every point
// is put against the first.
void ExpectServeFlagSweep(const std::string& name, const std::string& flag,
                          const std::string& label, const std::vector<std::string>& values) {
  std::string list;
  for (const std::string& v : values) list += (list.empty() ? "" : ",") + v;
  const std::string out = RunSweep(name, "--sweep-" + flag.substr(2) + " " + list);
  ASSERT_FALSE(::testing::Test::HasFailure());
  std::istringstream csv(Read(out + "/sweep.csv"));
  std::string header, line;
  std::getline(csv, header);
  std::vector<std::string> labels, want;
  while (std::getline(csv, line)) labels.push_back(line.substr(0, line.find(',')));
  for (const std::string& v : values) want.push_back(label + v);
  EXPECT_EQ(labels, want);
  for (const std::string& v : values) {
    auto r = nlohmann::json::parse(Read(out + "/" + label + v + "/results.json"));
    const std::string args = r["conditions"]["server_args"].dump();
    EXPECT_NE(args.find(flag + " " + v), std::string::npos) << args;
  }
  const std::string stdout_text = Read(out + ".stdout");
  const std::string ratio = "ratio " + want.back() + " / " + want.front() + ": P95";
  EXPECT_NE(stdout_text.find(ratio), std::string::npos) << stdout_text;
  RemoveSweep(out);
}

// Escalation waits in one invocation: each point's server gets serve
// --escalation-wait-ms N, records it, and is put against the first point.
TEST(BenchSweep, EscalationWaitsRunInOneInvocationWithRatios) {
  ExpectServeFlagSweep("nunchi-bench-waits", "--escalation-wait-ms", "wait", {"4000", "250"});
}

// Background chunks in one invocation: each point's server gets serve
// --background-chunk N, records it, and is put against the first point.
TEST(BenchSweep, BackgroundChunksRunInOneInvocationWithRatios) {
  ExpectServeFlagSweep("nunchi-bench-chunks", "--background-chunk", "chunk", {"0", "64"});
}

}  // namespace
}  // namespace nunchi::bench
