// The two Maxwell platforms of the SCU/IRU thesis (Segura 2020, Table 3.1)
// load cleanly and their capacities and derived values match the table
// (docs/platforms.md, sections platforms/gtx980.json and platforms/tx1.json).
#include "tlmgpu/config.hpp"

#include <catch2/catch.hpp>

using namespace tlmgpu;

static PlatformSpec maxwell(const char* name) {
  return load_platform(std::string(TLMGPU_SOURCE_DIR) + "/platforms/" + name + ".json");
}

// What Table 3.1 gives identically for both GPUs.
static void check_maxwell_sm_and_l1(const PlatformSpec& p) {
  CHECK(p.sm.warp_size == 32);
  CHECK(p.sm.registers == 65536); // "64 K per core"
  CHECK(p.sm.schedulers == 4);    // "4 Warp Schedulers per SM"
  // L1: 32 KB, 4-way, 128 B lines -> 64 sets; MSHRs 32 entries merging 8.
  CHECK(p.l1.bytes == 32 * 1024);
  CHECK(p.l1.ways == 4);
  CHECK(p.l1.line_bytes == 128);
  CHECK(p.l1.sets == 64);
  CHECK(p.l1.mshr_entries == 32);
  CHECK(p.l1.mshr_max_merge == 8);
  CHECK(p.l1.write_policy == "write_through");
  CHECK_FALSE(p.l1.write_allocate);
  // 64 KB standalone shared memory; the unified-SRAM budget is exactly L1 + shared.
  CHECK(p.shared_mem.bytes == 64 * 1024);
  CHECK(p.sm.unified_sram_bytes == p.l1.bytes + p.shared_mem.bytes);
  // L2: 8-way, 128 B lines, MSHRs 32 entries merging 4 (per slice).
  CHECK(p.l2.ways == 8);
  CHECK(p.l2.line_bytes == 128);
  CHECK(p.l2.mshr_entries == 32);
  CHECK(p.l2.mshr_max_merge == 4);
}

TEST_CASE("gtx980: SMs, clocks, caches and GDDR5 bandwidth match thesis Table 3.1", "[platform]") {
  PlatformSpec p = maxwell("gtx980");
  CHECK(p.sm.count == 16);
  CHECK(p.sm.clock_mhz == Approx(1270.0));
  CHECK(p.sm.count * 128 == 2048); // "total 2048 threads" = 16 SMs x 128 EUs (notes P4)
  check_maxwell_sm_and_l1(p);
  // 2 MB L2 over 4 memory partitions (4 GDDR5 channels), 512 KB each,
  // split into 2 slices of 256 KB (8 ways x 128 B x 256 sets).
  CHECK(p.dram.channels == 4);
  CHECK(p.l2_slices() == 8);
  CHECK(p.l2.slice_bytes == 256 * 1024);
  CHECK(p.l2.sets == 256);
  CHECK(p.l2_bytes() == 2ull * 1024 * 1024);
  CHECK(p.l2_bytes() / p.dram.channels == 512 * 1024);
  // 4 ch x 8 B (64-bit) x 4 transfers/clock (GDDR5 QDR) x 1750 MHz = 224 GB/s,
  // i.e. a 256-bit bus at 7 Gbps per pin.
  CHECK(p.dram.kind == "GDDR5");
  CHECK(p.dram.peak_bytes_per_s == Approx(224e9));
  CHECK(p.dram.channels * p.dram.bus_bytes * 8 == 256);
  CHECK(p.dram.data_rate * p.dram.clock_mhz == Approx(7000.0)); // MT/s per pin
  CHECK(p.dram.burst_bytes == 32);                              // one L2 sector per burst
  CHECK(p.l2.clock_mhz == Approx(1270.0));
  CHECK(p.xbar.clock_mhz == Approx(1270.0));
  CHECK(p.xbar.flits(0) == 1);   // 8 B request header in one 32 B flit
  CHECK(p.xbar.flits(32) == 2);  // one sector + header
  CHECK(p.xbar.flits(128) == 5); // a full line + header
}

TEST_CASE("tx1: SMs, clocks, caches and LPDDR4 bandwidth match thesis Table 3.1", "[platform]") {
  PlatformSpec p = maxwell("tx1");
  CHECK(p.sm.count == 2);
  CHECK(p.sm.clock_mhz == Approx(1000.0));
  CHECK(p.sm.count * 128 == 256); // "total 256 threads"
  check_maxwell_sm_and_l1(p);
  // 256 KB L2 over 2 memory partitions (2 LPDDR4 channels), 128 KB each,
  // split into 2 slices of 64 KB (8 ways x 128 B x 64 sets).
  CHECK(p.dram.channels == 2);
  CHECK(p.l2_slices() == 4);
  CHECK(p.l2.slice_bytes == 64 * 1024);
  CHECK(p.l2.sets == 64);
  CHECK(p.l2_bytes() == 256ull * 1024);
  CHECK(p.l2_bytes() / p.dram.channels == 128 * 1024);
  // 2 ch x 4 B (32-bit) x 2 (DDR) x 1600 MHz = 25.6 GB/s, i.e. a 64-bit bus
  // at 3200 MT/s.
  CHECK(p.dram.kind == "LPDDR4");
  CHECK(p.dram.peak_bytes_per_s == Approx(25.6e9));
  CHECK(p.dram.channels * p.dram.bus_bytes * 8 == 64);
  CHECK(p.dram.data_rate * p.dram.clock_mhz == Approx(3200.0));
  CHECK(p.dram.burst_bytes == 32);
  CHECK(p.l2.clock_mhz == Approx(1000.0));
  CHECK(p.xbar.clock_mhz == Approx(1000.0));
}

TEST_CASE("gtx980 and tx1 differ only where Table 3.1 says they do", "[platform]") {
  PlatformSpec g = maxwell("gtx980"), t = maxwell("tx1");
  CHECK(g.l1.bytes == t.l1.bytes);
  CHECK(g.l1.ways == t.l1.ways);
  CHECK(g.shared_mem.bytes == t.shared_mem.bytes);
  CHECK(g.l2.ways == t.l2.ways);
  CHECK(g.l2_bytes() == 8 * t.l2_bytes());                                  // 2 MB vs 256 KB
  CHECK(g.dram.peak_bytes_per_s / t.dram.peak_bytes_per_s == Approx(8.75)); // 224 / 25.6
}
