#include "judges/rule_measure.h"

#include <algorithm>
#include <cstdio>
#include <map>

#include "judges/rule_confidence.h"
#include "judges/spot_scope.h"

namespace nunchi::judges {
namespace {

std::string Pct(size_t k, size_t n) {
  if (n == 0) return "–";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f %%", 100.0 * k / n);
  return buf;
}
std::string Bound(size_t k, size_t n) {
  if (n == 0) return "–";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", WilsonLower(k, n));
  return buf;
}

}  // namespace

PassTally MeasurePasses(const Rules& rules, const std::vector<LabeledBundle>& bundles,
                        std::string* mistakes) {
  PassTally t;
  for (const auto& b : bundles) {
    RuleContext ctx;
    ctx.spot = &b.spot;
    SpotScope scope = MakeSpotScope(b.spot);
    ctx.spot_compact = std::move(scope.included_compact);
    ctx.spot_excluded = std::move(scope.excluded);
    Judgment parent, post;
    for (size_t i = 0; i < b.bundle.size(); ++i) {
      const std::string& text = i == 0 ? b.bundle.post.text : b.bundle.comments[i - 1].text;
      const auto& label = b.labels[i];
      ctx.parent = i == 0 ? nullptr : &parent;
      Level asked = Level::kUnknown;
      if (label) {
        RuleVerdict v = rules.Analyze(text, ctx);
        asked = v.asked;
        ++t.signals;
        if (!v.decided || v.row.empty()) {
          ++t.undecided;
        } else {
          size_t r = 0;
          while (r < t.rows.size() && RuleRowName(static_cast<RuleRow>(r)) != v.row) ++r;
          if (r < t.rows.size()) {
            RowTally& row = t.rows[r];
            ++row.fires;
            if (v.judgment.relevance == label->relevance) ++row.relevance_correct;
            bool wrong = v.judgment.relevance != label->relevance;
            if (v.judgment.relevance == Relevance::kRelevant &&
                label->relevance == Relevance::kRelevant) {
              ++row.level_judged;
              if (v.judgment.level == label->level) ++row.level_correct;
              wrong = wrong || v.judgment.level != label->level;
            }
            if (wrong && mistakes)
              *mistakes += std::string(v.row) + "\t" + std::string(ToString(label->relevance)) +
                           "/" + std::string(ToString(label->level)) + " judged " +
                           std::string(ToString(v.judgment.relevance)) + "/" +
                           std::string(ToString(v.judgment.level)) + "\t[" + b.spot.name + "] " +
                           text + "\n";
          }
        }
      }
      // The next signal's parent: this one as labeled (unlabeled: as the rules read it).
      if (label) {
        parent = Judgment{};
        parent.relevance = label->relevance;
        parent.level = label->level;
        parent.cause = label->cause;
      } else {
        RuleVerdict v = rules.Analyze(text, ctx);
        parent = v.judgment;
        asked = v.asked;
      }
      ctx.parent_asked = asked;
      if (i == 0) {
        post = parent;
        ctx.post = &post;
        if (label && label->relevance == Relevance::kRelevant && label->cause != Cause::kNone) {
          ctx.post_cause = label->cause;
          rules.DetectCause(text, &ctx.post_cause_key);
        } else {
          ctx.post_cause = rules.DetectCause(text, &ctx.post_cause_key);
          if (ctx.post_cause == Cause::kNone && IsEventSpot(b.spot)) ctx.post_cause = Cause::kEvent;
        }
      }
    }
  }
  return t;
}

void AddTally(const PassTally& from, PassTally* to) {
  to->signals += from.signals;
  to->undecided += from.undecided;
  for (size_t r = 0; r < to->rows.size(); ++r) {
    to->rows[r].fires += from.rows[r].fires;
    to->rows[r].relevance_correct += from.rows[r].relevance_correct;
    to->rows[r].level_judged += from.rows[r].level_judged;
    to->rows[r].level_correct += from.rows[r].level_correct;
  }
}

std::string PassTableMarkdown(const PassTally& t) {
  std::string out;
  out += "signals " + std::to_string(t.signals) + ", left to the classifier " +
         std::to_string(t.undecided) + "\n\n";
  out +=
      "| pass / row | fires | relevance precision | level precision (n) | relevance conf. | "
      "level conf. |\n|---|---|---|---|---|---|\n";
  auto line = [&](std::string_view name, const RowTally& r) {
    out += "| " + std::string(name) + " | " + std::to_string(r.fires) + " | " +
           Pct(r.relevance_correct, r.fires) + " | " + Pct(r.level_correct, r.level_judged) + " (" +
           std::to_string(r.level_judged) + ") | " + Bound(r.relevance_correct, r.fires) + " | " +
           Bound(r.level_correct, r.level_judged) + " |\n";
  };
  std::map<std::string_view, RowTally> passes;
  std::vector<std::string_view> order;
  for (size_t r = 0; r < t.rows.size(); ++r) {
    std::string_view pass = RulePassName(static_cast<RuleRow>(r));
    if (!passes.count(pass)) order.push_back(pass);
    RowTally& p = passes[pass];
    p.fires += t.rows[r].fires;
    p.relevance_correct += t.rows[r].relevance_correct;
    p.level_judged += t.rows[r].level_judged;
    p.level_correct += t.rows[r].level_correct;
  }
  for (auto pass : order) line("**" + std::string(pass) + "**", passes[pass]);
  for (size_t r = 0; r < t.rows.size(); ++r)
    if (t.rows[r].fires > 0) line(RuleRowName(static_cast<RuleRow>(r)), t.rows[r]);
  return out;
}

std::string PassTableCpp(const std::vector<PassTally>& groups) {
  PassTally pooled;
  for (const auto& g : groups) AddTally(g, &pooled);
  std::string out = "constexpr RowConfidence kMeasured[] = {\n";
  for (size_t r = 0; r < pooled.rows.size(); ++r) {
    const RowTally& all = pooled.rows[r];
    double rel = WilsonLower(all.relevance_correct, all.fires);
    double lvl = all.level_judged ? WilsonLower(all.level_correct, all.level_judged) : rel;
    for (const auto& g : groups) {
      const RowTally& row = g.rows[r];
      if (row.fires >= kMinGroupFires)
        rel = std::min(rel, static_cast<double>(row.relevance_correct) / row.fires);
      if (row.level_judged >= kMinGroupFires)
        lvl = std::min(lvl, static_cast<double>(row.level_correct) / row.level_judged);
    }
    if (all.level_judged == 0) lvl = rel;  // never decided a RELEVANT signal
    char buf[160];
    std::snprintf(buf, sizeof buf, "    {%.2ff, %.2ff, %zu},  // %s\n", rel, lvl, all.fires,
                  std::string(RuleRowName(static_cast<RuleRow>(r))).c_str());
    out += buf;
  }
  out += "};\n";
  return out;
}

}  // namespace nunchi::judges
