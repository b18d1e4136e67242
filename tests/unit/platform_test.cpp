// The shipped platforms load cleanly and their derived values match the
// papers (docs/platforms.md).
#include "tlmgpu/config.hpp"

#include <catch2/catch.hpp>

using namespace tlmgpu;

static PlatformSpec shipped(const char* name) {
  return load_platform(std::string(TLMGPU_SOURCE_DIR) + "/platforms/" + name + ".json");
}

TEST_CASE("titanv: derived bandwidth and capacities match the LAB/DAB papers", "[platform]") {
  PlatformSpec p = shipped("titanv");
  CHECK(p.sm.count == 80);
  // 24 channels x 16 B x 2 (DDR) x 850 MHz = 652.8 GB/s (DAB notes, section 5.2).
  CHECK(p.dram.peak_bytes_per_s == Approx(652.8e9));
  // 48 slices of 96 KB = 4.5 MB L2 (LAB Table I rounds it to 4.6 MB).
  CHECK(p.l2_slices() == 48);
  CHECK(p.l2_bytes() == 48ull * 96 * 1024);
  CHECK(p.l2.sets == 32); // 96 KB / (24 ways x 128 B)
  CHECK(p.l1.sets == 4);  // 32 KB / (64 ways x 128 B)
  CHECK(p.l1.bytes + p.shared_mem.bytes == p.sm.unified_sram_bytes);
  CHECK(p.xbar.flits(0) == 1);   // an 8 B request header is one 40 B flit
  CHECK(p.xbar.flits(32) == 1);  // one sector + header
  CHECK(p.xbar.flits(128) == 4); // a full line + header
}

TEST_CASE("tiny extends titanv and overrides what it names", "[platform]") {
  PlatformSpec p = shipped("tiny");
  CHECK(p.sm.count == 2);
  CHECK(p.dram.channels == 1);
  CHECK(p.l2_slices() == 2);
  CHECK(p.l2.latency == 102); // inherited
  CHECK(p.dram.tRCD == 12);   // inherited
}
