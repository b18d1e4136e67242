// Output files of a run (src/app/run*.cpp), all written into the run's
// ResultDir and checked down to fsync (tlmgpu/file_io.hpp), and the host-side
// measurements that go to host.json, never to stats.json.
#pragma once

#include "tlmgpu/app/run.hpp"
#include "tlmgpu/file_io.hpp"
#include "tlmgpu/json_text.hpp"
#include "tlmgpu/result_dir.hpp"
#include "tlmgpu/sim/context.hpp"
#include "tlmgpu/sim/trace.hpp"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <iomanip>
#include <memory>
#include <ostream>
#include <sstream>
#include <sys/resource.h>

namespace tlmgpu {

// `name` in the run's staging directory (tlmgpu/result_dir.hpp), checked
// down to fsync; errors name the file as it will be after the commit.
inline void write_text(const ResultDir& dir, const std::string& name, const std::string& text) {
  write_file_checked(dir.staging() / name, text, dir.out() / name);
}

// `splices`: members written straight into the text, not from `j`'s tree
// (stats.json's "total" and "kernels", tlmgpu/json_text.hpp).
inline void write_json(const ResultDir& dir, const std::string& name, const nlohmann::json& j,
                       std::vector<JsonSplice> splices = {}) {
  std::string text; // as `std::setw(2) << j` writes it, splices in place
  if (splices.empty())
    append_json(text, j, 2);
  else
    append_json_object(text, j, std::move(splices), 2);
  text += '\n';
  write_text(dir, name, text);
}

// stats.json's "kernels": each kernel's section, one at a time.
inline JsonSplice kernel_sections(const KernelRecords& kernels) {
  return {"kernels", [&kernels](std::string& out, int indent, unsigned depth) {
            kernels.append_json(out, indent, depth);
          }};
}

// stats.json's "total": the whole stats tree with units and descriptions.
inline JsonSplice total_stats(const StatGroup& root) {
  return {"total", [&root](std::string& out, int indent, unsigned depth) {
            root.append_json(out, StatView::Total, true, indent, depth);
          }};
}

inline double peak_rss_mib() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return double(u.ru_maxrss) / 1024.0;
}

// host.json: host-side measurements, kept out of stats.json so that it
// stays bit-identical across runs with the same seed.
inline void write_host_json(const ResultDir& dir, double host_s, Cycle cycles) {
  write_json(
      dir, "host.json",
      {{"host_seconds", host_s}, {"peak_rss_mib", peak_rss_mib()}, {"simulated_cycles", cycles}});
}

// The summary's last lines: simulated time, host time, the check, where
// stats.json is. `what` names the cycles ("core cycles"), `tag` the run.
inline void print_run_footer(std::ostream& out, const RunOptions& o, const std::string& what,
                             Cycle cycles, double host_s, const std::string& tag,
                             const std::string& check) {
  out << "simulated " << cycles << " " << what << " (" << std::fixed << std::setprecision(2)
      << sc_core::sc_time_stamp().to_seconds() * 1e6 << " us) in " << std::setprecision(3) << host_s
      << " s host time, peak RSS " << std::setprecision(0) << peak_rss_mib() << " MiB ["
      << to_string(o.timing) << ", " << tag << "]\n";
  out << "check: " << check << "\n";
  out << "stats: " << (std::filesystem::path(o.out_dir) / "stats.json").string() << "\n";
}

// --kernel-stats full: kernels.jsonl in the run directory, one line per
// kernel, written as each kernel ends (nothing kept in memory). Null: off.
class KernelLog {
public:
  explicit KernelLog(const ResultDir& dir)
      : f_(dir.staging() / "kernels.jsonl", dir.out() / "kernels.jsonl") {}
  // A failed write is remembered and reported by finish() (FileWriter).
  void write(const nlohmann::json& kernel) {
    line_.clear(); // as kernel.dump(), a kernel at a time
    append_json(line_, kernel);
    line_ += '\n';
    f_.stream() << line_;
  }
  void finish() { f_.close(); }

private:
  FileWriter f_;
  std::string line_; // reused: a titanv kernel's line is about 100 KB
};

inline std::unique_ptr<KernelLog> open_kernel_log(const RunOptions& o, const ResultDir& dir,
                                                  RunContext& run) {
  if (o.kernel_stats != RunOptions::KernelStats::Full) return nullptr;
  auto log = std::make_unique<KernelLog>(dir);
  run.kernel_log = [l = log.get()](const nlohmann::json& k) { l->write(k); };
  return log;
}

// The run's trace writer (--trace), null when off; cycles are `device0`'s.
// A trace file inside --out is written into the staging directory with the
// rest, so it appears (and is in the manifest) only with a complete run.
inline std::unique_ptr<TraceWriter> open_trace(const RunOptions& o, const ResultDir& dir,
                                               const PlatformSpec& device0) {
  if (o.trace.path.empty()) return nullptr;
  TraceOptions t = o.trace;
  t.path = dir.staged(t.path).string();
  t.clock_mhz = device0.sm.clock_mhz;
  return std::make_unique<TraceWriter>(t);
}

} // namespace tlmgpu
