// nunchi_train_classifier TRAIN.jsonl OUT.cpp
// Build-time tool: trains the embedded classifier from the shipped training
// set and writes it as C++ source. Bare agreement replies ("저도요") are left
// out (their meaning is their parent's, which the rules resolve), and so are
// causes a comment only inherits from its post.
#include <fstream>
#include <iostream>

#include "judges/bundles_jsonl.h"
#include "judges/classifier.h"
#include "judges/rules.h"

namespace nj = nunchi::judges;

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: nunchi_train_classifier TRAIN.jsonl OUT.cpp\n";
    return 2;
  }
  std::ifstream in(argv[1]);
  if (!in) {
    std::cerr << "cannot read " << argv[1] << "\n";
    return 1;
  }
  auto bundles = nj::ReadBundlesJsonl(in);
  if (!bundles.ok()) {
    std::cerr << bundles.status().ToString() << "\n";
    return 1;
  }
  nj::Rules rules;
  std::vector<nj::TrainExample> examples;
  for (const auto& b : *bundles) {
    for (size_t i = 0; i < b.bundle.size(); ++i) {
      if (!b.labels[i]) continue;
      const std::string& text = b.bundle.at(i).text;
      if (i > 0 && rules.IsAgreementReply(text)) continue;
      nj::TrainExample ex;
      ex.text = text;
      ex.relevance = b.labels[i]->relevance;
      ex.level = b.labels[i]->level;
      ex.cause = b.labels[i]->cause;
      if (i > 0 && ex.cause != nunchi::Cause::kNone) {
        ex.train_cause = rules.DetectCause(text, nullptr) != nunchi::Cause::kNone;
      }
      examples.push_back(std::move(ex));
    }
  }
  auto model = nj::TrainClassifier(examples);
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
  std::cerr << "trained on " << examples.size() << " signals, " << model->feature_ids.size()
            << " features; train fit relevance " << rel_ok << "/" << examples.size() << ", level "
            << lvl_ok << "/" << lvl_n << "\n";
  std::ofstream out(argv[2], std::ios::binary | std::ios::trunc);
  out << nj::ModelToCpp(*model);
  if (!out) {
    std::cerr << "cannot write " << argv[2] << "\n";
    return 1;
  }
  return 0;
}
