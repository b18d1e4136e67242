// Directed protocol traces of the scoped caches (seed-002 §6.7 B, F): the
// bookkeeping of Fig. 3A/3B, and how many L1s a remote operation costs in
// bRSP versus sRSP.
#include "models/scoped/scoped_system.hpp"

#include <catch2/catch.hpp>

using namespace tlmgpu;
using namespace tlmgpu::scoped;

namespace {

struct Rig {
  StatGroup root;
  StatGroup g{root, "scoped"};
  ScopedSystem sys;
  Rig(const std::string& proto, uint32_t cus = 8)
      : sys(
            [&] {
              auto s = defaults<ScopedSpec>();
              s.protocol = proto;
              s.cus = cus;
              s.jitter_cycles = 0;
              return s;
            }(),
            Mutations{}, 1, g) {}
  // Runs `t` to completion.
  template <class T>
  void run(Task<T> t) {
    sys.spawner().spawn(std::move(t));
    REQUIRE(sys.loop().run(1'000'000));
    REQUIRE(sys.error().empty());
  }
  uint64_t msgs(Msg m) { return sys.stats().msgs[size_t(m)]->value(); }
};

SyncOp op(Kind k, Order o, Scope s, bool remote, Addr a, uint32_t x = 0, uint32_t y = 0) {
  SyncOp p;
  p.kind = k, p.order = o, p.scope = s, p.remote = remote, p.addr = a, p.a = x, p.b = y;
  return p;
}

} // namespace

TEST_CASE("Fig. 3A: a wg release pushes a marker and leaves the data in the L1", "[scoped]") {
  Rig r("srsp");
  auto& l1 = r.sys.l1(0);
  r.run([](ScopedL1& l1) -> Task<void> {
    co_await l1.store(0x2000, 3);
    co_await l1.sync(op(Kind::St, Order::Rel, Scope::Wg, false, 0x3000, 1));
  }(l1));
  REQUIRE(l1.sfifo().size() == 3); // Y, L dirtied, L's release marker
  REQUIRE(l1.lr().lookup(0x3000));
  REQUIRE(r.sys.peek(0x2000) == 0); // nothing reached L2
  REQUIRE(r.msgs(Msg::WriteBack) == 0);
}

TEST_CASE("Fig. 4/5 and 3B: remote acquire drains the owner to its marker; a remote release "
          "arms PA-TBLs; the owner's next wg acquire is promoted and empties both tables",
          "[scoped]") {
  Rig r("srsp");
  r.run([](ScopedSystem& s) -> Task<void> {
    co_await s.l1(0).store(0x2000, 3);
    co_await s.l1(0).sync(op(Kind::St, Order::Rel, Scope::Wg, false, 0x3000, 1));
    co_await s.l1(0).store(0x5000, 7); // after the marker: stays in L1 0
    uint32_t l = co_await s.l1(1).sync(op(Kind::Cas, Order::Acq, Scope::Cmp, true, 0x3000, 1, 2));
    REQUIRE(l == 1);
    REQUIRE(s.peek(0x2000) == 3);
    REQUIRE(s.peek(0x5000) == 0);
    co_await s.l1(1).sync(op(Kind::St, Order::Rel, Scope::Cmp, true, 0x3000, 0));
    REQUIRE(s.l1(0).pa().hit(0x3000));
    uint32_t v = co_await s.l1(0).sync(op(Kind::Ld, Order::Acq, Scope::Wg, false, 0x3000));
    REQUIRE(v == 0); // performed at L2
    REQUIRE(s.l1(0).pa().size() == 0);
    REQUIRE(s.l1(0).lr().size() == 0);
  }(r.sys));
  auto& st = r.sys.stats();
  REQUIRE(st.lr_hits.value() == 1);
  REQUIRE(st.lr_misses.value() == 6); // the other 6 of 8 L1s
  REQUIRE(st.pa_hits.value() == 1);
  REQUIRE(r.msgs(Msg::SelFlushReq) == 7);
  REQUIRE(r.msgs(Msg::SelInvReq) == 7);
}

TEST_CASE("a remote acquire costs every L1 in bRSP and at most two in sRSP", "[scoped]") {
  for (std::string proto : {"brsp", "srsp"}) {
    Rig r(proto, 16);
    r.run([](ScopedSystem& s) -> Task<void> {
      co_await s.l1(0).sync(op(Kind::St, Order::Rel, Scope::Wg, false, 0x3000, 1));
      co_await s.l1(5).sync(op(Kind::Ld, Order::Acq, Scope::Cmp, true, 0x3000));
    }(r.sys));
    auto& st = r.sys.stats();
    if (proto == "brsp") {
      REQUIRE(st.l1s_flushed.value() == 16);
      REQUIRE(st.l1s_invalidated.value() == 16);
      REQUIRE(r.msgs(Msg::BcastFlushReq) == 15);
      REQUIRE(r.msgs(Msg::SelFlushReq) == 0);
    } else {
      REQUIRE(st.l1s_flushed.value() == 1);     // the owner, to its marker
      REQUIRE(st.l1s_invalidated.value() == 1); // the requester itself
      REQUIRE(r.msgs(Msg::SelFlushReq) == 15);  // control messages still broadcast
      REQUIRE(r.msgs(Msg::BcastFlushReq) == 0);
    }
  }
}

TEST_CASE("cmp protocol never touches the LR-TBL or PA-TBL and sends no remote messages",
          "[scoped]") {
  Rig r("cmp", 4);
  r.run([](ScopedSystem& s) -> Task<void> {
    co_await s.l1(0).sync(op(Kind::St, Order::Rel, Scope::Wg, false, 0x3000, 1));
    co_await s.l1(1).sync(op(Kind::Cas, Order::AcqRel, Scope::Cmp, true, 0x3000, 1, 0));
  }(r.sys));
  REQUIRE(r.sys.l1(0).lr().size() == 0);
  REQUIRE(r.sys.stats().wg_ops.value() == 0);
  REQUIRE(r.msgs(Msg::SelFlushReq) + r.msgs(Msg::SelInvReq) + r.msgs(Msg::BcastFlushReq) == 0);
  REQUIRE(r.sys.peek(0x3000) == 0);
}

TEST_CASE("srsp_opt: the owner predictor turns the second selective flush into a unicast",
          "[scoped]") {
  Rig r("srsp_opt", 8);
  r.run([](ScopedSystem& s) -> Task<void> {
    for (int i = 0; i < 2; ++i) {
      co_await s.l1(0).sync(op(Kind::St, Order::Rel, Scope::Wg, false, 0x3000, i));
      co_await s.l1(3).sync(op(Kind::Ld, Order::Acq, Scope::Cmp, true, 0x3000));
    }
  }(r.sys));
  REQUIRE(r.msgs(Msg::SelFlushReq) == 7 + 1);
  REQUIRE(r.sys.stats().predictor_hits.value() == 1);
}
