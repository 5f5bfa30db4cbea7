// `nunchi tokens`: what a model's tokenizer makes of Korean crowd reports
// (issue 18, section 5; seed 004: tokenization is not neutral). For each
// --model GGUF (a full model or a vocabulary-only file from llama.cpp's
// models/), over the bundles of --data:
//   - tokens per character of each signal text (characters: code points that
//     are not white space) and tokens per signal, mean, p50 and p95;
//   - the judge prompt (llm/prompt.h, the real prompt builder, chat template
//     applied as the engine does) of every bundle with its last signal as
//     the one to judge: its system prefix (computed once and cached) and the
//     whole prompt, mean, p50 and p95;
//   - the estimated prefill time of those prompts at the engine's rate: with
//     weights the rate is measured (LlamaEngine, one sequence, prefix reuse
//     off, the typical prompt, median of 3 after a warm-up), else taken from
//     --prefill-rate, else "n/a: vocab only".
// Output: text (default), one JSON object per model (--format json), or a
// Markdown table (--format markdown, the one in docs/benchmarks.md).
// Exit codes: 0 ok; 1 the data cannot be read (as in eval, train,
// calibrate) or llama.cpp cannot load the file; 2 the --model path is
// missing or no GGUF file, or no data was given or found.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "app/commands.h"
#include "app/config.h"
#include "engines/llama/engine.h"
#include "engines/llama/vocab_file.h"
#include "judges/bundles_jsonl.h"
#include "judges/text_util.h"
#include "llm/prompt.h"

