#include "tlmgpu/memory_budget.hpp"

#include "tlmgpu/params.hpp"

#include <atomic>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>

namespace tlmgpu {

namespace {

// 0: not set, the default applies. One value per process, set by the command
// line before anything is loaded; atomic only so that reading it from the
// CPU-reference thread is not a data race.
std::atomic<uint64_t> g_budget{0};

constexpr uint64_t kGiB = uint64_t{1} << 30;

} // namespace

uint64_t default_memory_budget() {
  std::ifstream in("/proc/meminfo");
  std::string key, unit;
  uint64_t kib = 0;
  while (in >> key >> kib >> unit)
    if (key == "MemTotal:") return kib * 1024 / 2;
  return 8 * kGiB;
}

uint64_t memory_budget() {
  const uint64_t b = g_budget.load(std::memory_order_relaxed);
  if (b != 0) return b;
  static const uint64_t def = default_memory_budget();
  return def;
}

void set_memory_budget(uint64_t bytes) {
  g_budget.store(bytes, std::memory_order_relaxed);
}

uint64_t parse_memory_size(const std::string& text, const std::string& what) {
  const auto bad = [&] {
    return ConfigError(what + ": expected a size such as 8G, 512M or 1000000 (bytes), got '" +
                       text + "'");
  };
  double v = 0;
  const char* end = text.data() + text.size();
  auto [p, ec] = std::from_chars(text.data(), end, v);
  if (ec != std::errc() || p == text.data() || !(v > 0) || !std::isfinite(v)) throw bad();
  std::string unit(p, end);
  for (char& c : unit)
    c = char(std::tolower(static_cast<unsigned char>(c)));
  if (unit.ends_with("ib"))
    unit.resize(unit.size() - 2);
  else if (unit.size() == 2 && unit[1] == 'b')
    unit.resize(1);
  double scale = 1;
  if (unit == "k")
    scale = 1024.0;
  else if (unit == "m")
    scale = 1024.0 * 1024;
  else if (unit == "g")
    scale = double(kGiB);
  else if (unit == "t")
    scale = double(kGiB) * 1024;
  else if (!unit.empty() && unit != "b")
    throw bad();
  const double bytes = v * scale;
  if (bytes < 1 || bytes >= 1.8e19) throw bad();
  return uint64_t(bytes);
}

std::string format_bytes(uint64_t bytes) {
  if (bytes == UINT64_MAX) return "more than 16 EiB";
  const char* units[] = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  if (bytes < 1024) return std::to_string(bytes) + " bytes";
  double v = double(bytes) / 1024;
  int u = 0;
  while (v >= 1024 && u < 5)
    v /= 1024, ++u;
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f %s", v, units[u]);
  return buf;
}

void check_memory(uint64_t estimate, const std::string& what) {
  const uint64_t budget = memory_budget();
  if (estimate <= budget) return;
  const bool set = g_budget.load(std::memory_order_relaxed) != 0;
  throw ConfigError(what + " would take about " + format_bytes(estimate) +
                    ", more than --max-memory (" + format_bytes(budget) +
                    (set ? "" : ", half of this machine's RAM") +
                    "); lower it or raise --max-memory");
}

} // namespace tlmgpu
