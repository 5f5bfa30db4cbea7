// nunchi_train_classifier [--variant NAME] OUT.cpp GENERATED.jsonl [WRITTEN.jsonl ...]
// Build-time tool: trains the embedded classifier (variant kDefaultVariant
// unless --variant names another, classifier.h VariantOptions) from the
// generated training set and the written files (each file one writer), fits
// its calibration on held-out writers, and writes it as C++ source.
// `--variant` lets the lead build each measured alternative once for the
// blind sets (docs/quality.md).
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "judges/bundles_jsonl.h"
#include "judges/classifier.h"

namespace nj = nunchi::judges;

int main(int argc, char** argv) {
  std::string variant(nj::kDefaultVariant);
  std::vector<std::string> args;
  for (int k = 1; k < argc; ++k) {
    std::string a = argv[k];
    if (a == "--variant" && k + 1 < argc) {
      variant = argv[++k];
    } else {
      args.push_back(a);
    }
  }
  if (args.size() < 2) {
    std::cerr << "usage: nunchi_train_classifier [--variant NAME] OUT.cpp GENERATED.jsonl "
                 "[WRITTEN.jsonl ...]\nvariants:";
    for (const auto& v : nj::VariantNames()) std::cerr << " " << v;
    std::cerr << "\n";
    return 2;
  }
  auto options = nj::VariantOptions(variant);
  if (!options.ok()) {
    std::cerr << options.status().ToString() << "\n";
    return 2;
  }
  std::vector<nj::TrainExample> examples;
  size_t written = 0;
  for (size_t f = 1; f < args.size(); ++f) {
    std::ifstream in(args[f]);
    if (!in) {
      std::cerr << "cannot read " << args[f] << "\n";
      return 1;
    }
    auto bundles = nj::ReadBundlesJsonl(in);
    if (!bundles.ok()) {
      std::cerr << args[f] << ": " << bundles.status().ToString() << "\n";
      return 1;
    }
    auto ex = nj::TrainingExamples(*bundles, static_cast<int>(f) - 2);
    if (f > 1) written += ex.size();
    examples.insert(examples.end(), ex.begin(), ex.end());
  }
  auto model = nj::TrainCalibrated(examples, *options);
  if (!model.ok()) {
    std::cerr << model.status().ToString() << "\n";
    return 1;
  }
  // Training-set fit, as a sanity figure.
  nj::Classifier clf(*model);
  size_t rel_ok = 0, lvl_ok = 0, lvl_n = 0;
  for (const auto& ex : examples) {
    auto p = clf.Predict(ex.text);
    rel_ok += (p.p_relevant >= 0.5f) == (ex.relevance == nunchi::Relevance::kRelevant);
    if (ex.relevance == nunchi::Relevance::kRelevant) ++lvl_n, lvl_ok += p.level == ex.level;
  }
  const auto& c = model->calibration;
  std::cerr << "variant " << variant << ": trained on " << examples.size() << " signals ("
            << written << " written, " << args.size() - 2 << " written files), "
            << model->feature_ids.size() << " features; train fit relevance " << rel_ok << "/"
            << examples.size() << ", level " << lvl_ok << "/" << lvl_n << "; calibration "
            << (c.fitted ? "" : "NOT ") << "fitted (relevance " << c.rel_a << "," << c.rel_b
            << "; level " << c.lvl_a << "," << c.lvl_b << ")\n";
  std::ofstream out(args[0], std::ios::binary | std::ios::trunc);
  out << nj::ModelToCpp(*model);
  if (!out) {
    std::cerr << "cannot write " << args[0] << "\n";
    return 1;
  }
  return 0;
}