namespace nunchi {
namespace {

using nlohmann::json;

struct TokensOpts {
  std::vector<std::string> models;
  std::vector<std::string> data;
  double prefill_rate = 0;  // tokens/s; 0: measure when the model has weights
  int threads = 2;
  std::string format = "text";
};

// The shipped dev-like data when none is given: the shared dev set next to
// the checkout if present, else the training set in the repository.
std::vector<std::string> DefaultData() {
  for (const char* p : {"../shared/data/congestion-dev.jsonl", "data/train/congestion-train.jsonl"})
    if (std::filesystem::is_regular_file(p)) return {p};
  return {};
}

// Mean, p50 and p95 (linear between order statistics) of some values.
struct Dist {
  double mean = 0, p50 = 0, p95 = 0;
  size_t n = 0;
};

Dist Describe(std::vector<double> v) {
  Dist d;
  d.n = v.size();
  if (v.empty()) return d;
  std::sort(v.begin(), v.end());
  double sum = 0;
  for (double x : v) sum += x;
  d.mean = sum / double(v.size());
  auto q = [&](double p) {
    const double at = p * double(v.size() - 1);
    const size_t lo = static_cast<size_t>(std::floor(at));
    const size_t hi = std::min(lo + 1, v.size() - 1);
    return v[lo] + (v[hi] - v[lo]) * (at - double(lo));
  };
  d.p50 = q(0.5);
  d.p95 = q(0.95);
  return d;
}

json DistJson(const Dist& d) { return {{"mean", d.mean}, {"p50", d.p50}, {"p95", d.p95}}; }

struct CharCount {
  size_t chars = 0;   // code points that are not white space
  size_t hangul = 0;  // of which Hangul syllables or jamo
};

CharCount CountChars(std::string_view text) {
  CharCount c;
  for (size_t i = 0; i < text.size();) {
    const char32_t cp = judges::NextCodePoint(text, i);
    if (judges::IsSpace(cp)) continue;
    ++c.chars;
    if (judges::IsHangulSyllable(cp) || judges::IsHangulJamo(cp) || (cp >= 0x1100 && cp <= 0x11FF))
      ++c.hangul;
  }
  return c;
}

struct Report {
  std::string path, name, type, pre;
  int32_t n_vocab = 0;
  bool weights = false, own_template = false;
  size_t bundles = 0, signals = 0, chars = 0, hangul = 0, tokens = 0;
  Dist per_char, per_signal, prompt, uncached;
  int system_tokens = 0;
  double rate = 0;          // prefill tokens/s, 0 when unknown
  std::string rate_source;  // "measured", "given", or why there is none
};

// The engine's prefill rate on the typical prompt, or 0 with *why.
double MeasurePrefill(const std::string& model, const std::string& prompt, int prompt_tokens,
                      int threads, std::string* why) {
  llama::EngineOptions eo;
  eo.model_path = model;
  eo.threads = threads;
  eo.max_active = 1;
  eo.n_ctx = std::max(2048, prompt_tokens + 256);
  eo.max_cached = 0;  // every run computes the whole prompt
  eo.cache_budget_bytes = 0;
  auto engine = llama::LlamaEngine::Create(eo);
  if (!engine.ok()) {
    *why = engine.status().ToString();
    return 0;
  }
  std::vector<double> rates;
  for (int round = 0; round < 4; ++round) {  // the first is a warm-up
    llm::EngineRequest req;
    req.prompt = prompt;
    req.max_tokens = 1;
    req.id = "tokens/prefill";
    const auto t0 = llm::EngineClock::now();
    auto r = (*engine)->Run(std::move(req));
    if (!r.ok()) {
      *why = r.status().ToString();
      return 0;
    }
    const double secs = std::chrono::duration<double>(r->prefilled_at - t0).count();
    if (round > 0 && secs > 0 && r->computed_tokens > 0) rates.push_back(r->computed_tokens / secs);
  }
  if (rates.empty()) {
    *why = "no prefill was timed";
    return 0;
  }
  return Describe(rates).p50;
}

// Builds the report of one model over the bundles. Returns the exit code.
int Analyze(const std::string& model, const std::vector<judges::LabeledBundle>& bundles,
            const TokensOpts& o, Report* rep) {
  auto vocab = llama::VocabFile::Open(model);
  if (!vocab.ok()) {
    std::cerr << "nunchi tokens: " << vocab.status().message() << "\n";
    return vocab.status().code() == ErrorCode::kInvalidArgument ? kExitUsage : kExitRuntime;
  }
  const llama::VocabFile& v = **vocab;
  rep->path = model;
  rep->name = v.name();
  rep->type = v.type();
  rep->pre = v.pre();
  rep->n_vocab = v.n_tokens();
  rep->weights = v.has_weights();
  rep->own_template = v.own_chat_template();
  rep->bundles = bundles.size();

  std::vector<double> per_char, per_signal, prompt, uncached;
  const llm::PromptTemplate& tmpl = llm::DefaultPrompt();
  auto system = v.ApplyChatTemplate({{"system", std::string(llm::SharedPrefix(tmpl))}}, false);
  if (!system.ok()) {
    std::cerr << "nunchi tokens: " << model << ": " << system.status().message() << "\n";
    return kExitRuntime;
  }
  rep->system_tokens = static_cast<int>(v.Tokenize(*system, false, true).size());
  std::vector<std::pair<int, std::string>> prompts;  // (tokens, text)
  for (const judges::LabeledBundle& lb : bundles) {
    for (size_t i = 0; i < lb.bundle.size(); ++i) {
      const std::string& text = lb.bundle.at(i).text;
      const CharCount c = CountChars(text);
      const size_t n = v.Tokenize(text, false, false).size();
      ++rep->signals;
      rep->chars += c.chars;
      rep->hangul += c.hangul;
      rep->tokens += n;
      per_signal.push_back(double(n));
      if (c.chars > 0) per_char.push_back(double(n) / double(c.chars));
    }
    JudgeTask task;
    task.spot = lb.spot;
    task.bundle = lb.bundle;
    task.targets = {lb.bundle.size() - 1};  // a cycle judges the newest signal
    task.analyzed_at = judges::kDataSetAnalyzedAtMs;
    auto rendered = llm::RenderJudgePrompt(task, tmpl);
    if (!rendered.ok()) continue;
    auto chat =
        v.ApplyChatTemplate({{"system", rendered->system}, {"user", rendered->user()}}, true);
    if (!chat.ok()) continue;
    const int n = static_cast<int>(v.Tokenize(*chat, false, true).size());
    prompt.push_back(n);
    uncached.push_back(n - rep->system_tokens);
    prompts.emplace_back(n, std::move(*chat));
  }
  rep->per_char = Describe(per_char);
  rep->per_signal = Describe(per_signal);
  rep->prompt = Describe(prompt);
  rep->uncached = Describe(uncached);

  if (o.prefill_rate > 0) {
    rep->rate = o.prefill_rate;
    rep->rate_source = "given";
  } else if (!rep->weights) {
    rep->rate_source = "n/a: vocab only";
  } else if (prompts.empty()) {
    rep->rate_source = "n/a: no prompt";
  } else {
    std::sort(prompts.begin(), prompts.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    const auto& typical = prompts[prompts.size() / 2];
    std::string why;
    rep->rate = MeasurePrefill(model, typical.second, typical.first, o.threads, &why);
    if (rep->rate <= 0) {
      std::cerr << "nunchi tokens: " << model << ": cannot measure prefill: " << why << "\n";
      return kExitRuntime;
    }
    rep->rate_source = "measured, " + std::to_string(o.threads) + " threads";
  }
  return kExitOk;
}

std::string Ms(double tokens, double rate) {
  if (rate <= 0) return "n/a";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.0f ms", 1000.0 * tokens / rate);
  return buf;
}

json ToJson(const Report& r, const std::vector<std::string>& data) {
  json j = {{"model", r.path},
            {"name", r.name},
            {"vocab_type", r.type},
            {"pre", r.pre},
            {"n_vocab", r.n_vocab},
            {"weights", r.weights},
            {"chat_template", r.own_template ? "own" : "chatml"},
            {"data", data},
            {"bundles", r.bundles},
            {"signals", r.signals},
            {"chars", r.chars},
            {"hangul_share", r.chars ? double(r.hangul) / double(r.chars) : 0.0},
            {"tokens", r.tokens},
            {"tokens_per_char_pooled", r.chars ? double(r.tokens) / double(r.chars) : 0.0},
            {"tokens_per_char", DistJson(r.per_char)},
            {"tokens_per_signal", DistJson(r.per_signal)},
            {"prompt_version", std::string(llm::kJudgePromptVersion)},
            {"system_prompt_tokens", r.system_tokens},
            {"prompt_tokens", DistJson(r.prompt)},
            {"uncached_prompt_tokens", DistJson(r.uncached)},
            {"prefill_rate_source", r.rate_source}};
  if (r.rate > 0) {
    j["prefill_tok_s"] = r.rate;
    j["prefill_ms"] = {{"p50", 1000 * r.prompt.p50 / r.rate},
                       {"p95", 1000 * r.prompt.p95 / r.rate},
                       {"uncached_p50", 1000 * r.uncached.p50 / r.rate}};
  } else {
    j["prefill_tok_s"] = nullptr;
    j["prefill_ms"] = nullptr;
  }
  return j;
}

void PrintText(const Report& r) {
  std::printf("%s: %s, %s%s%s, %d tokens, %s, chat template %s\n", r.path.c_str(), r.name.c_str(),
              r.type.c_str(), r.pre.empty() ? "" : "/", r.pre.c_str(), r.n_vocab,
              r.weights ? "with weights" : "vocab only", r.own_template ? "its own" : "ChatML");
  std::printf("  %zu bundles, %zu signals, %zu characters (%.0f %% Hangul), %zu tokens\n",
              r.bundles, r.signals, r.chars, r.chars ? 100.0 * r.hangul / r.chars : 0.0, r.tokens);
  std::printf("  tokens per character  mean %.2f  p50 %.2f  p95 %.2f  (pooled %.2f)\n",
              r.per_char.mean, r.per_char.p50, r.per_char.p95,
              r.chars ? double(r.tokens) / r.chars : 0.0);
  std::printf("  tokens per signal     mean %.1f  p50 %.0f  p95 %.0f\n", r.per_signal.mean,
              r.per_signal.p50, r.per_signal.p95);
  std::printf(
      "  judge prompt (%s, newest signal judged): system prefix %d tokens; whole prompt "
      "mean %.0f  p50 %.0f  p95 %.0f; past the prefix p50 %.0f\n",
      std::string(llm::kJudgePromptVersion).c_str(), r.system_tokens, r.prompt.mean, r.prompt.p50,
      r.prompt.p95, r.uncached.p50);
  if (r.rate > 0) {
    std::printf(
        "  prefill at %.0f tokens/s (%s): whole prompt p50 %s, p95 %s; past the cached "
        "prefix p50 %s\n",
        r.rate, r.rate_source.c_str(), Ms(r.prompt.p50, r.rate).c_str(),
        Ms(r.prompt.p95, r.rate).c_str(), Ms(r.uncached.p50, r.rate).c_str());
  } else {
    std::printf("  prefill: %s (give --prefill-rate TOKENS_PER_S for an estimate)\n",
                r.rate_source.c_str());
  }
}

void PrintMarkdown(const std::vector<Report>& reports) {
  std::printf(
      "| vocabulary | type | size | template | tokens/char mean | p50 | p95 | tokens/signal mean "
      "| p50 | p95 | system prefix | prompt p50 | prompt p95 | past the prefix p50 | prefill p50 "
      "| prefill past the prefix p50 |\n"
      "|---|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|\n");
  for (const Report& r : reports) {
    const std::string file = std::filesystem::path(r.path).filename().string();
    const bool rate = r.rate > 0;
    std::printf(
        "| %s | %s%s%s | %d | %s | %.2f | %.2f | %.2f | %.1f | %.0f | %.0f | %d | %.0f "
        "| %.0f | %.0f | %s | %s |\n",
        file.c_str(), r.type.c_str(), r.pre.empty() ? "" : " ", r.pre.c_str(), r.n_vocab,
        r.own_template ? "own" : "ChatML", r.per_char.mean, r.per_char.p50, r.per_char.p95,
        r.per_signal.mean, r.per_signal.p50, r.per_signal.p95, r.system_tokens, r.prompt.p50,
        r.prompt.p95, r.uncached.p50,
        rate ? Ms(r.prompt.p50, r.rate).c_str() : r.rate_source.c_str(),
        rate ? Ms(r.uncached.p50, r.rate).c_str() : r.rate_source.c_str());
  }
}

int RunTokens(TokensOpts o) {
  if (o.data.empty()) o.data = DefaultData();
  if (o.data.empty()) {
    std::cerr << "nunchi tokens: no --data given and no default data set found "
                 "(../shared/data/congestion-dev.jsonl, data/train/congestion-train.jsonl)\n";
    return kExitUsage;
  }
  std::vector<judges::LabeledBundle> bundles;
  for (const std::string& path : o.data) {
    std::ifstream in(path);
    if (!in) {
      std::cerr << "nunchi tokens: cannot open data file " << path << "\n";
      return kExitRuntime;
    }
    auto got = judges::ReadBundlesJsonl(in);
    if (!got.ok()) {
      std::cerr << "nunchi tokens: " << path << ": " << got.status().ToString() << "\n";
      return kExitRuntime;
    }
    bundles.insert(bundles.end(), got->begin(), got->end());
  }
  if (bundles.empty()) {
    std::cerr << "nunchi tokens: the data holds no bundle\n";
    return kExitRuntime;
  }
  std::vector<Report> reports;
  for (const std::string& model : o.models) {
    Report r;
    if (int code = Analyze(model, bundles, o, &r); code != kExitOk) return code;
    if (o.format == "json") {
      std::printf("%s\n", ToJson(r, o.data).dump().c_str());
    } else if (o.format == "text") {
      PrintText(r);
    }
    std::fflush(stdout);
    reports.push_back(std::move(r));
  }
  if (o.format == "markdown") PrintMarkdown(reports);
  return kExitOk;
}

}  // namespace

void AddTokensCommand(CLI::App& app) {
  auto o = std::make_shared<TokensOpts>();
  CLI::App* cmd = app.add_subcommand(
      "tokens",
      "Tokens per Korean character and per signal, judge prompt tokens and prefill "
      "time for GGUF tokenizers (vocab-only files work)");
  cmd->add_option("--model", o->models, "GGUF model or vocabulary file (repeat for several)")
      ->required()
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  cmd->add_option("--data", o->data,
                  "Bundles as JSON lines (repeat for several; default: "
                  "../shared/data/congestion-dev.jsonl, else data/train/congestion-train.jsonl)")
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  cmd->add_option("--prefill-rate", o->prefill_rate,
                  "Prefill tokens/s for the estimate (default: measured when the file has "
                  "weights, none for vocab-only files)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("-t,--threads", o->threads, "CPU threads for the prefill measurement")
      ->capture_default_str()
      ->check(CLI::Range(1, 1024));
  cmd->add_option("--format", o->format, "text, json (one object per model) or markdown")
      ->capture_default_str()
      ->check(CLI::IsMember({"text", "json", "markdown"}));
  cmd->callback([o] { throw CLI::RuntimeError(RunTokens(*o)); });
}

}  // namespace nunchi
