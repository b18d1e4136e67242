// Clock (include/tlmgpu/sim/clock.hpp): time_from_ticks writes the count
// into an sc_time directly instead of calling the library's from_value;
// it must give the same time for every count.
#include "tlmgpu/sim/clock.hpp"

#include <catch2/catch.hpp>

#include <random>

using namespace tlmgpu;

TEST_CASE("time_from_ticks gives the library's sc_time for every count", "[clock]") {
  std::mt19937_64 rng(3);
  std::vector<uint64_t> counts = {0, 1, 2, 1000, 1'000'000'007ull, ~uint64_t{0} >> 1, ~uint64_t{0}};
  for (int i = 0; i < 1000; ++i)
    counts.push_back(rng() >> (rng() % 64));
  for (uint64_t v : counts) {
    const sc_core::sc_time fast = time_from_ticks(v), lib = sc_core::sc_time::from_value(v);
    REQUIRE(fast.value() == v);
    REQUIRE(fast == lib);
  }
  const Clock clk(1455.0); // Titan V's SM clock: a period that is not a whole ps
  for (Cycle c : {Cycle{0}, Cycle{1}, Cycle{7}, Cycle{123456789}}) {
    REQUIRE(clk.cycles(c) == sc_core::sc_time::from_value(clk.period().value() * c));
    REQUIRE(clk.at(clk.cycles(c)) == c);
  }
}
