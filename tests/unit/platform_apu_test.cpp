// The sRSP paper's APU platform (Table 1; docs/platforms.md, platforms/apu64.json)
// and its 8/16/32-CU variants load cleanly with 64-wide wavefronts and 64 B
// lines, and a warp width other than 32 or 64 is refused.
#include "tlmgpu/config.hpp"

#include <catch2/catch.hpp>

using namespace tlmgpu;

static PlatformSpec apu(const char* name) {
  return load_platform(std::string(TLMGPU_SOURCE_DIR) + "/platforms/" + name + ".json");
}

TEST_CASE("apu64: CUs, wavefronts and caches match the sRSP paper's Table 1", "[platform]") {
  const PlatformSpec p = apu("apu64");
  CHECK(p.sm.count == 64);
  CHECK(p.sm.clock_mhz == Approx(1000.0));
  CHECK(p.sm.warp_size == 64);
  CHECK(p.sm.max_warps == 40);
  CHECK(p.sm.max_threads == 40 * 64);
  // L1: 16 kB, 16-way, 64 B lines, 4 cycles -> 16 sets.
  CHECK(p.l1.bytes == 16 * 1024);
  CHECK(p.l1.ways == 16);
  CHECK(p.l1.line_bytes == 64);
  CHECK(p.l1.sets == 16);
  CHECK(p.l1.latency == 4);
  // L2: 512 kB, 16-way, 64 B lines, 24 cycles; 16 slices over 8 DDR3 channels.
  CHECK(p.l2_bytes() == 512 * 1024);
  CHECK(p.l2.ways == 16);
  CHECK(p.l2.line_bytes == 64);
  CHECK(p.l2.latency == 24);
  CHECK(p.dram.channels == 8);
  CHECK(p.dram.kind == "DDR3");
  CHECK(p.dram.clock_mhz == Approx(500.0));
}

TEST_CASE("apu8/16/32: apu64 with fewer CUs, the rest unchanged", "[platform]") {
  const PlatformSpec big = apu("apu64");
  for (auto [name, cus] : {std::pair{"apu8", 8u}, {"apu16", 16u}, {"apu32", 32u}}) {
    const PlatformSpec p = apu(name);
    CHECK(p.sm.count == cus);
    CHECK(p.sm.warp_size == 64);
    CHECK(p.l1.line_bytes == 64);
    CHECK(p.l2_bytes() == big.l2_bytes());
    CHECK(p.dram.channels == big.dram.channels);
  }
}

TEST_CASE("sm.warp_size: 32 or 64, nothing else", "[platform]") {
  PlatformSpec p = apu("apu64");
  p.sm.warp_size = 32;
  CHECK_NOTHROW(p.sm.derive());
  for (uint32_t w : {16u, 48u}) {
    p.sm.warp_size = w;
    CHECK_THROWS_WITH(p.sm.derive(), Catch::Contains("must be 32 (warps) or 64 (wavefronts)"));
  }
}
