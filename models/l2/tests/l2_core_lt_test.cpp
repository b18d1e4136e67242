// The L2 atomic unit in LT booking (Booking::TimeOrder): calls come in any
// time order; unit slots and words book intervals. 4-cycle ops, as in
// l2_core_test.cpp.
#include "models/l2/tests/l2_test_helpers.hpp"

#include <catch2/catch.hpp>

#include <array>

using namespace tlmgpu;
using tlmgpu::test::counter;
using tlmgpu::test::small_spec;

namespace {

GpuAccess add_at(uint16_t off, DataType t = DataType::U32) {
  GpuAccess a;
  a.kind = AccessKind::Atomic;
  a.op = AtomicOp::Add;
  a.type = t;
  a.lanes.push_back(LaneOp{off, 0, 1, 0, 0});
  return a;
}

struct LtL2 {
  StatGroup g;
  L2Core l2;
  explicit LtL2(uint32_t per = 1) : l2(small_spec(per), g) {
    l2.set_booking(Booking::TimeOrder);
    std::array<uint8_t, 128> zero{};
    l2.fill(0, 0xf, zero.data());
  }
  Cycle extra(uint16_t off, Cycle now, DataType t = DataType::U32) {
    auto a = add_at(off, t);
    auto r = l2.access(a, 0, nullptr, nullptr, now);
    REQUIRE(r.hit);
    return r.extra_cycles;
  }
};

} // namespace

TEST_CASE("l2 core, LT: a same-word op called late with an earlier arrival goes first",
          "[l2][lt]") {
  LtL2 c;
  CHECK(c.extra(0, 1000) == 4); // an SM running ahead: word 0 busy 1000..1004
  CHECK(c.extra(0, 100) == 4);  // in call order it would wait until 1004
  CHECK(c.extra(0, 998) == 10); // does not fit before 1000: starts at 1004
  CHECK(counter(c.g, "same_word_serializations") == 1);
  CHECK(counter(c.g, "same_word_wait_cycles") == 6);
  CHECK(counter(c.g, "atomic_wait_cycles") == 6);
}

TEST_CASE("l2 core, LT: an op waiting for its word does not hold up the unit", "[l2][lt]") {
  LtL2 c;
  CHECK(c.extra(0, 100) == 4);     // word 0 busy 100..104
  CHECK(c.extra(0, 101) == 7);     // starts 104
  CHECK(c.extra(4, 101) == 4);     // unit slot 101 is free (in order: behind 104, 8)
  CHECK(c.extra(8, 101) == 4 + 1); // 101 is taken now: 102
  // An 8-byte op waits for both of its words.
  CHECK(c.extra(0, 102, DataType::U64) == (108 - 102) + 4);
}

TEST_CASE("l2 core, LT: unit throughput still bounds ops per cycle", "[l2][lt]") {
  LtL2 c(2); // 2 ops per cycle
  for (uint16_t w = 0; w < 8; ++w)
    CHECK(c.extra(uint16_t(w * 4), 50) == Cycle(w / 2 + 4));
  CHECK(c.extra(64, 10) == 4); // earlier arrival, called last: free slots at 10
}

TEST_CASE("l2 core, LT: word bookings are retired and recycled", "[l2][lt]") {
  LtL2 c(4);
  for (unsigned i = 0; i < 20000; ++i) {
    c.l2.retire(i * 2);
    auto a = add_at(uint16_t((i % 32) * 4));
    c.l2.access(a, 0, nullptr, nullptr, i * 2 + (i % 7) * 3); // a little out of order
  }
  CHECK(counter(c.g, "atomic_lane_ops") == 20000);
}
