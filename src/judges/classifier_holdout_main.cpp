// nunchi_classifier_holdout [--variants a,b,...] [--set KEY=V]... [--grid KEY=v1,v2,...] [--tail
// SHARE]
//                           --train GENERATED.jsonl WRITTEN.jsonl... --test TEST.jsonl...
// Developer tool: the classifier and decision choices measured on files kept out of
// training. For each variant (classifier.h VariantOptions) one model is trained the way
// the build trains it (TrainCalibrated: the generated set and the written files, Platt
// fitted on held-out writers), and the whole DefaultJudge built on it is scored on each
// test file and pooled; --set changes a decision option for every judge, --grid scores
// the same model with one more option set to each value. Besides the figures of `nunchi eval` it
// prints how well the confidences rank the errors: the accuracy of the SHARE (default 0.2) least
// confident judgments (joint confidence, eval.h) and of the rest, and the accuracy a cascade would
// reach sending that share to an LLM right 90 % of the time. Single-threaded; never on the request
// path.
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "judges/bundles_jsonl.h"
#include "judges/classifier.h"
#include "judges/default_judge.h"
#include "judges/eval.h"

namespace nj = nunchi::judges;

namespace {

std::vector<std::string> Split(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream in(s);
  std::string item;
  while (std::getline(in, item, ','))
    if (!item.empty()) out.push_back(item);
  return out;
}

std::string Pct(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f %%", 100 * v);
  return buf;
}

// Sets one decision option by its --grid key; false for an unknown key.
bool SetOption(const std::string& key, float x, nj::DefaultJudgeOptions* o) {
  if (key == "min-cause") {
    o->classifier_min_cause = x;
  } else if (key == "min-cause-low") {
    o->classifier_min_cause_low = x;
  } else if (key == "min-cause-over-post") {
    o->classifier_min_cause_over_post = x;
  } else if (key == "min-post-cause") {
    o->classifier_min_post_cause = x;
  } else if (key == "level-override") {
    o->level_override = x;
  } else if (key == "level-override-quantity") {
    o->level_override_quantity = x;
  } else if (key == "plain-waits-hold") {
    o->plain_waits_hold = x > 0.5f;
  } else if (key == "relevance-override") {
    o->relevance_override = x;
  } else if (key == "rules-min-confidence") {
    o->rules_min_confidence = x;
  } else if (key == "combine-confidence") {
    o->combine_confidence = x > 0.5f;
  } else {
    return false;
  }
  return true;
}

struct Tail {
  double low = 0, rest = 0, cascade = 0;  // accuracies
};

// The `share` least confident judgments by joint confidence against the rest.
Tail TailOf(const std::vector<nj::EvalCase>& cases, double share) {
  std::vector<std::pair<double, bool>> v;
  for (const auto& c : cases)
    if (auto jc = nj::JointConfidence(c.judged))
      v.emplace_back(*jc, nj::JointCorrect(c.label, c.judged));
  std::stable_sort(v.begin(), v.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  const size_t k = static_cast<size_t>(share * static_cast<double>(v.size()) + 0.5);
  size_t lo = 0, hi = 0;
  for (size_t i = 0; i < v.size(); ++i) (i < k ? lo : hi) += v[i].second;
  Tail t;
  t.low = k ? static_cast<double>(lo) / static_cast<double>(k) : 0;
  t.rest = v.size() > k ? static_cast<double>(hi) / static_cast<double>(v.size() - k) : 0;
  t.cascade = v.empty() ? 0 : (0.9 * static_cast<double>(k) + hi) / static_cast<double>(v.size());
  return t;
}

std::string Row(const std::string& name, const std::string& file, const nj::EvalReport& r,
                double share) {
  const Tail t = TailOf(r.cases, share);
  char ece[64];
  std::snprintf(ece, sizeof ece, "%.3f | %.3f", r.relevance_calibration.ece,
                r.level_calibration.ece);
  return "| " + name + " | " + file + " | " + Pct(r.relevance_accuracy) + " | " +
         Pct(r.level_accuracy_on_relevant) + " | " + Pct(r.cause_accuracy_on_relevant) + " | " +
         std::to_string(r.high_judged_low) + " | " +
         std::to_string(r.injections_judged_irrelevant) + "/" +
         std::to_string(r.injections.size()) + " | " + Pct(t.low) + " | " + Pct(t.rest) + " | " +
         Pct(t.cascade) + " | " + ece + " |\n";
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> variants = {std::string(nj::kDefaultVariant)};
  std::vector<std::string> train_files, test_files;
  std::string grid_key;
  std::vector<float> grid_values;
  double share = 0.2;
  nj::DefaultJudgeOptions base;  // --set
  std::vector<std::string>* files = nullptr;
  for (int k = 1; k < argc; ++k) {
    std::string a = argv[k];
    if (a == "--variants" && k + 1 < argc) {
      variants = Split(argv[++k]);
    } else if (a == "--grid" && k + 1 < argc) {
      std::string g = argv[++k];
      grid_key = g.substr(0, g.find('='));
      for (const std::string& v : Split(g.substr(g.find('=') + 1)))
        grid_values.push_back(std::stof(v));
      nj::DefaultJudgeOptions probe;
      if (!SetOption(grid_key, 0, &probe)) {
        std::cerr << "unknown --grid key " << grid_key << "\n";
        return 2;
      }
    } else if (a == "--set" && k + 1 < argc) {
      std::string g = argv[++k];
      if (g.find('=') == std::string::npos ||
          !SetOption(g.substr(0, g.find('=')), std::stof(g.substr(g.find('=') + 1)), &base)) {
        std::cerr << "bad --set " << g << "\n";
        return 2;
      }
    } else if (a == "--tail" && k + 1 < argc) {
      share = std::stod(argv[++k]);
    } else if (a == "--train") {
      files = &train_files;
    } else if (a == "--test") {
      files = &test_files;
    } else if (files) {
      files->push_back(a);
    } else {
      std::cerr << "unexpected " << a << "\n";
      return 2;
    }
  }
  if (train_files.size() < 2 || test_files.empty()) {
    std::cerr << "usage: nunchi_classifier_holdout [--variants a,b] [--grid KEY=v1,v2] [--tail S] "
                 "--train GENERATED.jsonl WRITTEN.jsonl... --test TEST.jsonl...\n";
    return 2;
  }
  auto read = [](const std::string& path) -> nunchi::Result<std::vector<nj::LabeledBundle>> {
    std::ifstream in(path);
    if (!in) return nunchi::Status(nunchi::ErrorCode::kNotFound, "cannot read " + path);
    return nj::ReadBundlesJsonl(in);
  };
  std::vector<nj::TrainExample> examples;
  for (size_t f = 0; f < train_files.size(); ++f) {
    auto b = read(train_files[f]);
    if (!b.ok()) {
      std::cerr << train_files[f] << ": " << b.status().ToString() << "\n";
      return 1;
    }
    auto ex = nj::TrainingExamples(*b, static_cast<int>(f) - 1);  // first file: generated
    examples.insert(examples.end(), ex.begin(), ex.end());
  }
  std::vector<std::pair<std::string, std::vector<nj::LabeledBundle>>> tests;
  for (const auto& path : test_files) {
    auto b = read(path);
    if (!b.ok()) {
      std::cerr << path << ": " << b.status().ToString() << "\n";
      return 1;
    }
    tests.emplace_back(path.substr(path.find_last_of('/') + 1), std::move(b).value());
  }
  std::cout << "| judge | file | relevance | level (relevant) | cause | HIGH as LOW | injections "
               "IRRELEVANT | tail "
            << share
            << " accuracy | rest accuracy | cascade (p 0.9) | relevance ECE | level ECE |\n"
            << "|---|---|---|---|---|---|---|---|---|---|---|---|\n";
  for (const std::string& variant : variants) {
    auto options = nj::VariantOptions(variant);
    if (!options.ok()) {
      std::cerr << options.status().ToString() << "\n";
      return 2;
    }
    auto model = nj::TrainCalibrated(examples, *options);
    if (!model.ok()) {
      std::cerr << model.status().ToString() << "\n";
      return 1;
    }
    auto clf = std::make_shared<const nj::Classifier>(std::move(model).value());
    std::vector<std::pair<std::string, nj::DefaultJudgeOptions>> judges = {{variant, base}};
    for (float x : grid_values) {
      nj::DefaultJudgeOptions o = base;
      SetOption(grid_key, x, &o);
      char name[96];
      std::snprintf(name, sizeof name, "%s %s=%g", variant.c_str(), grid_key.c_str(), x);
      judges.emplace_back(name, o);
    }
    for (const auto& [name, o] : judges) {
      nj::DefaultJudge judge(clf, o);
      std::vector<nj::EvalReport> reports;
      std::string rows;
      for (const auto& [file, bundles] : tests) {
        reports.push_back(nj::Evaluate(judge, bundles));
        rows += Row(name, file, reports.back(), share);
      }
      std::cout << rows << Row(name, "pooled", nj::PoolReports(reports), share);
      std::cout.flush();
    }
  }
  return 0;
}
