// `nunchi export-labels`: the LLM's verdicts on escalated signals as training
// data. Reads DATA_DIR/judgments.db and writes one bundle line per judgment
// that the LLM made on a cascade escalation and whose text the server kept
// (serve --keep-texts), in the data-set format of congestion-labels.md (a
// post-only bundle), so `nunchi eval` and the classifier's trainer read it.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>

#include "app/commands.h"
#include "store/judgment_store.h"

namespace nunchi {
namespace {

struct ExportOpts {
  std::string data_dir = "./nunchi-data";
  std::string out;
};

int RunExport(const ExportOpts& o) {
  const auto db = std::filesystem::path(o.data_dir) / "judgments.db";
  if (!std::filesystem::exists(db)) {
    std::cerr << "nunchi export-labels: no store at " << db.string() << "\n";
    return 1;
  }
  auto store = OpenSqliteStore(db.string());
  if (!store.ok()) {
    std::cerr << "nunchi export-labels: " << store.status().ToString() << "\n";
    return 1;
  }
  auto rows = (*store)->LlmLabeledRows();
  if (!rows.ok()) {
    std::cerr << "nunchi export-labels: " << rows.status().ToString() << "\n";
    return 1;
  }
  std::ofstream out(o.out);
  if (!out) {
    std::cerr << "nunchi export-labels: cannot write " << o.out << "\n";
    return 1;
  }
  size_t agreed = 0;
  for (const StoredJudgment& r : *rows) {
    const Judgment& j = r.judgment;
    nlohmann::ordered_json label = {{"relevance", std::string(ToString(j.relevance))},
                                    {"level", std::string(ToString(j.level))},
                                    {"cause", std::string(ToString(j.cause))}};
    nlohmann::ordered_json line = {
        {"bundle_id", "llm-" + r.signal_id},
        {"spot", {{"spot_id", r.spot_id}, {"name", ""}, {"description", ""}}},
        {"post",
         {{"signal_id", r.signal_id},
          {"author_id", r.author_id},
          {"minutes_ago", 0},
          {"text", r.text},
          {"label", label}}},
        {"comments", nlohmann::json::array()},
        {"source", {{"judge", j.judge}, {"model", j.model}, {"prompt_version", j.prompt_version},
                    {"calibration", j.cascade->calibration_version},
                    {"cheap_judge", j.cascade->cheap_judge}}}};
    agreed += j.cascade->cheap_relevance == j.relevance && j.cascade->cheap_level == j.level;
    out << line.dump() << "\n";
  }
  std::cout << o.out << ": " << rows->size() << " LLM-labeled signals (" << agreed
            << " agreed with the cheap judge)\n";
  return 0;
}

}  // namespace

void AddExportLabelsCommand(CLI::App& app) {
  auto o = std::make_shared<ExportOpts>();
  CLI::App* cmd = app.add_subcommand(
      "export-labels", "Write the LLM's verdicts on escalated signals as training JSON lines");
  cmd->add_option("--data-dir", o->data_dir, "The server's data directory")->capture_default_str();
  cmd->add_option("--out", o->out, "JSON-lines file to write")->required();
  cmd->callback([o] { throw CLI::RuntimeError(RunExport(*o)); });
}

}  // namespace nunchi
