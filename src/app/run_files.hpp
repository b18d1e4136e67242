// Output files of a run (src/app/run*.cpp): JSON written whole, and the
// host-side measurements that go to host.json, never to stats.json.
#pragma once

#include "tlmgpu/app/run.hpp"
#include "tlmgpu/sim/context.hpp"
#include "tlmgpu/sim/trace.hpp"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <iomanip>
#include <memory>
#include <sys/resource.h>

namespace tlmgpu {

inline void write_json(const std::filesystem::path& p, const nlohmann::json& j) {
  std::ofstream f(p);
  if (!f) throw SimError("cannot write " + p.string());
  f << std::setw(2) << j << "\n";
}

inline double peak_rss_mib() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return double(u.ru_maxrss) / 1024.0;
}

// The run's trace writer (--trace), null when off; cycles are `device0`'s.
inline std::unique_ptr<TraceWriter> open_trace(const RunOptions& o, const PlatformSpec& device0) {
  if (o.trace.path.empty()) return nullptr;
  TraceOptions t = o.trace;
  t.clock_mhz = device0.sm.clock_mhz;
  return std::make_unique<TraceWriter>(t);
}

} // namespace tlmgpu
