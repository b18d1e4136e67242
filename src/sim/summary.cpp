// The short human summary a run prints per kernel. Everything here is read
// back from the per-kernel stats sections, so the summary and stats.json
// can never disagree.
#include "tlmgpu/sim/summary.hpp"

#include <cstdio>

namespace tlmgpu {

namespace {
// Sum of `stat` over the children of `gpu` whose name starts with `prefix`,
// optionally one level down (`sub`, e.g. the L1 inside each SM).
double sum_over(const nlohmann::json& gpu, const std::string& prefix, const std::string& stat,
                const std::string& sub = "") {
  double s = 0;
  for (auto& [name, node] : gpu.items()) {
    if (name.rfind(prefix, 0) != 0 || !node.is_object()) continue;
    const nlohmann::json& n = sub.empty() ? node : node.value(sub, nlohmann::json::object());
    if (n.contains(stat) && n[stat].is_number()) s += n[stat].get<double>();
  }
  return s;
}
double ratio_of(double a, double b) {
  return b == 0 ? 0 : a / b;
}
} // namespace

std::string summarize_kernel(const nlohmann::json& kernel, double core_mhz) {
  const nlohmann::json& g = kernel["stats"].value("gpu", nlohmann::json::object());
  const double cycles = kernel.value("cycles", 0.0);
  const double winst = sum_over(g, "sm_", "warp_instructions");
  const double atomics = sum_over(g, "sm_", "atomics") + sum_over(g, "sm_", "reds");
  const double atomic_req = sum_over(g, "sm_", "atomic_requests");
  const double global_req = sum_over(g, "sm_", "global_requests");
  const double l1_hits = sum_over(g, "sm_", "load_hits", "l1"),
               l1_loads = sum_over(g, "sm_", "loads", "l1");
  const double l2_hits = sum_over(g, "l2_", "load_hits"), l2_loads = sum_over(g, "l2_", "loads");
  const double xbar = g.value("xbar", nlohmann::json::object()).value("bytes", 0.0);
  const double dram = sum_over(g, "dram_", "bytes_read") + sum_over(g, "dram_", "bytes_written");
  const double serial = sum_over(g, "l2_", "same_word_serializations");
  char buf[512];
  std::snprintf(buf, sizeof buf,
                "kernel %s: %.0f cycles (%.2f us), %.0f warp instructions, IPC %.2f; %.0f atomic "
                "instructions -> %.0f requests (ATGR %.2f, %.0f same-word serializations at L2); "
                "L1 load hit %.1f%%, L2 load hit %.1f%%; interconnect %.1f KB, DRAM %.1f KB\n",
                kernel.value("name", std::string("?")).c_str(), cycles, cycles / core_mhz, winst,
                ratio_of(winst, cycles), atomics, atomic_req, ratio_of(atomic_req, global_req),
                serial, 100 * ratio_of(l1_hits, l1_loads), 100 * ratio_of(l2_hits, l2_loads),
                xbar / 1024, dram / 1024);
  return buf;
}

} // namespace tlmgpu
