// `nunchi train`: retrains the default judge's classifier in C++ (liblinear,
// the same code the build uses) from the shipped training data plus any
// labeled files, typically `nunchi export-labels` output, and writes a model
// file that `nunchi serve` loads at its next start (DATA_DIR/classifier.model).
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "app/commands.h"
#include "judges/bundles_jsonl.h"
#include "judges/classifier.h"
#include "judges/classifier_file.h"

namespace nunchi {
namespace {

struct TrainOpts {
  // The shipped training data: DIR/congestion-train.jsonl (generated) and
  // every DIR/written/*.jsonl (one writer each), as the build trains on.
  std::string shipped = "data/train";
  std::vector<std::string> data;
  std::string variant = std::string(judges::kDefaultVariant);
  std::string out = "./nunchi-data/classifier.model";
};

int RunTrain(const TrainOpts& o) {
  auto options = judges::VariantOptions(o.variant);
  if (!options.ok()) {
    std::cerr << "nunchi train: " << options.status().ToString() << "\n";
    return 2;
  }
  std::vector<judges::TrainExample> examples;
  const std::filesystem::path dir(o.shipped);
  std::vector<std::string> files = {(dir / "congestion-train.jsonl").string()};
  std::vector<std::string> written;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(dir / "written", ec))
    if (e.path().extension() == ".jsonl") written.push_back(e.path().string());
  std::sort(written.begin(), written.end());
  files.insert(files.end(), written.begin(), written.end());
  files.insert(files.end(), o.data.begin(), o.data.end());
  for (size_t f = 0; f < files.size(); ++f) {
    std::ifstream in(files[f]);
    if (!in) {
      std::cerr << "nunchi train: cannot open " << files[f] << "\n";
      return 1;
    }
    auto bundles = judges::ReadBundlesJsonl(in);
    if (!bundles.ok()) {
      std::cerr << "nunchi train: " << files[f] << ": " << bundles.status().ToString() << "\n";
      return 1;
    }
    // Group -1 is the generated set; each further file is one writer (or one export).
    auto ex = judges::TrainingExamples(*bundles, static_cast<int>(f) - 1);
    std::cout << files[f] << ": " << ex.size() << " examples\n";
    examples.insert(examples.end(), ex.begin(), ex.end());
  }
  auto model = judges::TrainCalibrated(examples, *options);
  if (!model.ok()) {
    std::cerr << "nunchi train: " << model.status().ToString() << "\n";
    return 1;
  }
  if (auto parent = std::filesystem::path(o.out).parent_path(); !parent.empty())
    std::filesystem::create_directories(parent);
  if (Status s = judges::WriteClassifierModel(*model, o.out); !s.ok()) {
    std::cerr << "nunchi train: " << s.ToString() << "\n";
    return 1;
  }
  std::cout << o.out << ": variant " << o.variant << ", " << examples.size() << " examples, "
            << model->feature_ids.size() << " features, calibration "
            << (model->calibration.fitted ? "fitted" : "NOT fitted") << "\n";
  return 0;
}

}  // namespace

void AddTrainCommand(CLI::App& app) {
  auto o = std::make_shared<TrainOpts>();
  CLI::App* cmd = app.add_subcommand(
      "train", "Retrain the default judge's classifier (loaded by serve at its next start)");
  cmd->add_option("--shipped", o->shipped,
                  "Shipped training data: DIR/congestion-train.jsonl and DIR/written/*.jsonl")
      ->capture_default_str();
  cmd->add_option("--data", o->data,
                  "More labeled bundles (written sets, export-labels output); repeat")
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  cmd->add_option("--variant", o->variant, "Classifier variant")->capture_default_str();
  cmd->add_option("--out", o->out, "Model file to write")->capture_default_str();
  cmd->callback([o] { throw CLI::RuntimeError(RunTrain(*o)); });
}

}  // namespace nunchi
