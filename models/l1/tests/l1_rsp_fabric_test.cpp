// bRSP's side channel (l1_rsp_fabric.hpp): a broadcast reaches every L1 but
// the requester's, in attach order, and is acked at the latest ack.
#include "models/l1/l1_rsp_fabric.hpp"

#include <catch2/catch.hpp>

#include <vector>

using namespace tlmgpu;

TEST_CASE("rsp fabric: broadcast skips the requester, acks at the last ack", "[l1][rsp]") {
  RspFabric f;
  std::vector<std::pair<uint16_t, RspMessage::Kind>> seen;
  for (uint16_t sm : {0, 1, 2})
    f.attach(sm, [&seen, sm](const RspMessage& m) {
      seen.push_back({sm, m.kind});
      return m.at + 10 * (sm + 1); // SM 2 acks last
    });
  RspMessage m;
  m.kind = RspMessage::Kind::Invalidate;
  m.from_sm = 1;
  m.at = 100;
  const RspFabric::Result r = f.broadcast(m);
  CHECK(r.messages == 2);
  CHECK(r.acked == 130);
  REQUIRE(seen.size() == 2);
  CHECK(seen[0].first == 0);
  CHECK(seen[1].first == 2);
  CHECK(seen[1].second == RspMessage::Kind::Invalidate);
}

TEST_CASE("rsp fabric: alone, a broadcast is acked at once", "[l1][rsp]") {
  RspFabric f;
  f.attach(0, [](const RspMessage&) -> Cycle {
    FAIL("the requester got its own message");
    return 0;
  });
  RspMessage m;
  m.from_sm = 0;
  m.at = 7;
  const RspFabric::Result r = f.broadcast(m);
  CHECK(r.messages == 0);
  CHECK(r.acked == 7);
}

// Four L1s (SMs 0-3) that ack 5 cycles after a message and record who got
// it; `marks(sm)`: that L1's LR-TBL holds line 0x80.
template <class Marks>
void attach_four(RspFabric& f, std::vector<uint16_t>& seen, Marks marks) {
  for (uint16_t sm : {0, 1, 2, 3})
    f.attach(
        sm,
        [&seen, sm](const RspMessage& m) {
          seen.push_back(sm);
          return m.at + 5;
        },
        {}, {}, [sm, marks](Addr line) { return line == 0x80 && marks(sm); });
}

TEST_CASE("rsp fabric: a SelFlush reaches every other L1 and counts the positive acks",
          "[l1][rsp]") {
  RspFabric f;
  std::vector<uint16_t> seen;
  attach_four(f, seen, [](uint16_t sm) { return sm != 2; });
  RspMessage m;
  m.kind = RspMessage::Kind::SelFlush;
  m.from_sm = 1;
  m.sync_line = 0x80;
  m.at = 10;
  RspFabric::Result r = f.broadcast(m);
  CHECK(r.messages == 3);  // sRSP broadcasts: 0, 2 and 3 (1 is the requester)
  CHECK(r.positives == 2); // 2 holds no marker: a negative ack
  CHECK(r.positive_from == uint16_t(3));
  CHECK(r.acked == 15);
  CHECK(seen == std::vector<uint16_t>{0, 2, 3});
  m.sync_line = 0x100; // nobody's marker: every ack negative
  r = f.broadcast(m);
  CHECK(r.messages == 3);
  CHECK(r.positives == 0);
  CHECK(!r.positive_from);
}

TEST_CASE("rsp fabric: sRSPOpt's unicast and the broadcast to the rest", "[l1][rsp]") {
  RspFabric f;
  std::vector<uint16_t> seen;
  attach_four(f, seen, [](uint16_t sm) { return sm == 3; });
  RspMessage m;
  m.kind = RspMessage::Kind::SelFlush;
  m.from_sm = 1;
  m.sync_line = 0x80;
  m.at = 10;
  RspFabric::Result r = f.unicast(m, 2); // a misfire: 2 holds no marker
  CHECK(r.messages == 1);
  CHECK(r.positives == 0);
  r = f.broadcast(m, uint16_t(2)); // the fallback skips the one already asked
  CHECK(r.messages == 2);
  CHECK(r.positive_from == uint16_t(3));
  CHECK(seen == std::vector<uint16_t>{2, 0, 3});
}
