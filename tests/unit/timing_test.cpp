// Bounded queues refuse at capacity and count it; busy resources serialise
// and account their waits; interval resources serve in time order whatever
// the call order; stall reasons iterate in a fixed order.
#include "tlmgpu/interval_resource.hpp"
#include "tlmgpu/timing.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <random>
#include <string>
#include <utility>
#include <vector>

using namespace tlmgpu;

TEST_CASE("BoundedQueue refuses at capacity and counts refusals", "[timing]") {
  BoundedQueue<int> q(3);
  CHECK(q.capacity() == 3);
  CHECK(q.empty());
  CHECK(q.try_push(1));
  CHECK(q.try_push(2));
  CHECK(q.try_push(3));
  CHECK(q.full());
  CHECK_FALSE(q.try_push(4));
  CHECK_FALSE(q.try_push(5));
  CHECK(q.refusals() == 2);
  CHECK(q.size() == 3);
  CHECK(q.max_occupancy() == 3);

  CHECK(q.front() == 1);
  CHECK(q.pop() == 1);
  CHECK_FALSE(q.full());
  CHECK(q.try_push(6)); // room again after a pop
  CHECK(q.refusals() == 2);
  CHECK(q.pop() == 2);
  CHECK(q.pop() == 3);
  CHECK(q.pop() == 6);
  CHECK(q.empty());
  CHECK(q.max_occupancy() == 3); // a high-water mark, not the current size
  CHECK_THROWS_AS(BoundedQueue<int>(0), std::invalid_argument);
}

TEST_CASE("BoundedQueue erase_at serves a younger entry and keeps the rest in order", "[timing]") {
  BoundedQueue<std::string> q(4);
  for (const char* s : {"a", "b", "c", "d"})
    REQUIRE(q.try_push(s));
  CHECK(q[2] == "c");
  // A scheduler scanning for the first entry it likes, e.g. a row hit.
  size_t pick = 0;
  for (size_t i = 0; i < q.size(); ++i)
    if (q[i] == "c") pick = i;
  CHECK(q.erase_at(pick) == "c");
  std::vector<std::string> rest(q.begin(), q.end());
  CHECK(rest == std::vector<std::string>{"a", "b", "d"});
  CHECK(q.erase_at(2) == "d");
  CHECK(q.try_push("e"));
  CHECK(q.try_push("f"));
  CHECK_FALSE(q.try_push("g"));
  rest.assign(q.begin(), q.end());
  CHECK(rest == std::vector<std::string>{"a", "b", "e", "f"});
  CHECK_THROWS_AS(q.erase_at(4), std::out_of_range);
}

TEST_CASE("BusyUntil serialises users and accounts their waits", "[timing]") {
  BusyUntil bank;
  CHECK(bank.acquire(10, 4) == 10); // idle: starts on arrival
  CHECK(bank.free_at() == 14);
  CHECK(bank.busy(13));
  CHECK_FALSE(bank.busy(14));
  CHECK(bank.acquire(11, 4) == 14); // waits 3
  CHECK(bank.acquire(12, 2) == 18); // waits 6
  CHECK(bank.free_at() == 20);
  CHECK(bank.acquire(30, 1) == 30); // idle gap: no wait
  CHECK(bank.uses() == 4);
  CHECK(bank.busy_cycles() == 4 + 4 + 2 + 1);
  CHECK(bank.waited() == 2);
  CHECK(bank.wait_cycles() == 3 + 6);
  CHECK(bank.acquire(31, 0) == 31); // zero occupancy leaves it free
  CHECK(bank.free_at() == 31);
}

TEST_CASE("StallCounters count by reason in name order", "[timing]") {
  StallCounters s;
  CHECK(s.empty());
  s.add("mshr_full");
  s.add("bank_busy", 3);
  s.add("credit");
  s.add("mshr_full", 2);
  CHECK(s.count("mshr_full") == 3);
  CHECK(s.count("bank_busy") == 3);
  CHECK(s.count("credit") == 1);
  CHECK(s.count("never") == 0);
  CHECK(s.total() == 7);
  CHECK(s.size() == 3);
  std::vector<std::string> order;
  for (const auto& [reason, n] : s)
    order.push_back(reason);
  CHECK(order == std::vector<std::string>{"bank_busy", "credit", "mshr_full"});
}

