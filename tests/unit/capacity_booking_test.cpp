// CapacityBooking (LT's MSHR capacity over time) and CoveredCycles (the
// union of stall intervals added out of order).
#include "tlmgpu/capacity_booking.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <random>
#include <utility>
#include <vector>

using namespace tlmgpu;

TEST_CASE("a full pool makes a request wait for the first booking to end", "[capacity_booking]") {
  CapacityBooking b(2);
  CHECK(b.earliest(0) == 0);
  b.book(0, 100);
  CHECK(b.earliest(10) == 10); // one unit still free
  b.book(10, 50);
  CHECK(b.earliest(20) == 50); // both busy: the one ending first frees
  CHECK(b.earliest(50) == 50); // an end frees its unit at that cycle
  CHECK(b.earliest(100) == 100);
  CHECK_THROWS(CapacityBooking(0));
}

TEST_CASE("bookings made out of time order count by time, not by call", "[capacity_booking]") {
  CapacityBooking b(1);
  b.book(1000, 1400);            // an SM that ran ahead booked late first
  CHECK(b.earliest(100) == 100); // an earlier miss finds the entry free then
  b.book(100, 500);
  CHECK(b.earliest(200) == 500);
  CHECK(b.earliest(600) == 600);
  CHECK(b.earliest(1200) == 1400);
  // Over-booked for a while (a booking began inside another): the wait steps
  // over ends until fewer than the capacity are left.
  b.book(1300, 2000);
  CHECK(b.earliest(1300) == 2000);
}

TEST_CASE("retiring forgets ended bookings and keeps the counts after", "[capacity_booking]") {
  CapacityBooking b(2);
  for (Cycle c = 0; c < 100; ++c)
    b.book(c * 10, c * 10 + 25); // up to three overlap
  CHECK(b.live() == 100);
  const Cycle before = b.earliest(500);
  b.retire(495);
  CHECK(b.live() < 100);
  CHECK(b.earliest(500) == before);
  b.retire(5000);
  CHECK(b.live() == 0);
  CHECK(b.earliest(5000) == 5000);
}

// Reference: count the bookings covering each cycle by brute force.
TEST_CASE("earliest matches a brute-force count of covering bookings", "[capacity_booking]") {
  std::mt19937 rng(7);
  for (size_t cap : {1u, 2u, 5u}) {
    CapacityBooking b(cap);
    std::vector<std::pair<Cycle, Cycle>> ref;
    Cycle now = 0;
    for (int i = 0; i < 400; ++i) {
      now += rng() % 4;
      b.retire(now);
      const Cycle at = now + rng() % 60; // callers run ahead of `now`
      Cycle want = at;
      auto covering = [&](Cycle t) {
        return std::count_if(ref.begin(), ref.end(),
                             [t](const auto& r) { return r.first <= t && t < r.second; });
      };
      while (size_t(covering(want)) >= cap)
        ++want;
      REQUIRE(b.earliest(at) == want);
      const Cycle end = want + 1 + rng() % 40;
      b.book(want, end);
      ref.push_back({want, end});
    }
  }
}

TEST_CASE("covered cycles count overlapping waits once", "[capacity_booking]") {
  CoveredCycles c;
  CHECK(c.add(100, 200) == 100);
  CHECK(c.add(150, 250) == 50); // overlaps the first
  CHECK(c.add(0, 50) == 50);    // earlier, added later
  CHECK(c.add(40, 300) == 100); // fills [50, 100) and [250, 300)
  CHECK(c.spans() == 1);
  CHECK(c.add(10, 20) == 0);
  CHECK(c.add(5, 5) == 0);
  c.retire(300);
  CHECK(c.spans() == 0);
  CHECK(c.add(400, 410) == 10);
}
