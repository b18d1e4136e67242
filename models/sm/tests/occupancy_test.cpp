// Occupancy arithmetic on Titan V numbers and impossible launches.
#include "models/sm/occupancy.hpp"

#include <catch2/catch.hpp>

#include <stdexcept>

using namespace tlmgpu;

namespace {
const SmSpec titanv = defaults<SmSpec>(); // the declared defaults are Titan V's
constexpr uint32_t kShared = 98304;
} // namespace

TEST_CASE("occupancy: 256 threads, 32 registers -> 8 CTAs, bound by threads", "[occupancy]") {
  auto r = occupancy(titanv, {256, 32, 0}, kShared);
  CHECK(r.ctas_per_sm == 8);
  CHECK(r.limit == OccupancyLimit::Threads); // registers also allow exactly 8: threads come first
  CHECK(r.warps_per_cta == 8);
  CHECK(r.by_threads == 8);
  CHECK(r.by_warps == 8);
  CHECK(r.by_ctas == 32);
  CHECK(r.by_registers == 8); // 65536 / (256 * 32)
  CHECK(r.by_shared == UINT32_MAX);
}

TEST_CASE("occupancy: registers, shared memory and the CTA count can bind", "[occupancy]") {
  auto r = occupancy(titanv, {256, 64, 0}, kShared);
  CHECK(r.ctas_per_sm == 4); // 65536 / (256 * 64)
  CHECK(r.limit == OccupancyLimit::Registers);
  // 29 registers round up to 32: 65536 / (128 * 32) = 16, not 17.
  CHECK(occupancy(titanv, {128, 29, 0}, kShared).by_registers == 16);
  r = occupancy(titanv, {128, 16, 40000}, kShared);
  CHECK(r.ctas_per_sm == 2); // 98304 / 40000
  CHECK(r.limit == OccupancyLimit::SharedMemory);
  r = occupancy(titanv, {32, 8, 1024}, kShared);
  CHECK(r.ctas_per_sm == 32);
  CHECK(r.limit == OccupancyLimit::Ctas);
  // A partial warp still takes a whole warp slot: 48 threads = 2 warps.
  r = occupancy(titanv, {48, 0, 0}, kShared);
  CHECK(r.warps_per_cta == 2);
  CHECK(r.by_threads == 32);
  CHECK(r.by_warps == 32);
  // Less shared memory available (a carve-out) lowers the shared limit.
  CHECK(occupancy(titanv, {128, 16, 16384}, 32768).ctas_per_sm == 2);
}

TEST_CASE("occupancy: warps bind when the warp limit is below threads / warp_size", "[occupancy]") {
  SmSpec sm = titanv;
  sm.max_warps = 48;
  auto r = occupancy(sm, {256, 0, 0}, kShared);
  CHECK(r.ctas_per_sm == 6);
  CHECK(r.limit == OccupancyLimit::Warps);
}

TEST_CASE("occupancy: impossible launches are errors", "[occupancy]") {
  CHECK_THROWS_WITH(check_launchable(titanv, {2048, 32, 0}, kShared),
                    "block of 2048 threads exceeds sm.max_threads_per_block = 1024");
  CHECK_THROWS_WITH(check_launchable(titanv, {0, 32, 0}, kShared), Catch::Contains("0 threads"));
  CHECK_THROWS_WITH(check_launchable(titanv, {1024, 128, 0}, kShared),
                    Catch::Contains("needs 131072 registers") &&
                        Catch::Contains("sm.registers = 65536"));
  CHECK_THROWS_WITH(check_launchable(titanv, {256, 32, 98305}, kShared),
                    Catch::Contains("sm.max_shared_per_block = 98304"));
  CHECK_THROWS_WITH(check_launchable(titanv, {256, 32, 20000}, 16384),
                    Catch::Contains("20000 bytes") && Catch::Contains("16384 bytes"));
  CHECK_THROWS_AS(occupancy(titanv, {2048, 32, 0}, kShared), std::invalid_argument);
  SmSpec sm = titanv;
  sm.max_warps = 4;
  CHECK_THROWS_WITH(check_launchable(sm, {256, 0, 0}, kShared),
                    Catch::Contains("needs 8 warps") && Catch::Contains("sm.max_warps = 4"));
  CHECK_NOTHROW(check_launchable(titanv, {1024, 64, 98304}, kShared));
}

TEST_CASE("sm spec: Titan V defaults and cross checks", "[occupancy]") {
  CHECK(titanv.max_threads == 2048);
  CHECK(titanv.max_warps == 64);
  CHECK(titanv.max_ctas == 32);
  CHECK(titanv.registers == 65536);
  CHECK(titanv.schedulers == 4);
  CHECK(titanv.scheduler == "gto");
  SmSpec sm = titanv;
  sm.max_threads_per_block = 4096;
  CHECK_THROWS_AS(sm.derive(), ConfigError);
}
