// CLI entry points of the image extraction layer, wired by the app's main:
//   nunchi eval-extract --dir DIR [--json] [--model F.gguf]
//   nunchi render-extract --out DIR [--count N] [--seed S]
// Both run on the calling thread and print to stdout; they return the
// process exit code (0 ok, 1 failure, 2 bad usage).
#pragma once

#include <cstdint>
#include <string>

namespace nunchi {

namespace extract {
class CandidateChooser;
}

// Runs the extraction pipeline over every image in DIR that has a NAME.json
// ground truth beside it (see tools/render/truth.h) and prints the exact-match
// accuracy of the amount, the accuracy of each receipt field and the latency
// p50/p95 per image. json: one JSON object instead of the text report.
// chooser: the LLM judge the field rules consult when unsure (may be null).
int RunEvalExtract(const std::string& dir, bool json, extract::CandidateChooser* chooser = nullptr);

// Renders `count` labelled synthetic images into DIR (see tools/render).
int RunRenderExtract(const std::string& out_dir, int count, uint64_t seed);

}  // namespace nunchi
