// Output files of a run (src/app/run*.cpp): JSON written whole, and the
// host-side measurements that go to host.json, never to stats.json.
#pragma once

#include "tlmgpu/sim/context.hpp"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <iomanip>
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

} // namespace tlmgpu
