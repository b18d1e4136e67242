// The channel core with decoupled calls (LT, set_decoupled(true)): accesses are called in
// an order unrelated to their arrival times, and each is served at the first
// time its bank and the bus are free, not behind whatever was called before.
// Titan V HBM2 defaults as in dram_core_test.cpp: tRCD=tCL=tRP=12, tRAS=28,
// tWL=2, tWR=10, tCCD=1, burst 1 cycle, fixed latency 46.
#include "models/dram/dram_core.hpp"

#include <catch2/catch.hpp>

using namespace tlmgpu;

namespace {
DramChannelCore lt_core() {
  auto s = defaults<DramSpec>();
  s.derive();
  DramChannelCore c(s);
  c.set_decoupled(true);
  return c;
}
} // namespace

TEST_CASE("dram core, LT: unloaded timing is the in-order model's", "[dram][lt]") {
  DramChannelCore c = lt_core();
  auto closed = c.service(0, 1, false, 1, 1000);
  CHECK(closed.row == RowOutcome::Closed);
  CHECK(closed.start == 1000);
  CHECK(closed.done - 1000 == 46 + 12 + 12 + 1);
  auto hit = c.service(0, 1, false, 1, 2000);
  CHECK(hit.row == RowOutcome::Hit);
  CHECK(hit.done - 2000 == 46 + 12 + 1);
  auto conflict = c.service(0, 2, false, 1, 3000);
  CHECK(conflict.row == RowOutcome::Conflict);
  CHECK(conflict.done - 3000 == 46 + 12 + 12 + 12 + 1);
  auto w = c.service(1, 9, true, 1, 4000);
  CHECK(w.done - 4000 == 46 + 12 + 2 + 1);
  auto line = c.service(2, 9, false, 4, 5000);
  CHECK(line.done - 5000 == 71 + 3);
}

TEST_CASE("dram core, LT: an early arrival called late is not queued behind the future",
          "[dram][lt]") {
  DramChannelCore c = lt_core();
  auto ahead = c.service(0, 1, false, 4, 1000); // an SM running ahead
  CHECK(ahead.start == 1000);
  // Another bank, arriving long before: served at once (in order: after 1000).
  auto early = c.service(1, 1, false, 4, 0);
  CHECK(early.start == 0);
  CHECK(early.done == 46 + 12 + 12 + 4);
  // The bus is shared: a read of another bank whose data would overlap the
  // first one's moves behind it, not behind the cycle-1000 access.
  auto next = c.service(2, 1, false, 4, 0);
  CHECK(next.done == early.done + 4);
  CHECK(c.counters().row_closed == 3);
}

TEST_CASE("dram core, LT: hits stream after an activation, a new row waits for tRAS",
          "[dram][lt]") {
  DramChannelCore c = lt_core();
  auto open = c.service(0, 1, false, 1, 100); // ACT 100, column 112, data 124
  CHECK(open.done == 100 + 12 + 12 + 1 + 46);
  auto hit = c.service(0, 1, false, 1, 100); // column 113: right behind
  CHECK(hit.row == RowOutcome::Hit);
  CHECK(hit.done == open.done + 1);
  // Another row of the bank: PRE no earlier than tRAS after the ACT (128).
  auto conflict = c.service(0, 2, false, 1, 101);
  CHECK(conflict.row == RowOutcome::Conflict);
  CHECK(conflict.start == 128);
  CHECK(conflict.done == 128 + 12 + 12 + 12 + 1 + 46);
}

TEST_CASE("dram core, LT: the bus bounds bandwidth whatever the call order", "[dram][lt]") {
  DramChannelCore c = lt_core();
  for (uint32_t bank = 0; bank < 16; ++bank)
    c.service(bank, 7, false, 1, 0); // open a row in every bank
  // 64 one-burst row hits, called newest first, all arriving by cycle 500.
  Cycle last = 0;
  for (int i = 63; i >= 0; --i)
    last = std::max(last, c.service(uint32_t(i) % 16, 7, false, 1, 500 + Cycle(i) / 8).done);
  CHECK(last == 500 + 12 + 64 + 46); // 64 bursts back to back from the first column
  c.retire(10000);
  CHECK(c.service(0, 7, false, 1, 10000).done == 10000 + 12 + 1 + 46);
}
