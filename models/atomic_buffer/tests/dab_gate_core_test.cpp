// DAB's issue-side logic: buffer mapping, the GWAT token, all-or-nothing
// insertion with READY(FULL), ordering points waiting for their flush to be
// applied (SYNC), CTA batches and READY(DONE) (seed-001 §3.2-3.5, §3.8).
#include "models/atomic_buffer/dab_gate_core.hpp"
#include "models/atomic_buffer/tests/dab_test_util.hpp"
#include "tlmgpu/invariant.hpp"

#include <catch2/catch.hpp>

using namespace tlmgpu;
using namespace dabtest;
using V = IssueGate::Verdict;

namespace {

// One SM (id 0) of `sms`, 4 schedulers, 8 warps per CTA, `r` CTAs at once.
struct Fixture {
  StatGroup root;
  AtomicBufferSpec s;
  DabGateCore core;
  explicit Fixture(uint32_t ctas, uint32_t r = 2, uint32_t entries = 32, std::string order = "gwat")
      : s(make(entries, order)), core(s, 0, 4, 64, root) {
    core.kernel_begins(GateLaunch{ctas, 8, r, 1, 0});
  }
  static AtomicBufferSpec make(uint32_t entries, const std::string& order) {
    AtomicBufferSpec a = spec({.entries = entries, .fusion = true});
    a.order = order;
    return a;
  }
};

WarpInstr red(std::vector<Addr> addrs, float v = 1.0f) {
  WarpInstr in;
  in.kind = WarpInstr::Kind::Red;
  in.op = AtomicOp::Add;
  in.type = DataType::F32;
  in.size = 4;
  for (unsigned l = 0; l < addrs.size(); ++l) {
    in.mask.set(l);
    in.addr[l] = addrs[l];
    in.operand[l] = f32(v);
  }
  return in;
}

WarpInstr fence(Scope s = Scope::Device) {
  WarpInstr in;
  in.kind = WarpInstr::Kind::Fence;
  in.scope = s;
  return in;
}

std::vector<Addr> distinct(unsigned n, Addr base = 0x1000) {
  std::vector<Addr> a;
  for (unsigned i = 0; i < n; ++i)
    a.push_back(base + 4 * i);
  return a;
}

} // namespace

TEST_CASE("dab gate: gwat lets only the token holder touch a shared buffer, in logical order",
          "[dab_gate]") {
  Fixture f(1);
  // Warps 0 and 4 of CTA 0 share scheduler buffer 0 (w mod 4); the token
  // starts at warp 0.
  const GateWarp w0{0, 0, 0}, w4{4, 0, 4}, w1{1, 0, 1};
  CHECK(f.core.check(w4, red({0x100}), false) == V::Wait);
  CHECK(f.core.check(w4, red({0x100}), true) == V::Wait);
  CHECK(f.core.check(w1, red({0x100}), true) == V::Taken); // buffer 1: its own token
  CHECK(f.core.check(w0, red({0x100}), true) == V::Taken);
  CHECK(f.core.check(w0, red({0x100}), false) == V::Wait); // token passed to warp 4
  CHECK(f.core.check(w4, red({0x100}), true) == V::Taken);
  // Warp 4 exits: the token skips it from now on.
  f.core.warp_exited(w4);
  CHECK(f.core.check(w0, red({0x100}), true) == V::Taken);
  CHECK(f.core.check(w0, red({0x100}), true) == V::Taken);
}

TEST_CASE("dab gate: without an order any warp may insert (the negative control)", "[dab_gate]") {
  Fixture f(1, 2, 32, "none");
  CHECK(f.core.check(GateWarp{4, 0, 4}, red({0x100}), true) == V::Taken);
  CHECK(f.core.check(GateWarp{4, 0, 4}, red({0x100}), true) == V::Taken);
}

TEST_CASE("dab gate: a red that does not fit makes its buffer READY(FULL) until the drain",
          "[dab_gate]") {
  Fixture f(1, 1, 32, "none");
  const GateWarp w0{0, 0, 0};
  CHECK(f.core.check(w0, red(distinct(32)), true) == V::Taken);
  CHECK(f.core.check(w0, red(distinct(1, 0x2000)), false) == V::Wait); // sets FULL
  CHECK_FALSE(f.core.ready()); // buffers 1-3: their warps run on (neither full nor exited)
  for (uint32_t w = 1; w < 8; ++w)
    if (w % 4 != 0) f.core.warp_exited(GateWarp{w, 0, w});
  CHECK(f.core.ready()); // buffer 0 FULL (warp 4 still runs), 1-3 DONE
  const auto packets = f.core.drain(1);
  CHECK(packets.size() == 32);
  CHECK(f.core.check(w0, red(distinct(1, 0x2000)), true) == V::Taken);
}

TEST_CASE("dab gate: an ordering point waits until its buffer's flush is applied", "[dab_gate]") {
  Fixture f(1, 1, 32, "none");
  const GateWarp w0{0, 0, 0};
  CHECK(f.core.check(w0, fence(), true) == V::Pass); // nothing buffered: goes at once
  CHECK(f.core.check(w0, red({0x100}), true) == V::Taken);
  CHECK(f.core.check(w0, fence(Scope::Cta), true) == V::Pass); // CTA scope is not one (P6)
  CHECK(f.core.check(w0, fence(), true) == V::Wait);           // READY(SYNC)
  CHECK(f.core.check(w0, red({0x104}), true) == V::Wait);      // the closed buffer takes nothing
  (void)f.core.drain(1);
  CHECK(f.core.check(w0, fence(), true) == V::Wait); // drained, not yet applied
  f.core.applied(1);
  CHECK(f.core.check(w0, fence(), true) == V::Pass);
  CHECK(f.core.settled());
}

