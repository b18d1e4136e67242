// The short human summary a run prints per kernel. Everything here is read
// back from the kernel's "metrics" (tlmgpu/metrics.hpp), so the summary,
// stats.json and `tlmgpu sweep` can never disagree.
#include "tlmgpu/app/summary.hpp"

#include <cstdio>

namespace tlmgpu {

std::string summarize_kernel(const nlohmann::json& kernel, double core_mhz) {
  const nlohmann::json& m = kernel.value("metrics", nlohmann::json::object());
  auto get = [&](const char* k) { return m.value(k, 0.0); };
  const double cycles = kernel.value("cycles", 0.0);
  char buf[768];
  std::snprintf(
      buf, sizeof buf,
      "kernel %s: %.0f cycles (%.2f us), %.0f warp instructions, IPC %.2f; %.0f atomic "
      "instructions -> %.0f requests (ATGR %.2f, %.0f same-word serializations at L2); "
      "L1 load hit %.1f%%, L2 load hit %.1f%%; interconnect %.1f KB, DRAM %.1f KB; energy %.2f uJ "
      "(ALU %.2f, SMEM %.2f, L1 %.2f, L2 %.2f, NoC %.2f, LAB %.2f, DRAM %.2f)\n",
      kernel.value("name", std::string("?")).c_str(), cycles, cycles / core_mhz,
      get("warp_instructions"), cycles == 0 ? 0 : get("warp_instructions") / cycles,
      get("atomic_instructions"), get("atomic_requests"), get("atgr"),
      get("l2_same_word_serializations"), 100 * get("l1_load_hit_rate"),
      100 * get("l2_load_hit_rate"), get("interconnect_bytes") / 1024, get("dram_bytes") / 1024,
      get("energy_pj_total") * 1e-6, get("energy_pj_alu") * 1e-6, get("energy_pj_smem") * 1e-6,
      get("energy_pj_l1") * 1e-6, get("energy_pj_l2") * 1e-6, get("energy_pj_noc") * 1e-6,
      get("energy_pj_lab") * 1e-6, get("energy_pj_dram") * 1e-6);
  return buf;
}

std::string summarize_units(const nlohmann::json& m) {
  auto get = [&](const char* k) { return m.value(k, 0.0); };
  if (get("area_mm2_scu") == 0 && get("area_mm2_iru") == 0 && get("energy_pj_static") == 0)
    return "";
  char buf[512];
  std::snprintf(buf, sizeof buf,
                "run energy %.2f uJ: dynamic %.2f (of it SCU %.3f, IRU %.3f), static %.2f (GPU "
                "%.2f, SCU %.3f, IRU %.3f); area: SCU %.2f mm^2 (%.1f %%), IRU %.2f mm^2 (%.1f "
                "%%), together %.1f %% of %.1f mm^2 GPU + units\n",
                get("energy_pj_total") * 1e-6, get("energy_pj_dynamic") * 1e-6,
                get("energy_pj_scu") * 1e-6, get("energy_pj_iru") * 1e-6,
                get("energy_pj_static") * 1e-6, get("energy_pj_static_gpu") * 1e-6,
                get("energy_pj_static_scu") * 1e-6, get("energy_pj_static_iru") * 1e-6,
                get("area_mm2_scu"), get("area_pct_scu"), get("area_mm2_iru"), get("area_pct_iru"),
                get("area_pct_units"),
                get("area_mm2_gpu") + get("area_mm2_scu") + get("area_mm2_iru"));
  return buf;
}

} // namespace tlmgpu
