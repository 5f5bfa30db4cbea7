// LoadSpec: one benchmark load (DESIGN.md section 6) as read from a data file
// in loads/*.toml: how many spots, how many new signals per cycle and where,
// how big the bundles are, how many cycles on which interval, and whether the
// judgment store starts warm or is emptied by restarts. Plain values; safe to
// copy between threads.
#pragma once

#include <string>

namespace nunchi::bench {

struct LoadSpec {
  std::string name = "normal";
  std::string description;
  int spots = 6;                     // spots the backend knows
  int cycles = 100;                  // measured cycles
  double interval_s = 60;            // wall-clock time between cycle starts
  double sim_step_s = 60;            // simulated time per cycle (the 20-minute window)
  unsigned seed = 1;                 // text and traffic generator seed
  int new_signals_per_cycle = 6;     // new posts and comments per cycle
  int hot_spots = 6;                 // spots that receive them (the first N)
  int bundles_per_hot_spot = 1;      // open bundles per hot spot
  int initial_comments = 10;         // comments per bundle before measuring
  int bundle_cap = 14;               // comments at which a post closes and a new one opens
  int cold_spots_bundles = 0;        // bundles on non-hot spots in the history (cold load)
  double new_post_share = 0.05;      // share of new signals that open a new post
  double delete_share = 0.03;        // chance per cycle that a comment is deleted
  double repeat_author_share = 0.4;  // chance that a report comes from an earlier author
  double long_text_share = 0.02;     // share of texts between 200 and 500 characters
  bool warm_store = true;            // judge the history in an unmeasured warm-up cycle
  int restart_every = 0;             // cold: restart the server with an empty store every N cycles
};

// Reads a load file (TOML). Returns false and sets *error on a bad file.
bool LoadSpecFromFile(const std::string& path, LoadSpec* spec, std::string* error);
// Same, from TOML text (for tests).
bool LoadSpecFromString(const std::string& text, LoadSpec* spec, std::string* error);

}  // namespace nunchi::bench
