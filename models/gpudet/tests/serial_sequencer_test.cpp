// GPUDet's per-slice sequencer (serial_sequencer.hpp): whatever order the
// numbered serial requests arrive in, they leave in number order, across
// rounds; in arrival order (the fault switch) they do not, and float sums
// applied in that order differ.
#include "models/gpudet/serial_sequencer.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <set>
#include <vector>

using namespace tlmgpu;

namespace {

// Arrives `order` (numbers) one at a time, releasing whatever is ready
// after each; returns the release order.
std::vector<uint64_t> run(SerialSequencer<uint64_t>& s, const std::vector<uint64_t>& order,
                          size_t* parked = nullptr) {
  std::vector<uint64_t> out;
  for (uint64_t n : order) {
    const bool p = s.arrive(n, n);
    if (parked) *parked += p;
    while (s.ready())
      out.push_back(s.release());
  }
  return out;
}

} // namespace

TEST_CASE("gpudet sequencer: random arrival permutations leave in number order, across rounds",
          "[gpudet]") {
  std::mt19937 rng(14);
  SerialSequencer<uint64_t> s;
  uint64_t first = 1;
  size_t parked = 0;
  for (int round = 0; round < 50; ++round) {
    const uint64_t n = 1 + rng() % 40;
    std::vector<uint64_t> order(n);
    std::iota(order.begin(), order.end(), first);
    std::shuffle(order.begin(), order.end(), rng);
    std::vector<uint64_t> want(n);
    std::iota(want.begin(), want.end(), first);
    CHECK(run(s, order, &parked) == want);
    CHECK(s.waiting() == 0);
    first += n;
    CHECK(s.next() == first);
  }
  CHECK(parked > 0); // the permutations did put requests ahead of their turn
}

TEST_CASE("gpudet sequencer: a number that already went, or comes twice, is a model bug",
          "[gpudet]") {
  SerialSequencer<uint64_t> s;
  CHECK_FALSE(s.arrive(1, 1)); // its turn
  CHECK(s.arrive(3, 3));       // parked
  CHECK_THROWS_AS(s.arrive(3, 3), InvariantError);
  REQUIRE(s.ready());
  CHECK(s.release() == 1);
  CHECK_FALSE(s.ready()); // 2 has not come
  CHECK_THROWS_AS(s.release(), InvariantError);
  CHECK_THROWS_AS(s.arrive(1, 1), InvariantError);
  s.arrive(2, 2);
  CHECK(s.release() == 2);
  CHECK(s.release() == 3);
}

TEST_CASE("gpudet sequencer: float adds in number order give one sum per permutation; arrival "
          "order (the fault) several",
          "[gpudet]") {
  // Values over many magnitudes into one address, as float-reduce does.
  std::vector<float> v;
  std::mt19937 gen(7);
  for (int i = 0; i < 64; ++i)
    v.push_back(std::ldexp(float(gen() % 1000 + 1), int(gen() % 40) - 20) * (i % 3 ? 1 : -1));
  std::set<float> ordered, arrival;
  std::mt19937 rng(3);
  for (int trial = 0; trial < 20; ++trial) {
    std::vector<uint64_t> order(v.size());
    std::iota(order.begin(), order.end(), 1);
    std::shuffle(order.begin(), order.end(), rng);
    for (bool fault : {false, true}) {
      SerialSequencer<uint64_t> s(fault);
      float sum = 0;
      for (uint64_t n : run(s, order))
        sum += v[n - 1];
      (fault ? arrival : ordered).insert(sum);
    }
  }
  CHECK(ordered.size() == 1);
  CHECK(arrival.size() > 1);
}