TEST_CASE("IntervalResource serves a late call with an earlier arrival in time order",
          "[timing][interval]") {
  IntervalResource link;
  // An initiator running ahead books cycle 900 first...
  CHECK(link.acquire(900, 4) == 900);
  // ...and one that is behind in time is not queued after it (BusyUntil: 904).
  CHECK(link.acquire(100, 4) == 100);
  CHECK(link.acquire(101, 4) == 104); // behind the cycle-100 booking only
  CHECK(link.waited() == 1);
  CHECK(link.wait_cycles() == 3);
  // A request that does not fit before 900 waits for the end of that booking.
  CHECK(link.acquire(898, 4) == 904);
  CHECK(link.free_at() == 908);
  CHECK(link.uses() == 4);
  CHECK(link.busy_cycles() == 16);
  CHECK(link.busy(902));
  CHECK_FALSE(link.busy(200));
}

TEST_CASE("IntervalResource reuses gaps and merges touching bookings", "[timing][interval]") {
  IntervalResource bank;
  CHECK(bank.acquire(10, 5) == 10); // [10,15)
  CHECK(bank.acquire(30, 5) == 30); // [30,35)
  CHECK(bank.spans() == 2);
  CHECK(bank.acquire(12, 10) == 15); // [15,25): the gap is big enough
  CHECK(bank.acquire(20, 10) == 35); // [25,30) is too short: after 35
  CHECK(bank.acquire(25, 5) == 25);  // exactly fills [25,30)
  CHECK(bank.spans() == 1);          // [10,45) as one span
  CHECK(bank.earliest(11, 1) == 45);
  CHECK(bank.earliest(0, 10) == 0);  // before everything
  CHECK(bank.earliest(0, 11) == 45); // does not fit before 10
  // Zero occupancy books nothing but does not start inside a busy span.
  CHECK(bank.acquire(12, 0) == 45);
  CHECK(bank.acquire(5, 0) == 5);
  CHECK(bank.spans() == 1);
}

TEST_CASE("IntervalResource matches BusyUntil when calls come in arrival order",
          "[timing][interval]") {
  std::mt19937_64 rng(7);
  for (int run = 0; run < 50; ++run) {
    BusyUntil ref;
    IntervalResource timed(Booking::TimeOrder), ordered(Booking::CallOrder);
    Cycle arrival = 0;
    for (int i = 0; i < 2000; ++i) {
      arrival += rng() % 4; // bursts of equal arrivals and idle gaps
      const Cycle occ = rng() % 5;
      const Cycle want = ref.acquire(arrival, occ);
      REQUIRE(timed.acquire(arrival, occ) == want);
      REQUIRE(ordered.acquire(arrival, occ) == want);
      if (i % 16 == 0) timed.retire(arrival);
    }
    for (const IntervalResource* r : {&timed, &ordered}) {
      CHECK(r->free_at() == ref.free_at());
      CHECK(r->uses() == ref.uses());
      CHECK(r->busy_cycles() == ref.busy_cycles());
      CHECK(r->wait_cycles() == ref.wait_cycles());
      CHECK(r->waited() == ref.waited());
    }
  }
}

TEST_CASE("IntervalResource in CallOrder is BusyUntil whatever the call order",
          "[timing][interval]") {
  std::mt19937_64 rng(11);
  BusyUntil ref;
  IntervalResource r(Booking::CallOrder);
  for (int i = 0; i < 5000; ++i) {
    const Cycle arrival = rng() % 10000, occ = rng() % 6;
    REQUIRE(r.earliest(arrival, occ) == std::max(arrival, ref.free_at()));
    REQUIRE(r.acquire(arrival, occ) == ref.acquire(arrival, occ));
  }
  CHECK(r.wait_cycles() == ref.wait_cycles());
  CHECK(r.spans() == 0);
}

TEST_CASE("IntervalResource in CallOrder: a span booked ahead holds up only what overlaps it",
          "[timing][interval]") {
  IntervalResource link(Booking::CallOrder);
  CHECK(link.acquire(10, 4) == 10); // in order: [10,14)
  // A side-band leg booked now for cycle 500 (its whole trip is booked in one
  // call) must not push the busy-until point there.
  CHECK(link.acquire_ahead(500, 4) == 500);
  CHECK(link.free_at() == 504);
  CHECK(link.acquire(20, 4) == 20); // not 504, as acquire() would give
  CHECK(link.earliest(498, 4) == 504);
  CHECK(link.acquire(498, 4) == 504); // overlaps the ahead span: steps over it
  CHECK(link.acquire(400, 4) == 508); // in order: behind the latest in-order booking
  // An ahead booking never starts before the busy-until point nor inside another.
  CHECK(link.acquire_ahead(0, 4) == 512);
  CHECK(link.acquire_ahead(600, 4) == 600);
  CHECK(link.acquire_ahead(598, 4) == 604);
  CHECK(link.busy(601));
  CHECK_FALSE(link.busy(590));
  CHECK(link.uses() == 8);
  // Zero occupancy books nothing and does not start inside an ahead span.
  CHECK(link.acquire(601, 0) == 608);
  link.reset();
  CHECK(link.free_at() == 0);
  CHECK(link.acquire(0, 1) == 0);
}

