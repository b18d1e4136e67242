// gups::Index (workloads/node_apps/gups_kernels.hpp): where an update lands
// and how many entries below n it can reach, against brute force; the
// paper's table reaches tiles 0, 1, 6, 7 only (seed-004 §6.2).
#include "workloads/node_apps/gups_kernels.hpp"

#include <catch2/catch.hpp>

using tlmgpu::gups::Index;

TEST_CASE("gups index: reachable entries equal a brute-force count", "[gups]") {
  for (uint64_t table : {1ull, 5ull, 64ull, 100ull, 4096ull, 20480ull, 20481ull}) {
    for (bool mask : {false, true}) {
      const Index ix{table, mask};
      std::vector<bool> hit(table, false);
      for (uint64_t x = 0; x < 4 * table + 64; ++x)
        hit[ix(x)] = true;
      uint64_t below = 0;
      for (uint64_t n = 0; n <= table; ++n) {
        INFO("table " << table << " mask " << mask << " n " << n);
        REQUIRE(ix.reachable_below(n) == below);
        if (n < table) below += hit[n];
      }
    }
  }
}

TEST_CASE("gups index: the paper's table reaches tiles 0, 1, 6, 7", "[gups]") {
  const Index ix{167772160, true};
  const uint64_t w = 20971520;
  const uint64_t want[8] = {20971520, 12582912, 0, 0, 0, 0, 12582912, 20971520};
  for (uint64_t t = 0; t < 8; ++t)
    CHECK(ix.reachable_below((t + 1) * w) - ix.reachable_below(t * w) == want[t]);
  CHECK(Index{167772160, false}.reachable_below(167772160) == 167772160);
}
