#include "ops/metrics.h"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>

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
  // From 100 us: the default judge answers in well under a millisecond.
  return {0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25,
          0.5,    1,       2.5,    5,     10,     20,    30,   45,    50,   60};
}

void HistogramFamily::Touch(const Labels& labels) {
  std::lock_guard lock(mu_);
  Series& s = series_[labels];
  if (s.buckets.empty()) s.buckets.assign(bounds_.size(), 0);
}

namespace {

// utime + stime in seconds, and the start time in clock ticks since boot,
// from /proc/self/stat (fields 14, 15 and 22).
bool ReadStat(double* cpu_seconds, double* start_ticks, double* vsize) {
  std::FILE* f = std::fopen("/proc/self/stat", "r");
  if (!f) return false;
  char buf[2048];
  size_t n = std::fread(buf, 1, sizeof buf - 1, f);
  std::fclose(f);
  buf[n] = 0;
  const char* p = std::strrchr(buf, ')');  // the command name may hold spaces
  if (!p) return false;
  std::vector<std::string> fields;
  std::string cur;
  for (++p; *p; ++p) {
    if (*p == ' ') {
      if (!cur.empty()) fields.push_back(cur), cur.clear();
    } else {
      cur += *p;
    }
  }
  if (!cur.empty()) fields.push_back(cur);
  // fields[0] is field 3 (state).
  if (fields.size() < 21) return false;
  const double hz = static_cast<double>(sysconf(_SC_CLK_TCK));
  *cpu_seconds = (std::stod(fields[11]) + std::stod(fields[12])) / hz;
  *start_ticks = std::stod(fields[19]);
  *vsize = std::stod(fields[20]);
  return true;
}

double BootTime() {
  std::FILE* f = std::fopen("/proc/stat", "r");
  if (!f) return 0;
  char line[512];
  double btime = 0;
  while (std::fgets(line, sizeof line, f))
    if (std::sscanf(line, "btime %lf", &btime) == 1) break;
  std::fclose(f);
  return btime;
}

double ResidentBytes() {
  std::FILE* f = std::fopen("/proc/self/statm", "r");
  if (!f) return 0;
  long size = 0, resident = 0;
  int got = std::fscanf(f, "%ld %ld", &size, &resident);
  std::fclose(f);
  return got == 2 ? static_cast<double>(resident) * static_cast<double>(sysconf(_SC_PAGESIZE)) : 0;
}

double OpenFds() {
  std::error_code ec;
  double n = 0;
  for (auto it = std::filesystem::directory_iterator("/proc/self/fd", ec);
       !ec && it != std::filesystem::directory_iterator(); it.increment(ec))
    ++n;
  return n;
}

}  // namespace

void RegisterProcessMetrics(MetricsRegistry& metrics) {
  double cpu = 0, start_ticks = 0, vsize = 0;
  ReadStat(&cpu, &start_ticks, &vsize);
  const double start = BootTime() + start_ticks / static_cast<double>(sysconf(_SC_CLK_TCK));
  rlimit lim{};
  const double max_fds =
      getrlimit(RLIMIT_NOFILE, &lim) == 0 ? static_cast<double>(lim.rlim_cur) : 0;
  metrics
      .Gauge("process_start_time_seconds",
             "Start time of the process since the Unix epoch in seconds.")
      .Set({}, start);
  metrics.Gauge("process_max_fds", "Maximum number of open file descriptors.").Set({}, max_fds);
  metrics.OnRender([](MetricsRegistry& m) {
    double cpu_now = 0, ticks = 0, vs = 0;
    if (ReadStat(&cpu_now, &ticks, &vs)) {
      auto& c = m.Counter("process_cpu_seconds_total",
                          "Total user and system CPU time spent in seconds.");
      c.Add({}, std::max(0.0, cpu_now - c.Get({})));
      m.Gauge("process_virtual_memory_bytes", "Virtual memory size in bytes.").Set({}, vs);
    }
    m.Gauge("process_resident_memory_bytes", "Resident memory size in bytes.")
        .Set({}, ResidentBytes());
    m.Gauge("process_open_fds", "Number of open file descriptors.").Set({}, OpenFds());
  });
}

std::vector<double> ConfidenceBuckets() {
  return {0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.97, 0.99, 1.0};
}

}  // namespace nunchi
