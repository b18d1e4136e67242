// hLRC ownership registry: every state transition and every refused one.
#include "models/hlrc/ownership_registry.hpp"

#include <catch2/catch.hpp>

using namespace tlmgpu;

TEST_CASE("hlrc registry: a free line has no owner and no pending transfer", "[hlrc]") {
  OwnershipRegistry r;
  CHECK_FALSE(r.owner(0x1000));
  CHECK(r.ready(0x1000) == 0);
  CHECK(r.owned_lines() == 0);
  CHECK(r.entries() == 0); // looking does not create entries
}

TEST_CASE("hlrc registry: grant, recall, grant to the next requester", "[hlrc]") {
  OwnershipRegistry r;
  r.grant(0x1000, 3, 150);
  REQUIRE(r.owner(0x1000));
  CHECK(*r.owner(0x1000) == 3);
  CHECK(r.ready(0x1000) == 150); // the grant reaches SM 3 at 150
  CHECK(r.owned_lines() == 1);
  CHECK_FALSE(r.owner(0x1080)); // other lines untouched

  CHECK(r.recall(0x1000, 400) == 3); // SM 3 gave it back; data home at 400
  CHECK_FALSE(r.owner(0x1000));
  CHECK(r.ready(0x1000) == 400);
  CHECK(r.owned_lines() == 0);

  r.grant(0x1000, 5, 600); // ownership passes to the requester
  CHECK(*r.owner(0x1000) == 5);
  CHECK(r.ready(0x1000) == 600);
}

TEST_CASE("hlrc registry: release by the owner frees the line", "[hlrc]") {
  OwnershipRegistry r;
  r.grant(0x2000, 1, 10);
  r.release(0x2000, 1, 70);
  CHECK_FALSE(r.owner(0x2000));
  CHECK(r.ready(0x2000) == 70);
  CHECK(r.owned_lines() == 0);
  r.grant(0x2000, 1, 90); // the same SM may own it again
  CHECK(*r.owner(0x2000) == 1);
}

TEST_CASE("hlrc registry: one owner at a time; only the owner releases", "[hlrc]") {
  OwnershipRegistry r;
  r.grant(0x3000, 2, 10);
  CHECK_THROWS_AS(r.grant(0x3000, 4, 20), std::logic_error); // recall first
  CHECK_THROWS_AS(r.grant(0x3000, 2, 20), std::logic_error); // not even to itself
  CHECK_THROWS_AS(r.release(0x3000, 4, 30), std::logic_error);
  CHECK(*r.owner(0x3000) == 2); // refusals change nothing
  CHECK(r.ready(0x3000) == 10);
  CHECK_THROWS_AS(r.recall(0x4000, 5), std::logic_error); // never owned
  CHECK_THROWS_AS(r.release(0x4000, 2, 5), std::logic_error);
  r.recall(0x3000, 40);
  CHECK_THROWS_AS(r.recall(0x3000, 50), std::logic_error); // already free
  CHECK(r.ready(0x3000) == 40);
}

TEST_CASE("hlrc registry: prune forgets only free lines whose transfer is over", "[hlrc]") {
  OwnershipRegistry r;
  r.grant(0x100, 0, 5); // owned: kept
  r.grant(0x200, 1, 5);
  r.release(0x200, 1, 50); // free, data home at 50
  r.grant(0x300, 1, 5);
  r.recall(0x300, 200); // free, transfer until 200
  CHECK(r.entries() == 3);
  r.prune(100);
  CHECK(r.entries() == 2);
  CHECK(r.ready(0x200) == 0);
  CHECK(r.ready(0x300) == 200);
  CHECK(*r.owner(0x100) == 0);
  r.prune(1000);
  CHECK(r.entries() == 1);
  CHECK(r.owned_lines() == 1);
}
