// MSHR allocation, merging limits, refusals, release order and LT expiry.
#include "tlmgpu/mshr.hpp"

#include <catch2/catch.hpp>

using namespace tlmgpu;

TEST_CASE("first waiter allocates, later ones merge up to max_merge", "[mshr]") {
  MshrTable<int> m(2, 3);
  CHECK(m.add(0x100, 1) == MshrOutcome::Allocated);
  CHECK(m.pending(0x100));
  CHECK_FALSE(m.pending(0x180));
  CHECK(m.add(0x100, 2) == MshrOutcome::Merged);
  CHECK(m.add(0x100, 3) == MshrOutcome::Merged);
  CHECK(m.waiters_of(0x100) == 3);
  CHECK(m.probe(0x100) == MshrOutcome::MergeFull);
  CHECK(m.add(0x100, 4) == MshrOutcome::MergeFull); // max_merge counts the allocating waiter
  CHECK(m.waiters_of(0x100) == 3);
  CHECK(m.size() == 1);
  CHECK(m.allocated() == 1);
  CHECK(m.merged() == 2);
  CHECK(m.refused_merge() == 1);
  CHECK(m.refused_full() == 0);
}

TEST_CASE("a full table refuses new lines but still merges pending ones", "[mshr]") {
  MshrTable<int> m(2, 4);
  CHECK(m.add(0x000, 1) == MshrOutcome::Allocated);
  CHECK(m.add(0x080, 2) == MshrOutcome::Allocated);
  CHECK(m.full());
  CHECK(m.probe(0x100) == MshrOutcome::NoEntry);
  CHECK(m.add(0x100, 3) == MshrOutcome::NoEntry);
  CHECK_FALSE(m.pending(0x100));
  CHECK(m.add(0x080, 4) == MshrOutcome::Merged);
  CHECK(m.refused_full() == 1);
  CHECK(m.occupancy() == 2);
  CHECK(m.max_occupancy() == 2);
  m.release(0x000);
  CHECK(m.add(0x100, 5) == MshrOutcome::Allocated); // the freed entry is reusable
  CHECK(m.allocated() == 3);
}

TEST_CASE("release returns waiters in arrival order and frees the entry", "[mshr]") {
  MshrTable<int> m(4, 8);
  for (int w : {7, 3, 9, 1})
    m.add(0x200, w);
  m.add(0x300, 42);
  CHECK(m.release(0x200) == std::vector<int>{7, 3, 9, 1});
  CHECK_FALSE(m.pending(0x200));
  CHECK(m.size() == 1);
  CHECK(m.release(0x200).empty()); // already gone
  CHECK(m.add(0x200, 5) == MshrOutcome::Allocated);
  CHECK(m.release(0x200) == std::vector<int>{5});
}

TEST_CASE("LT mode: entries expire at their ready cycle, in fill order", "[mshr]") {
  MshrTable<int> m(4, 4);
  m.add(0x000, 1);
  m.add(0x080, 2);
  m.add(0x080, 3);
  m.add(0x100, 4);
  m.add(0x180, 5); // never given a ready cycle
  m.set_ready(0x000, 50);
  m.set_ready(0x080, 20);
  m.set_ready(0x100, 20);
  CHECK(m.ready_of(0x080) == Cycle{20});
  CHECK_FALSE(m.ready_of(0x180).has_value());
  CHECK_FALSE(m.ready_of(0x999).has_value());
  CHECK_THROWS_AS(m.set_ready(0x999, 1), std::out_of_range);

  CHECK(m.expire(19).empty());
  auto done = m.expire(20); // ready == now counts as done
  REQUIRE(done.size() == 2);
  CHECK(done[0].line == 0x080);
  CHECK(done[0].waiters == std::vector<int>{2, 3});
  CHECK(done[1].line == 0x100);
  CHECK_FALSE(m.pending(0x080));
  CHECK(m.pending(0x000));

  done = m.expire(1000);
  REQUIRE(done.size() == 1);
  CHECK(done[0].line == 0x000);
  CHECK(done[0].ready == 50);
  CHECK(m.pending(0x180)); // waits for an explicit release
  CHECK(m.size() == 1);
}

TEST_CASE("expire orders by ready cycle before address", "[mshr]") {
  MshrTable<int> m(4, 1);
  m.add(0x000, 1);
  m.add(0x080, 2);
  m.set_ready(0x000, 30);
  m.set_ready(0x080, 10);
  auto done = m.expire(30);
  REQUIRE(done.size() == 2);
  CHECK(done[0].line == 0x080);
  CHECK(done[1].line == 0x000);
  CHECK_THROWS_AS(MshrTable<int>(0, 1), std::invalid_argument);
}
