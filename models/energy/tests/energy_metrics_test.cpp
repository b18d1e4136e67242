// The energy and area metrics of the SCU, IRU and static power
// (models/energy/README.md): each category is its counters times its
// parameter, a run without a unit gets nothing from it, static energy is
// power times time, and the area share is unit / (die + units).
#include "tlmgpu/config.hpp"
#include "tlmgpu/metrics.hpp"

#include <catch2/catch.hpp>

using namespace tlmgpu;
using nlohmann::json;

namespace {

// A stats section's "gpu" object as compute_metrics sees it (values only).
json gpu_without_units() {
  json g;
  g["sm_0"] = {{"warp_instructions", 1000}, {"loads", 100}, {"stores", 50}};
  g["sm_0"]["l1"] = {{"requests", 120}, {"fills", 40}, {"stores", 50}};
  g["l2_0"] = {{"loads", 80}, {"stores", 50}, {"atomics", 0}, {"fills", 30}};
  g["xbar"] = {{"flits", 700}, {"bytes", 22400}};
  g["dram_0"] = {{"bytes_read", 3840}, {"bytes_written", 1280}};
  return g;
}

json scu_counters() {
  return {{"ops", 3},         {"elements_in", 100},  {"data_elements", 400}, {"elements_out", 250},
          {"data_reads", 60}, {"merged_groups", 15}, {"hash_reads", 20},     {"hash_writes", 12},
          {"filtered", 150}};
}

json iru_counters(double elements, double inserted, double merged, double hops) {
  return {{"elements", elements},
          {"inserted", inserted},
          {"merged", merged},
          {"ring_element_hops", hops}};
}

PlatformSpec platform(const char* file) {
  return load_platform(std::string(TLMGPU_SOURCE_DIR) + "/" + file);
}

} // namespace

TEST_CASE("energy: the SCU category is its counters times its per-event energies", "[energy]") {
  const PlatformSpec p = platform("examples/scu/gtx980-scu.json");
  const EnergySpec& e = p.energy;
  json g = gpu_without_units();
  const json base = compute_metrics(g, 1000, p, 0);
  g["scu"] = scu_counters();
  const json m = compute_metrics(g, 1000, p, 0);
  const double expect = (100 + 400 + 250) * e.scu_element_stage +
                        (60 + 15) * e.scu_coalescer_access + (20 + 12) * e.scu_hash_access;
  CHECK(expect > 0);
  CHECK(m["energy_pj_scu"].get<double>() == Approx(expect));
  CHECK(m["energy_pj_iru"].get<double>() == 0);
  CHECK(m["energy_pj_total"].get<double>() ==
        Approx(base["energy_pj_total"].get<double>() + expect));
  CHECK(m["energy_pj_dynamic"].get<double>() == Approx(m["energy_pj_total"].get<double>()));
}

TEST_CASE("energy: the IRU category sums the partitions' counters", "[energy]") {
  const PlatformSpec p = platform("examples/iru/gtx980-iru.json");
  const EnergySpec& e = p.energy;
  json g = gpu_without_units();
  g["iru_0"] = iru_counters(300, 200, 100, 50);
  g["iru_1"] = iru_counters(100, 60, 40, 30);
  const json m = compute_metrics(g, 1000, p, 0);
  const double expect = 400 * e.iru_element + (260 + 140) * e.iru_hash_access + 80 * e.iru_ring_hop;
  CHECK(expect > 0);
  CHECK(m["energy_pj_iru"].get<double>() == Approx(expect));
  CHECK(m["energy_pj_scu"].get<double>() == 0);
}

TEST_CASE("energy: a platform without units and static power keeps the LAB paper's total",
          "[energy]") {
  const PlatformSpec p = platform("platforms/titanv.json");
  const json g = gpu_without_units();
  const json m = compute_metrics(g, 1000, p, 1e-3);
  double parts = 0;
  for (const char* k : {"alu", "smem", "l1", "l2", "noc", "lab", "dram"})
    parts += m[std::string("energy_pj_") + k].get<double>();
  CHECK(parts > 0);
  CHECK(m["energy_pj_total"].get<double>() == parts); // exactly: the new terms add 0
  for (const char* k : {"scu", "iru", "static", "static_gpu", "static_scu", "static_iru"})
    CHECK(m[std::string("energy_pj_") + k].get<double>() == 0);
}

TEST_CASE("energy: static energy is power times simulated time, per unit placed", "[energy]") {
  const PlatformSpec p = platform("examples/iscu/gtx980-iscu.json");
  const EnergySpec& e = p.energy;
  REQUIRE(e.gpu_static_w > 0);
  REQUIRE(e.scu_static_w > 0);
  REQUIRE(e.iru_static_w > 0);
  json g = gpu_without_units();
  g["scu"] = scu_counters();
  for (int i = 0; i < 4; ++i)
    g["iru_" + std::to_string(i)] = iru_counters(10, 5, 5, 3);
  const double t = 2e-5;
  const json m1 = compute_metrics(g, 1000, p, t), m2 = compute_metrics(g, 1000, p, 2 * t);
  CHECK(m1["energy_pj_static_gpu"].get<double>() == Approx(e.gpu_static_w * t * 1e12));
  CHECK(m1["energy_pj_static_scu"].get<double>() == Approx(e.scu_static_w * t * 1e12));
  CHECK(m1["energy_pj_static_iru"].get<double>() == Approx(4 * e.iru_static_w * t * 1e12));
  // Twice the time, twice the static energy; the dynamic part does not move.
  CHECK(m2["energy_pj_static"].get<double>() == Approx(2 * m1["energy_pj_static"].get<double>()));
  CHECK(m2["energy_pj_dynamic"].get<double>() == m1["energy_pj_dynamic"].get<double>());
  CHECK(m2["energy_pj_total"].get<double>() ==
        Approx(m2["energy_pj_dynamic"].get<double>() + m2["energy_pj_static"].get<double>()));
}

TEST_CASE("energy and area: the units placed, as a share of the die plus the units (§5.3)",
          "[energy]") {
  json g = gpu_without_units();
  json m;
  add_area_metrics(m, g, platform("platforms/gtx980.json"));
  CHECK(m["area_mm2_gpu"].get<double>() == 398);
  CHECK(m["area_mm2_scu"].get<double>() == 0);
  CHECK(m["area_pct_units"].get<double>() == 0);

  g["scu"] = scu_counters();
  for (int i = 0; i < 4; ++i)
    g["iru_" + std::to_string(i)] = iru_counters(0, 0, 0, 0);
  add_area_metrics(m, g, platform("examples/iscu/gtx980-iscu.json"));
  CHECK(m["area_mm2_scu"].get<double>() == Approx(13.27));
  CHECK(m["area_mm2_iru"].get<double>() == Approx(23.92));
  // The thesis: SCU 3.3 %, IRU 5.6 %, ISCU 8.5 % of the GPU (ours within 0.1 pp).
  CHECK(m["area_pct_scu"].get<double>() == Approx(3.3).margin(0.1));
  CHECK(m["area_pct_iru"].get<double>() == Approx(5.6).margin(0.1));
  CHECK(m["area_pct_units"].get<double>() == Approx(8.5).margin(0.1));

  json t;
  json one;
  one["scu"] = scu_counters();
  add_area_metrics(t, one, platform("examples/scu/tx1-scu.json"));
  CHECK(t["area_mm2_scu"].get<double>() == Approx(3.65));
  CHECK(t["area_pct_scu"].get<double>() == Approx(4.1).margin(0.05));
}
