// nunchi_classifier_cv [--variants a,b,...] [--relevance-override X] [--level-override X]
//                      [--calibrated-relevant P] [--min-cause P] [--min-cause-low P]
//                      [--list-high-low] [--list relevance|level|cause]
//                      GENERATED.jsonl WRITTEN.jsonl...
// Developer tool: leave-one-writer-out cross-validation of the classifier
// variants (classifier.h VariantOptions). For each written file (one writer),
// a model is trained on the generated set and every other written file, its
// calibration fitted on the other writers' held-out scores, and both the
// classifier alone and the whole DefaultJudge built on it are scored on the
// held-out writer. Prints one markdown row per variant (pooled over the
// writers) and one per writer. Single-threaded; never on the request path.
#include <algorithm>
#include <cmath>
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
using nunchi::Relevance;

namespace {

struct Fold {  // one held-out writer
  std::string name;
  std::vector<nj::LabeledBundle> bundles;
  std::vector<nj::TrainExample> examples;
};

std::vector<std::string> Split(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream in(s);
  std::string item;
  while (std::getline(in, item, ','))
    if (!item.empty()) out.push_back(item);
  return out;
}

std::string Pct(size_t a, size_t b) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f %%", b ? 100.0 * a / b : 0.0);
  return buf;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> variants = nj::VariantNames();
  nj::DefaultJudgeOptions jo;
  std::vector<std::string> files;
  bool list_high_low = false;  // print the held-out signals labeled HIGH and judged LOW
  std::string list_field;      // "relevance", "level" or "cause": print those held-out mistakes
  // --grid KEY=v1,v2: also score the judge with one decision option set to each value
  // (min-cause, min-cause-low, min-post-cause, level-override, relevance-override), same models.
  std::string grid_key;
  std::vector<float> grid_values;
  for (int k = 1; k < argc; ++k) {
    std::string a = argv[k];
    if (a == "--variants" && k + 1 < argc) {
      variants = Split(argv[++k]);
    } else if (a == "--relevance-override" && k + 1 < argc) {
      jo.relevance_override = std::stof(argv[++k]);
    } else if (a == "--list-high-low") {
      list_high_low = true;
    } else if (a == "--grid" && k + 1 < argc) {
      std::string g = argv[++k];
      grid_key = g.substr(0, g.find('='));
      for (const std::string& v : Split(g.substr(g.find('=') + 1)))
        grid_values.push_back(std::stof(v));
    } else if (a == "--list" && k + 1 < argc) {
      list_field = argv[++k];
    } else if (a == "--calibrated-relevant" && k + 1 < argc) {
      jo.classifier_calibrated_relevant = std::stof(argv[++k]);
    } else if (a == "--min-cause" && k + 1 < argc) {
      jo.classifier_min_cause = std::stof(argv[++k]);
    } else if (a == "--min-post-cause" && k + 1 < argc) {
      jo.classifier_min_post_cause = std::stof(argv[++k]);
    } else if (a == "--min-cause-low" && k + 1 < argc) {
      jo.classifier_min_cause_low = std::stof(argv[++k]);
    } else if (a == "--level-override" && k + 1 < argc) {
      jo.level_override = std::stof(argv[++k]);
    } else if (a == "--combine-confidence") {
      jo.combine_confidence = true;
    } else {
      files.push_back(a);
    }
  }
  if (files.size() < 3) {
    std::cerr << "usage: nunchi_classifier_cv [--variants a,b] [--relevance-override X] "
                 "[--level-override X] GENERATED.jsonl WRITTEN.jsonl WRITTEN.jsonl...\n";
    return 2;
  }
  std::vector<nj::TrainExample> generated;
  std::vector<Fold> folds;
  for (size_t f = 0; f < files.size(); ++f) {
    std::ifstream in(files[f]);
    if (!in) {
      std::cerr << "cannot read " << files[f] << "\n";
      return 1;
    }
    auto b = nj::ReadBundlesJsonl(in);
    if (!b.ok()) {
      std::cerr << files[f] << ": " << b.status().ToString() << "\n";
      return 1;
    }
    auto ex = nj::TrainingExamples(*b, static_cast<int>(f) - 1);
    if (f == 0) {
      generated = std::move(ex);
    } else {
      std::string name = files[f].substr(files[f].find_last_of('/') + 1);
      folds.push_back({name, std::move(b).value(), std::move(ex)});
    }
  }
  std::cout << "| variant | classifier relevance | classifier level | judge relevance | judge "
               "level | judge cause | HIGH as LOW | judge relevance ECE | judge level ECE |\n"
               "|---|---|---|---|---|---|---|---|---|\n";
  std::string per_writer;
  for (const std::string& variant : variants) {
    auto options = nj::VariantOptions(variant);
    if (!options.ok()) {
      std::cerr << options.status().ToString() << "\n";
      return 2;
    }
    // Pass 1: a model per held-out writer, and its held-out scores.
    std::vector<nj::ClassifierModel> models;
    std::vector<std::vector<nj::ClassifierPrediction>> held(folds.size());
    for (size_t w = 0; w < folds.size(); ++w) {
      std::vector<nj::TrainExample> train = generated;
      for (size_t o = 0; o < folds.size(); ++o)
        if (o != w) train.insert(train.end(), folds[o].examples.begin(), folds[o].examples.end());
      auto m = nj::TrainClassifier(train, *options);
      if (!m.ok()) {
        std::cerr << m.status().ToString() << "\n";
        return 1;
      }
      nj::Classifier c(*m);
      for (const auto& ex : folds[w].examples) held[w].push_back(c.Predict(ex.text));
      models.push_back(std::move(m).value());
    }
    // Pass 2: calibrate each on the others' held-out scores; score the held-out writer.
    size_t c_n = 0, c_rel = 0, c_lvl_n = 0, c_lvl = 0;
    std::vector<nj::EvalReport> reports;
    std::vector<std::vector<nj::EvalReport>> grid_reports(grid_values.size());
    for (size_t w = 0; w < folds.size(); ++w) {
      std::vector<float> rs, ls;
      std::vector<bool> ry, ly;
      for (size_t o = 0; o < folds.size(); ++o) {
        if (o == w) continue;
        for (size_t k = 0; k < folds[o].examples.size(); ++k) {
          const auto& ex = folds[o].examples[k];
          const auto& p = held[o][k];
          bool rel = ex.relevance == Relevance::kRelevant;
          rs.push_back(p.rel_score);
          ry.push_back(rel);
          if (rel && ex.train_level) {
            float sh = std::clamp(p.p_level, 1e-4f, 1.0f - 1e-4f);
            ls.push_back(std::log(sh / (1 - sh)));
            ly.push_back(p.level == ex.level);
          }
        }
      }
      auto [ra, rb] = nj::FitPlatt(rs, ry);
      auto [la, lb] = nj::FitPlatt(ls, ly);
      models[w].calibration = {ra, rb, la, lb, true};
      size_t n = 0, rel_ok = 0, ln = 0, lok = 0;
      for (size_t k = 0; k < folds[w].examples.size(); ++k) {
        const auto& ex = folds[w].examples[k];
        const auto& p = held[w][k];
        bool rel = ex.relevance == Relevance::kRelevant;
        ++n;
        rel_ok += (p.p_relevant >= 0.5f) == rel;
        if (rel) ++ln, lok += p.level == ex.level;
      }
      c_n += n, c_rel += rel_ok, c_lvl_n += ln, c_lvl += lok;
      auto clf = std::make_shared<const nj::Classifier>(models[w]);
      nj::DefaultJudge judge(clf, jo);
      nj::EvalReport r = nj::Evaluate(judge, folds[w].bundles);
      for (size_t g = 0; g < grid_values.size(); ++g) {
        nj::DefaultJudgeOptions go = jo;
        const float x = grid_values[g];
        if (grid_key == "min-cause") go.classifier_min_cause = x;
        if (grid_key == "min-cause-low") go.classifier_min_cause_low = x;
        if (grid_key == "min-post-cause") go.classifier_min_post_cause = x;
        if (grid_key == "level-override") go.level_override = x;
        if (grid_key == "level-override-quantity") go.level_override_quantity = x;
        if (grid_key == "plain-waits-hold") go.plain_waits_hold = x > 0.5f;
        if (grid_key == "relevance-override") go.relevance_override = x;
        if (grid_key == "combine-confidence") go.combine_confidence = x > 0.5f;
        nj::DefaultJudge gj(clf, go);
        grid_reports[g].push_back(nj::Evaluate(gj, folds[w].bundles));
      }
      per_writer += "| " + variant + " | " + folds[w].name + " | " + Pct(rel_ok, n) + " | " +
                    Pct(lok, ln) + " | " + Pct(r.relevance_correct, r.signals) + " | " +
                    Pct(r.level_correct_on_relevant, r.relevant_signals) + " | " +
                    Pct(r.cause_correct_on_relevant, r.relevant_signals) + " | " +
                    std::to_string(r.high_judged_low) + " |\n";
      if (list_high_low)
        for (const auto& c : r.cases)
          if (c.label.level == nunchi::Level::kHigh && c.judged.level == nunchi::Level::kLow)
            std::cerr << variant << " " << c.signal_id << " by " << c.judged.judge << " ("
                      << c.judged.relevance_confidence << "/" << c.judged.level_confidence
                      << "): " << c.text << "\n";
      for (const auto& c : r.cases) {
        const bool lrel = c.label.relevance == Relevance::kRelevant;
        const bool jrel = c.judged.relevance == Relevance::kRelevant;
        bool wrong = false;
        if (list_field == "relevance") wrong = lrel != jrel;
        if (list_field == "level") wrong = lrel && jrel && c.label.level != c.judged.level;
        if (list_field == "cause")
          wrong =
              lrel && jrel && c.label.level == c.judged.level && c.label.cause != c.judged.cause;
        if (wrong)
          std::cerr << variant << " " << c.signal_id << " label "
                    << nunchi::ToString(c.label.relevance) << "/" << nunchi::ToString(c.label.level)
                    << "/" << nunchi::ToString(c.label.cause) << " judged "
                    << nunchi::ToString(c.judged.relevance) << "/"
                    << nunchi::ToString(c.judged.level) << "/" << nunchi::ToString(c.judged.cause)
                    << " by " << c.judged.judge << ": " << c.text << "\n";
      }
      reports.push_back(std::move(r));
    }
    for (size_t g = 0; g < grid_values.size(); ++g) {
      nj::EvalReport gp = nj::PoolReports(grid_reports[g]);
      std::cout << "| " << variant << " " << grid_key << "=" << grid_values[g] << " | | | "
                << Pct(gp.relevance_correct, gp.signals) << " | "
                << Pct(gp.level_correct_on_relevant, gp.relevant_signals) << " | "
                << Pct(gp.cause_correct_on_relevant, gp.relevant_signals) << " | "
                << gp.high_judged_low << " | | |\n";
    }
    nj::EvalReport pooled = nj::PoolReports(reports);
    char ece[64];
    std::snprintf(ece, sizeof ece, "%.3f | %.3f", pooled.relevance_calibration.ece,
                  pooled.level_calibration.ece);
    std::cout << "| " << variant << " | " << Pct(c_rel, c_n) << " | " << Pct(c_lvl, c_lvl_n)
              << " | " << Pct(pooled.relevance_correct, pooled.signals) << " | "
              << Pct(pooled.level_correct_on_relevant, pooled.relevant_signals) << " | "
              << Pct(pooled.cause_correct_on_relevant, pooled.relevant_signals) << " | "
              << pooled.high_judged_low << " | " << ece << " |\n";
    std::cout.flush();
  }
  std::cout << "\n| variant | held-out writer | classifier relevance | classifier level | judge "
               "relevance | judge level | judge cause | HIGH as LOW |\n"
               "|---|---|---|---|---|---|---|---|\n"
            << per_writer;
  return 0;
}
