// Flat run metrics and the energy model (seed-000 §6.1, Fig. 7 categories).
// Every number here is a sum or ratio of stats already in the section; the
// energy is event counts x the platform's per-access energies (energy.*).
#include "tlmgpu/metrics.hpp"

#include <map>
#include <string>

namespace tlmgpu {

namespace {
using nlohmann::json;

// Calls f(node) for each child of `gpu` whose name starts with `prefix`, in
// key order: one run of the object's sorted keys, found by lower_bound
// rather than a scan of every block (compute_metrics sums 29 such runs at
// every kernel end: 2.2 M instructions for titanv's 600 children, issue 13).
template <class F>
void for_each_prefixed(const json& gpu, const std::string& prefix, F f) {
  if (!gpu.is_object()) return;
  const auto& o = gpu.get_ref<const json::object_t&>();
  for (auto it = o.lower_bound(prefix);
       it != o.end() && it->first.compare(0, prefix.size(), prefix) == 0; ++it)
    f(it->second);
}

// Sum of `stat` over the children of `gpu` whose name starts with `prefix`,
// optionally one level down (`sub`, e.g. the L1 inside each SM).
double sum_over(const json& gpu, const std::string& prefix, const std::string& stat,
                const std::string& sub = "") {
  double s = 0;
  for_each_prefixed(gpu, prefix, [&](const json& node) {
    if (!node.is_object()) return;
    const json* n = &node;
    if (!sub.empty()) {
      const auto it = node.find(sub);
      if (it == node.end()) return;
      n = &*it;
    }
    const auto v = n->find(stat); // end() where *n is no object
    if (v != n->end() && v->is_number()) s += v->get<double>();
  });
  return s;
}
double ratio(double a, double b) {
  return b == 0 ? 0 : a / b;
}
double number(const json& o, const std::string& group, const std::string& stat) {
  if (!o.contains(group) || !o[group].contains(stat) || !o[group][stat].is_number()) return 0;
  return o[group][stat].get<double>();
}
// Blocks placed: children of `gpu` named `prefix`... that carry `stat`.
double placed(const json& gpu, const std::string& prefix, const std::string& stat) {
  double n = 0;
  for_each_prefixed(gpu, prefix, [&](const json& node) {
    if (node.is_object() && node.contains(stat)) ++n;
  });
  return n;
}
// The units' dynamic energy (pJ) from their own counters (README.md, "SCU,
// IRU and static").
double scu_energy(const json& g, const EnergySpec& e) {
  const double stages = sum_over(g, "scu", "elements_in") + sum_over(g, "scu", "data_elements") +
                        sum_over(g, "scu", "elements_out");
  const double lookups = sum_over(g, "scu", "data_reads") + sum_over(g, "scu", "merged_groups");
  const double hash = sum_over(g, "scu", "hash_reads") + sum_over(g, "scu", "hash_writes");
  return stages * e.scu_element_stage + lookups * e.scu_coalescer_access + hash * e.scu_hash_access;
}
double iru_energy(const json& g, const EnergySpec& e) {
  return sum_over(g, "iru", "elements") * e.iru_element +
         (sum_over(g, "iru", "inserted") + sum_over(g, "iru", "merged")) * e.iru_hash_access +
         sum_over(g, "iru", "ring_element_hops") * e.iru_ring_hop;
}
} // namespace

std::pair<double, double> lab_access_energy(const PlatformSpec& p) {
  const EnergySpec& e = p.energy;
  if (!p.lab.enabled()) return {0, 0};
  if (p.lab.infinite) return {e.lab_inf_read, e.lab_inf_write};
  // Table II's rows as printed (pitfall 11); LAB-32 has no row and uses the
  // formula, which the printed LAB-16 row equals.
  static const std::map<uint32_t, std::pair<double, double>> printed = {
      {8, {0.0881, 0.1065}},   {16, {0.1762, 0.2131}},  {64, {0.3524, 0.4261}},
      {128, {0.7048, 0.8522}}, {256, {1.4097, 1.7044}},
  };
  if (e.lab_energy == "printed_rows")
    if (auto it = printed.find(p.lab.entries); it != printed.end()) return it->second;
  const double scale = double(lab_bytes(p.lab)) / e.l1_reference_bytes;
  return {e.l1_read * scale, e.l1_write * scale};
}

const json& gpu_section(const json& section) {
  static const json empty = json::object();
  const auto& members = section.get_ref<const json::object_t&>();
  const auto it = members.find("gpu");
  return it != members.end() ? it->second : empty;
}

double run_cycles(const json& g, const PlatformSpec& p) {
  const double kernels = g.value("kernel_cycles", 0.0), scu = sum_over(g, "scu", "cycles");
  return scu ? kernels + scu * p.sm.clock_mhz / p.scu.clock_mhz : kernels;
}

json compute_metrics(const json& g, double cycles, const PlatformSpec& p, double seconds) {
  const EnergySpec& e = p.energy;
  json m;
  m["cycles"] = cycles;
  const double winst = sum_over(g, "sm_", "warp_instructions");
  const double loads = sum_over(g, "sm_", "loads"), stores = sum_over(g, "sm_", "stores");
  const double atomics = sum_over(g, "sm_", "atomics") + sum_over(g, "sm_", "reds");
  const double shared = sum_over(g, "sm_", "shared_ops");
  const double sync = sum_over(g, "sm_", "barriers") + sum_over(g, "sm_", "fences");
  const double alu = std::max(0.0, winst - loads - stores - atomics - shared - sync);
  m["warp_instructions"] = winst;
  m["alu_instructions"] = alu;
  m["atomic_instructions"] = atomics;
  const double atomic_req = sum_over(g, "sm_", "atomic_requests");
  const double global_req = sum_over(g, "sm_", "global_requests");
  m["atomic_requests"] = atomic_req;
  m["global_requests"] = global_req;
  m["atgr"] = ratio(atomic_req, global_req);

  // Atomic requests absorbed in the SM (LAB hits, PHI update hits, hLRC
  // atomics on an owned line); the rest reached L2. Baseline: miss rate 1.
  const double lab_acc = sum_over(g, "sm_", "accesses", "lab");
  const double lab_hits = sum_over(g, "sm_", "hits", "lab");
  const double lab_miss = sum_over(g, "sm_", "misses", "lab");
  const double local = lab_hits + sum_over(g, "sm_", "phi_update_hits", "l1") +
                       sum_over(g, "sm_", "hlrc_local_atomics", "l1");
  m["lab_accesses"] = lab_acc;
  m["lab_misses"] = lab_miss;
  m["lab_packets"] = sum_over(g, "sm_", "packets", "lab");
  m["atomic_miss_rate"] = atomic_req == 0 ? 0 : 1 - ratio(local, atomic_req);

  const double l1_req = sum_over(g, "sm_", "requests", "l1");
  const double l1_writes = sum_over(g, "sm_", "fills", "l1") + sum_over(g, "sm_", "stores", "l1");
  const double l1_loads = sum_over(g, "sm_", "loads", "l1");
  m["l1_load_hit_rate"] = ratio(sum_over(g, "sm_", "load_hits", "l1"), l1_loads);

  const double l2_loads = sum_over(g, "l2_", "loads"), l2_stores = sum_over(g, "l2_", "stores");
  const double l2_atomics = sum_over(g, "l2_", "atomics"), l2_fills = sum_over(g, "l2_", "fills");
  m["l2_atomic_requests"] = l2_atomics;
  m["l2_load_hit_rate"] = ratio(sum_over(g, "l2_", "load_hits"), l2_loads);
  m["l2_same_word_serializations"] = sum_over(g, "l2_", "same_word_serializations");

  const double flits = number(g, "xbar", "flits");
  m["interconnect_bytes"] = number(g, "xbar", "bytes");
  m["interconnect_flits"] = flits;
  const double dram = sum_over(g, "dram_", "bytes_read") + sum_over(g, "dram_", "bytes_written");
  m["dram_bytes"] = dram;

  const auto [lab_r, lab_w] = lab_access_energy(p);
  const double parts[] = {
      alu * e.alu_op,
      shared * e.smem_access,
      l1_req * e.l1_read + l1_writes * e.l1_write,
      (l2_loads + l2_atomics) * e.l2_read + (l2_stores + l2_fills + l2_atomics) * e.l2_write,
      flits * e.noc_flit,
      lab_acc * (lab_r + lab_w),
      dram / 32.0 * e.dram_access,
  };
  static const char* names[] = {"alu", "smem", "l1", "l2", "noc", "lab", "dram"};
  double total = 0;
  for (size_t i = 0; i < std::size(parts); ++i) {
    m[std::string("energy_pj_") + names[i]] = parts[i];
    total += parts[i];
  }
  // The units' dynamic energy, and static power over the section's
  // simulated time (W x s = 1e12 pJ) for the GPU and each unit placed.
  const double scus = placed(g, "scu", "ops"), irus = placed(g, "iru", "elements");
  const double scu = scu_energy(g, e), iru = iru_energy(g, e);
  const double st_gpu = e.gpu_static_w * seconds * 1e12,
               st_scu = scus * e.scu_static_w * seconds * 1e12,
               st_iru = irus * e.iru_static_w * seconds * 1e12;
  m["energy_pj_scu"] = scu;
  m["energy_pj_iru"] = iru;
  m["energy_pj_static_gpu"] = st_gpu;
  m["energy_pj_static_scu"] = st_scu;
  m["energy_pj_static_iru"] = st_iru;
  m["energy_pj_static"] = st_gpu + st_scu + st_iru;
  m["energy_pj_dynamic"] = total + scu + iru;
  m["energy_pj_total"] = total + scu + iru + st_gpu + st_scu + st_iru;
  return m;
}

void add_area_metrics(json& m, const json& g, const PlatformSpec& p) {
  const AreaSpec& a = p.area;
  const double scu = placed(g, "scu", "ops") * a.scu_mm2,
               iru = placed(g, "iru", "elements") * a.iru_partition_mm2;
  auto share = [&](double unit) { return 100 * ratio(unit, a.gpu_die_mm2 + unit); };
  m["area_mm2_gpu"] = a.gpu_die_mm2;
  m["area_mm2_scu"] = scu;
  m["area_mm2_iru"] = iru;
  m["area_pct_scu"] = share(scu);
  m["area_pct_iru"] = share(iru);
  m["area_pct_units"] = share(scu + iru);
}

} // namespace tlmgpu
