// nunchi_rule_passes [--cpp] [--mistakes] GENERATED.jsonl... [--written WRITTEN.jsonl...]
// Prints, per file and pooled, the per-pass table of the rules (fires,
// relevance precision, level precision, Wilson lower bounds): the measurement
// behind rule_confidence.cpp. Files after --written form the second source
// group (texts of independent writers). --cpp also prints the kMeasured table
// (rule_measure.h says how the groups combine).
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "judges/rule_measure.h"

namespace nj = nunchi::judges;

int main(int argc, char** argv) {
  bool cpp = false, written = false, show = false;
  std::vector<std::string> files;
  std::vector<int> group_of;
  for (int k = 1; k < argc; ++k) {
    std::string a = argv[k];
    if (a == "--cpp") {
      cpp = true;
    } else if (a == "--mistakes") {
      show = true;
    } else if (a == "--written") {
      written = true;
    } else {
      files.push_back(a);
      group_of.push_back(written ? 1 : 0);
    }
  }
  if (files.empty()) {
    std::cerr << "usage: nunchi_rule_passes [--cpp] DATA.jsonl...\n";
    return 2;
  }
  nj::Rules rules;
  nj::PassTally pooled;
  std::vector<nj::PassTally> groups(2);
  for (size_t i = 0; i < files.size(); ++i) {
    const std::string& f = files[i];
    std::ifstream in(f);
    auto bundles = nj::ReadBundlesJsonl(in);
    if (!bundles.ok()) {
      std::cerr << f << ": " << bundles.status().ToString() << "\n";
      return 1;
    }
    std::string mistakes;
    nj::PassTally t = nj::MeasurePasses(rules, *bundles, show ? &mistakes : nullptr);
    if (show) std::cout << mistakes;
    std::cout << "## " << f << "\n\n" << nj::PassTableMarkdown(t) << "\n";
    nj::AddTally(t, &pooled);
    nj::AddTally(t, &groups[group_of[i]]);
  }
  if (files.size() > 1) std::cout << "## pooled\n\n" << nj::PassTableMarkdown(pooled) << "\n";
  if (written && files.size() > 2)
    std::cout << "## written (pooled)\n\n" << nj::PassTableMarkdown(groups[1]) << "\n";
  if (cpp) std::cout << nj::PassTableCpp(groups);
  return 0;
}
