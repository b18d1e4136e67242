// Bounded queues refuse at capacity and count it; busy resources serialise
// and account their waits; stall reasons iterate in a fixed order.
#include "tlmgpu/timing.hpp"

#include <catch2/catch.hpp>

#include <string>
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
