#include "ops/metrics.h"

#include <algorithm>
#include <cstdio>

namespace nunchi {
namespace {

std::string Escape(const std::string& v) {
  std::string o;
  for (char c : v) {
    if (c == '\\' || c == '"') o += '\\';
    if (c == '\n') {
      o += "\\n";
      continue;
    }
    o += c;
  }
  return o;
}

std::string LabelText(const Labels& labels, const std::string& extra = "") {
  if (labels.empty() && extra.empty()) return "";
  std::string o = "{";
  for (size_t i = 0; i < labels.size(); ++i) {
    if (i) o += ',';
    o += labels[i].first + "=\"" + Escape(labels[i].second) + "\"";
  }
  if (!extra.empty()) o += (labels.empty() ? "" : ",") + extra;
  return o + "}";
}

std::string Num(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.15g", v);
  return buf;
}

}  // namespace

void CounterFamily::Add(const Labels& labels, double v) {
  std::lock_guard lock(mu_);
  values_[labels] += v;
}

void CounterFamily::Set(const Labels& labels, double v) {
  std::lock_guard lock(mu_);
  values_[labels] = v;
}

double CounterFamily::Get(const Labels& labels) const {
  std::lock_guard lock(mu_);
  auto it = values_.find(labels);
  return it == values_.end() ? 0.0 : it->second;
}

void CounterFamily::Render(std::string* out) const {
  std::lock_guard lock(mu_);
  *out +=
      "# HELP " + name_ + " " + help_ + "\n# TYPE " + name_ + (gauge_ ? " gauge\n" : " counter\n");
  for (const auto& [labels, v] : values_) *out += name_ + LabelText(labels) + " " + Num(v) + "\n";
}

void HistogramFamily::Observe(const Labels& labels, double v) {
  std::lock_guard lock(mu_);
  Series& s = series_[labels];
  if (s.buckets.empty()) s.buckets.assign(bounds_.size(), 0);
  for (size_t i = 0; i < bounds_.size(); ++i)
    if (v <= bounds_[i]) ++s.buckets[i];
  s.sum += v;
  ++s.count;
}

uint64_t HistogramFamily::Count(const Labels& labels) const {
  std::lock_guard lock(mu_);
  auto it = series_.find(labels);
  return it == series_.end() ? 0 : it->second.count;
}

void HistogramFamily::Render(std::string* out) const {
  std::lock_guard lock(mu_);
  *out += "# HELP " + name_ + " " + help_ + "\n# TYPE " + name_ + " histogram\n";
  for (const auto& [labels, s] : series_) {
    for (size_t i = 0; i < bounds_.size(); ++i)
      *out += name_ + "_bucket" + LabelText(labels, "le=\"" + Num(bounds_[i]) + "\"") + " " +
              std::to_string(s.buckets[i]) + "\n";
    *out +=
        name_ + "_bucket" + LabelText(labels, "le=\"+Inf\"") + " " + std::to_string(s.count) + "\n";
    *out += name_ + "_sum" + LabelText(labels) + " " + Num(s.sum) + "\n";
    *out += name_ + "_count" + LabelText(labels) + " " + std::to_string(s.count) + "\n";
  }
}

CounterFamily& MetricsRegistry::Counter(const std::string& name, const std::string& help) {
  std::lock_guard lock(mu_);
  auto& slot = counters_[name];
  if (!slot) slot = std::make_unique<CounterFamily>(name, help, false);
  return *slot;
}

CounterFamily& MetricsRegistry::Gauge(const std::string& name, const std::string& help) {
  std::lock_guard lock(mu_);
  auto& slot = counters_[name];
  if (!slot) slot = std::make_unique<CounterFamily>(name, help, true);
  return *slot;
}

HistogramFamily& MetricsRegistry::Histogram(const std::string& name, const std::string& help,
                                            std::vector<double> bounds) {
  std::lock_guard lock(mu_);
  auto& slot = histograms_[name];
  if (!slot) slot = std::make_unique<HistogramFamily>(name, help, std::move(bounds));
  return *slot;
}

void MetricsRegistry::OnRender(std::function<void(MetricsRegistry&)> fn) {
  std::lock_guard lock(mu_);
  hooks_.push_back(std::move(fn));
}

std::string MetricsRegistry::Render() {
  std::vector<std::function<void(MetricsRegistry&)>> hooks;
  {
    std::lock_guard lock(mu_);
    hooks = hooks_;
  }
  for (auto& h : hooks) h(*this);
  std::string out;
  std::lock_guard lock(mu_);
  for (const auto& [n, c] : counters_) c->Render(&out);
  for (const auto& [n, h] : histograms_) h->Render(&out);
  return out;
}

std::vector<double> LatencyBuckets() {
  return {0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 30, 45, 50, 60};
}

std::vector<double> ConfidenceBuckets() {
  return {0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.97, 0.99, 1.0};
}

}  // namespace nunchi
