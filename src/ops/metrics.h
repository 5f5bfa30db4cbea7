// Metrics: a small Prometheus-style registry (counters, gauges, histograms
// with label sets) and its text exposition format. Names are `nunchi_*` in
// base units (seconds, bytes).
//
// Thread-safety: every method may be called from any thread; each family has
// its own mutex and never waits on anything else, so /metrics cannot stall
// behind judging. Families are owned by the registry and live as long as it.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace nunchi {

using Labels = std::vector<std::pair<std::string, std::string>>;

class CounterFamily {
 public:
  CounterFamily(std::string name, std::string help, bool gauge)
      : name_(std::move(name)), help_(std::move(help)), gauge_(gauge) {}
  void Add(const Labels& labels, double v = 1.0);
  void Set(const Labels& labels, double v);  // gauges
  double Get(const Labels& labels) const;
  void Render(std::string* out) const;

 private:
  std::string name_, help_;
  bool gauge_;
  mutable std::mutex mu_;
  std::map<Labels, double> values_;
};

class HistogramFamily {
 public:
  HistogramFamily(std::string name, std::string help, std::vector<double> bounds)
      : name_(std::move(name)), help_(std::move(help)), bounds_(std::move(bounds)) {}
  void Observe(const Labels& labels, double v);
  uint64_t Count(const Labels& labels) const;
  // Creates the series at 0, so that it is exported before its first observation.
  void Touch(const Labels& labels);
  void Render(std::string* out) const;

 private:
  struct Series {
    std::vector<uint64_t> buckets;
    double sum = 0;
    uint64_t count = 0;
  };
  std::string name_, help_;
  std::vector<double> bounds_;
  mutable std::mutex mu_;
  std::map<Labels, Series> series_;
};

class MetricsRegistry {
 public:
  CounterFamily& Counter(const std::string& name, const std::string& help);
  CounterFamily& Gauge(const std::string& name, const std::string& help);
  HistogramFamily& Histogram(const std::string& name, const std::string& help,
                             std::vector<double> bounds);
  // Called at render time to refresh gauges that are read from elsewhere.
  void OnRender(std::function<void(MetricsRegistry&)> fn);
  std::string Render();

 private:
  std::mutex mu_;
  std::map<std::string, std::unique_ptr<CounterFamily>> counters_;
  std::map<std::string, std::unique_ptr<HistogramFamily>> histograms_;
  std::vector<std::function<void(MetricsRegistry&)>> hooks_;
};

// Default latency buckets in seconds, 100 us .. 60 s.
std::vector<double> LatencyBuckets();
// Buckets for a confidence in 0..1 (judgment confidence): tenths, finer near 1.
std::vector<double> ConfidenceBuckets();

}  // namespace nunchi

namespace nunchi {

// Standard process metrics, refreshed at each render from /proc/self:
// process_cpu_seconds_total, process_resident_memory_bytes,
// process_virtual_memory_bytes, process_open_fds, process_max_fds,
// process_start_time_seconds (Unix time).
void RegisterProcessMetrics(MetricsRegistry& metrics);

}  // namespace nunchi