TEST_CASE("IntervalResource::occupy holds every free cycle of a window", "[timing][interval]") {
  IntervalResource in; // time order
  CHECK(in.acquire(10, 1) == 10);
  CHECK(in.acquire(14, 2) == 14); // [14,16)
  in.occupy(11, 20);              // the input stalls until 20
  CHECK(in.spans() == 1);         // [10,20) as one span
  CHECK(in.acquire(12, 1) == 20); // what arrives in the window waits for its end
  CHECK(in.acquire(5, 1) == 5);   // what came before is not held
  CHECK(in.uses() == 4);          // occupy() books without counting a use
  IntervalResource ordered(Booking::CallOrder);
  ordered.occupy(0, 30);
  CHECK(ordered.acquire(3, 1) == 30);
}

TEST_CASE("IntervalResource in TimeOrder: acquire_ahead is acquire", "[timing][interval]") {
  IntervalResource a, b;
  for (Cycle t : {900, 100, 101, 898}) {
    CHECK(a.acquire_ahead(t, 4) == b.acquire(t, 4));
  }
  CHECK(a.free_at() == b.free_at());
}

TEST_CASE("IntervalResource in time order: same load, never later than in call order",
          "[timing][interval]") {
  // Initiators each run ahead by up to a quantum: calls come in initiator
  // order, arrivals interleave in time. Booked intervals never overlap.
  std::mt19937_64 rng(3);
  IntervalResource timed;
  BusyUntil ref;
  std::vector<std::pair<Cycle, Cycle>> booked;
  uint64_t timed_wait = 0;
  for (Cycle quantum = 0; quantum < 20; ++quantum)
    for (int sm = 0; sm < 8; ++sm)
      for (Cycle t = quantum * 100; t < quantum * 100 + 100; t += 1 + rng() % 20) {
        const Cycle s = timed.acquire(t, 2);
        ref.acquire(t, 2);
        booked.push_back({s, s + 2});
        timed_wait += s - t;
      }
  std::sort(booked.begin(), booked.end());
  for (size_t i = 1; i < booked.size(); ++i)
    REQUIRE(booked[i - 1].second <= booked[i].first);
  CHECK(timed.wait_cycles() == timed_wait);
  CHECK(timed.wait_cycles() < ref.wait_cycles());
  CHECK(timed.busy_cycles() == ref.busy_cycles());
}

TEST_CASE("IntervalResource forgets retired time and bounds its spans", "[timing][interval]") {
  IntervalResource r;
  for (Cycle t = 0; t < 1000; ++t)
    r.acquire(t * 10, 1); // 1000 separate spans
  CHECK(r.spans() == 1000);
  r.retire(5000);
  CHECK(r.spans() == 500);
  CHECK(r.acquire(5001, 1) == 5001); // the gaps after the horizon are still there
  CHECK(r.acquire(9990, 1) == 9991);
  // Without retire(), the oldest spans are folded into one busy span.
  IntervalResource many;
  for (Cycle t = 0; t < 3 * IntervalResource::kMaxSpans; ++t)
    many.acquire(t * 3, 1);
  CHECK(many.spans() <= IntervalResource::kMaxSpans);
  CHECK(many.earliest(1, 1) > 1); // folded: the old gaps count as busy
  const Cycle last = 3 * (3 * IntervalResource::kMaxSpans - 1);
  CHECK(many.earliest(last - 2, 1) == last - 2); // recent gaps are kept
}

TEST_CASE("WaitTally sums the waits of every booking since it was last taken", "[timing]") {
  WaitTally::take();
  IntervalResource link;
  BusyUntil bank;
  CHECK(link.acquire(0, 10) == 0); // free: no wait
  CHECK(WaitTally::take() == 0);
  CHECK(link.acquire(4, 10) == 10); // waits 6
  CHECK(bank.acquire(0, 5) == 0);
  CHECK(bank.acquire(1, 5) == 5); // waits 4
  CHECK(WaitTally::take() == 10);
  CHECK(WaitTally::take() == 0); // taking resets it
}