TEST_CASE("dab gate: a later CTA batch waits for the earlier one; DONE makes a buffer READY",
          "[dab_gate]") {
  Fixture f(2, 1, 32, "none"); // CTAs 0 and 1 on this SM (one SM), one at a time
  const GateWarp a{0, 0, 0}, b{8, 1, 0};
  CHECK(f.core.check(a, red({0x100}), true) == V::Taken);
  CHECK(f.core.check(b, red({0x100}), true) == V::Wait); // batch 1 may not touch a buffer yet
  for (uint32_t w = 0; w < 8; ++w)
    f.core.warp_exited(GateWarp{w, 0, w});
  // Batch 0 is done but its reds are buffered: the SM is READY and batch 1
  // waits for the drain, so the flush holds exactly batch 0's reds.
  CHECK(f.core.ready());
  CHECK(f.core.check(b, red({0x100}), true) == V::Wait);
  CHECK(f.core.drain(1).size() == 1);
  CHECK(f.core.check(b, red({0x100}), true) == V::Taken);
}

TEST_CASE("dab gate: CTAs must be placed c mod sms", "[dab_gate]") {
  StatGroup root;
  AtomicBufferSpec s = spec({});
  DabGateCore core(s, 1, 4, 64, root);
  core.kernel_begins(GateLaunch{8, 2, 1, 2, 1});
  CHECK_NOTHROW(core.warp_started(GateWarp{0, 3, 0}));
  CHECK_THROWS_AS(core.warp_started(GateWarp{0, 2, 0}), InvariantError);
}

TEST_CASE("dab gate: gtar gathers the ring, then issues one round in logical order", "[dab_gate]") {
  Fixture f(1, 2, 32, "gtar");
  const GateWarp w0{0, 0, 0}, w4{4, 0, 4};
  CHECK(f.core.check(w4, red({0x100}), true) == V::Wait);   // warp 0 has not arrived
  CHECK(f.core.check(w0, red({0x100}), false) == V::Taken); // now all are here: round
  CHECK(f.core.check(w4, red({0x100}), true) == V::Wait);   // ... in logical order
  CHECK(f.core.check(w0, red({0x100}), true) == V::Taken);
  CHECK(f.core.check(w4, red({0x100}), true) == V::Taken); // the round ends
  CHECK(f.core.check(w4, red({0x100}), true) == V::Wait);  // gather again: warp 0 is not here
  f.core.warp_exited(w0);                                  // an exited warp counts as arrived
  CHECK(f.core.check(w4, red({0x100}), true) == V::Taken);
}

TEST_CASE("dab gate: srr orders every instruction of a ring, not only reds", "[dab_gate]") {
  Fixture f(1, 2, 32, "srr");
  const GateWarp w0{0, 0, 0}, w4{4, 0, 4}, w1{1, 0, 1};
  WarpInstr alu;
  alu.kind = WarpInstr::Kind::Compute;
  alu.count = 1;
  CHECK(f.core.gates(WarpInstr::Kind::Compute));
  CHECK(f.core.check(w4, alu, true) == V::Wait); // warp 0 first
  CHECK(f.core.check(w1, alu, true) == V::Pass); // another ring
  CHECK(f.core.check(w0, alu, true) == V::Pass);
  CHECK(f.core.check(w0, red({0x100}), true) == V::Wait); // warp 4's turn, even for a red
  CHECK(f.core.check(w4, red({0x100}), true) == V::Taken);
  CHECK(f.core.check(w0, red({0x100}), true) == V::Taken);
  Fixture g(1, 2, 32, "gwat");
  CHECK_FALSE(g.core.gates(WarpInstr::Kind::Compute));
}

TEST_CASE("dab gate: gtrr is greedy until the ring gathers at its first red, then srr",
          "[dab_gate]") {
  Fixture f(1, 2, 32, "gtrr");
  const GateWarp w0{0, 0, 0}, w4{4, 0, 4}, w1{1, 0, 1}, w5{5, 0, 5};
  WarpInstr alu;
  alu.kind = WarpInstr::Kind::Compute;
  alu.count = 1;
  CHECK(f.core.gates(WarpInstr::Kind::Compute)); // it may switch to srr
  CHECK(f.core.check(w4, alu, true) == V::Pass); // greedy: any order
  CHECK(f.core.check(w4, alu, true) == V::Pass);
  CHECK(f.core.check(w4, red({0x100}), true) == V::Wait); // held: warp 0 has not arrived
  CHECK(f.core.check(w0, alu, true) == V::Pass);
  CHECK(f.core.check(w0, red({0x100}), false) == V::Taken); // the ring is here: srr from warp 0
  CHECK(f.core.check(w4, red({0x100}), true) == V::Wait);
  CHECK(f.core.check(w0, red({0x100}), true) == V::Taken);
  CHECK(f.core.check(w0, alu, true) == V::Wait); // strict now: warp 4's turn, even for ALU
  CHECK(f.core.check(w4, red({0x100}), true) == V::Taken);
  CHECK(f.core.check(w0, alu, true) == V::Pass);
  CHECK(f.core.check(w0, alu, true) == V::Wait);
  // The ring of warps 1 and 5 has not gathered: still greedy.
  CHECK(f.core.check(w5, alu, true) == V::Pass);
  CHECK(f.core.check(w5, alu, true) == V::Pass);
  CHECK(f.core.check(w1, alu, true) == V::Pass);
}
