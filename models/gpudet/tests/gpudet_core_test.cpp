// GPUDet's per-SM logic (notes seed-001 §4): the quantum count, what ends a
// quantum, the store buffer with forwarding and overflow, serial-mode
// grants, barriers gathered across quanta, and the commit's Z-test.
#include "models/gpudet/gpudet_core.hpp"

#include <catch2/catch.hpp>

#include <span>
#include <utility>
#include <vector>

using namespace tlmgpu;
using V = IssueGate::Verdict;
using S = GpuDetCore::State;

namespace {

constexpr uint32_t kLine = 128;

GpuDetSpec spec(uint32_t quantum, uint32_t store_buffer = 32) {
  GpuDetSpec s;
  s.enable = true;
  s.quantum = quantum;
  s.store_buffer = store_buffer;
  s.inject_fault = "none";
  return s;
}

// One SM of 8 warp slots, CTAs of 2 warps.
struct Fixture {
  StatGroup root;
  GpuDetSpec s;
  GpuDetCore core;
  explicit Fixture(uint32_t quantum, uint32_t store_buffer = 32)
      : s(spec(quantum, store_buffer)), core(s, 8, kLine, 32, root) {
    core.kernel_begins(GateLaunch{4, 2, 4, 1, 0});
  }
  GateWarp start(uint32_t slot, uint32_t cta, uint32_t w) {
    GateWarp g{slot, cta, w};
    core.warp_started(g);
    return g;
  }
};

WarpInstr compute(uint32_t n = 1) {
  WarpInstr in;
  in.kind = WarpInstr::Kind::Compute;
  in.count = n;
  return in;
}
// Lane l touches base + 4 l (one line for 32 lanes of 4 B).
WarpInstr access(WarpInstr::Kind k, Addr base, uint32_t value = 0, unsigned lanes = 32,
                 Addr stride = 4) {
  WarpInstr in;
  in.kind = k;
  in.size = 4;
  in.type = DataType::U32;
  for (unsigned l = 0; l < lanes; ++l) {
    in.mask.set(l);
    in.addr[l] = base + l * stride;
    in.operand[l] = value + l;
  }
  return in;
}
WarpInstr simple(WarpInstr::Kind k) {
  WarpInstr in;
  in.kind = k;
  return in;
}

} // namespace

TEST_CASE("gpudet: a warp issues gpudet.quantum instructions, then waits", "[gpudet]") {
  Fixture f(10);
  const GateWarp w = f.start(0, 0, 0);
  REQUIRE(f.core.running() == 1);
  REQUIRE(f.core.check(w, compute(4), true) == V::Pass);
  REQUIRE(f.core.check(w, compute(5), true) == V::Pass); // 9
  REQUIRE(f.core.running() == 1);
  REQUIRE(f.core.check(w, compute(3), true) == V::Pass); // 12: over, ends here
  REQUIRE(f.core.running() == 0);
  REQUIRE(f.core.check(w, compute(), false) == V::Wait);
  f.core.open_quantum();
  REQUIRE(f.core.running() == 1);
  REQUIRE(f.core.check(w, compute(), true) == V::Pass);
}

TEST_CASE("gpudet: stores are taken into the buffer and forwarded to the warp's loads",
          "[gpudet]") {
  Fixture f(100);
  const GateWarp a = f.start(0, 0, 0), b = f.start(1, 0, 1);
  REQUIRE(f.core.check(a, access(WarpInstr::Kind::Store, 0x1000, 7, 2), true) == V::Taken);
  REQUIRE(f.core.check(a, access(WarpInstr::Kind::Load, 0x1000), true) == V::Pass);
  std::vector<uint8_t> line(kLine, 0xEE);
  REQUIRE(f.core.forward(a.slot, 0x1000, line.data()) == 8);
  CHECK(line[0] == 7);
  CHECK(line[4] == 8);
  CHECK(line[8] == 0xEE); // not written: memory's byte stays
  std::vector<uint8_t> other(kLine, 0xEE);
  CHECK(f.core.forward(b.slot, 0x1000, other.data()) == 0); // private to the warp
  CHECK(f.core.forward(a.slot, 0x2000, other.data()) == 0);
}

TEST_CASE("gpudet: a store that does not fit ends the quantum and goes after the commit",
          "[gpudet]") {
  Fixture f(100, 32);
  const GateWarp w = f.start(0, 0, 0);
  // 32 lanes, one line each: fills the 32-line buffer.
  REQUIRE(f.core.check(w, access(WarpInstr::Kind::Store, 0x10000, 1, 32, kLine), true) == V::Taken);
  REQUIRE(f.core.check(w, access(WarpInstr::Kind::Store, 0x10000, 2, 32, kLine), true) ==
          V::Taken); // the same lines: fits
  REQUIRE(f.core.check(w, access(WarpInstr::Kind::Store, 0x90000, 3, 1), false) == V::Wait);
  CHECK(f.core.running() == 0);
  f.core.clear_buffers(); // the commit
  f.core.open_quantum();
  CHECK(f.core.check(w, access(WarpInstr::Kind::Store, 0x90000, 3, 1), true) == V::Taken);
}

TEST_CASE("gpudet: atomics wait for serial mode and go one granted warp at a time", "[gpudet]") {
  Fixture f(100);
  const GateWarp a = f.start(0, 1, 0), b = f.start(1, 0, 1);
  const WarpInstr red = access(WarpInstr::Kind::Red, 0x1000, 1, 32, 8); // two lines
  REQUIRE(f.core.check(a, red, false) == V::Wait);
  REQUIRE(f.core.check(b, red, false) == V::Wait);
  REQUIRE(f.core.running() == 0);
  auto held = f.core.held_atomics();
  REQUIRE(held.size() == 2);
  f.core.set_parallel(false);
  f.core.grant(b.slot);
  CHECK(f.core.check(a, red, true) == V::Wait); // not granted
  REQUIRE(f.core.check(b, red, true) == V::Pass);
  REQUIRE(f.core.serial_issued(b.slot));
  CHECK_FALSE(f.core.serial_issued(a.slot));
  REQUIRE(f.core.serial_left(b.slot) == 2);
  CHECK_FALSE(f.core.serial_answer(a.slot));
  CHECK_FALSE(f.core.serial_answer(b.slot));
  CHECK_FALSE(f.core.serial_settled());
  CHECK(f.core.serial_answer(b.slot));
  CHECK(f.core.serial_settled());
  CHECK(f.core.check(b, compute(), false) == V::Wait); // its quantum is over
  f.core.open_quantum();
  CHECK(f.core.check(b, compute(), true) == V::Pass);
  CHECK(f.core.check(a, red, false) == V::Wait); // never granted: still held
}

TEST_CASE("gpudet: overlapped grants: several warps issue before any answer, each counts its "
          "own",
          "[gpudet]") {
  Fixture f(100);
  const GateWarp a = f.start(0, 0, 0), b = f.start(1, 0, 1), c = f.start(2, 1, 0);
  const WarpInstr two = access(WarpInstr::Kind::Red, 0x1000, 1, 32, 8); // two lines
  const WarpInstr one = access(WarpInstr::Kind::Atomic, 0x2000, 1);     // one line
  std::vector<std::pair<uint32_t, size_t>> granted; // (slot, lines) in grant order
  f.core.serial_grant = [&](uint32_t slot, std::span<const Addr> lines) {
    granted.emplace_back(slot, lines.size());
  };
  for (const GateWarp& w : {a, b, c})
    REQUIRE(f.core.check(w, w.slot == 1 ? one : two, false) == V::Wait);
  f.core.set_parallel(false);
  f.core.grant(a.slot);
  REQUIRE(f.core.check(a, two, true) == V::Pass);
  f.core.grant(b.slot);                         // before a's answers: the overlapped mode
  CHECK(f.core.check(c, two, true) == V::Wait); // not granted yet
  REQUIRE(f.core.check(b, one, true) == V::Pass);
  CHECK(f.core.check(b, one, true) == V::Wait); // once
  f.core.grant(c.slot);
  REQUIRE(f.core.check(c, two, true) == V::Pass);
  CHECK(granted == std::vector<std::pair<uint32_t, size_t>>{{0, 2}, {1, 1}, {2, 2}});
  CHECK(f.core.serial_left(a.slot) == 2);
  CHECK(f.core.serial_left(b.slot) == 1);
  // Answers in any order; each warp's last one says so.
  CHECK(f.core.serial_answer(b.slot));
  CHECK_FALSE(f.core.serial_answer(c.slot));
  CHECK_FALSE(f.core.serial_answer(a.slot));
  CHECK_FALSE(f.core.serial_settled());
  CHECK(f.core.serial_answer(c.slot));
  CHECK_FALSE(f.core.serial_answer(b.slot)); // no more expected
  CHECK(f.core.serial_answer(a.slot));
  CHECK(f.core.serial_settled());
  f.core.open_quantum();
  CHECK(f.core.serial_settled()); // no grants left
  CHECK_FALSE(f.core.serial_issued(a.slot));
}

TEST_CASE("gpudet: granted warps of one SM issue in grant order", "[gpudet]") {
  Fixture f(100);
  const GateWarp a = f.start(0, 0, 0), b = f.start(1, 1, 0);
  const WarpInstr red = access(WarpInstr::Kind::Red, 0x1000, 1);
  REQUIRE(f.core.check(a, red, false) == V::Wait);
  REQUIRE(f.core.check(b, red, false) == V::Wait);
  f.core.set_parallel(false);
  f.core.grant(b.slot); // b first (a lower global id elsewhere does not matter here)
  f.core.grant(a.slot);
  CHECK(f.core.check(a, red, true) == V::Wait); // b was granted before it
  REQUIRE(f.core.check(b, red, true) == V::Pass);
  CHECK(f.core.check(a, red, true) == V::Pass);
}

TEST_CASE("gpudet: fences end the quantum and go first in the next one", "[gpudet]") {
  Fixture f(100);
  const GateWarp w = f.start(0, 0, 0);
  REQUIRE(f.core.check(w, simple(WarpInstr::Kind::Fence), false) == V::Wait);
  REQUIRE(f.core.running() == 0);
  f.core.open_quantum();
  REQUIRE(f.core.check(w, simple(WarpInstr::Kind::Fence), true) == V::Pass);
  REQUIRE(f.core.check(w, simple(WarpInstr::Kind::Fence), false) == V::Wait); // a second one
}

TEST_CASE("gpudet: a barrier opens in the quantum after every live warp of the CTA reached it",
          "[gpudet]") {
  Fixture f(3);
  const GateWarp a = f.start(0, 0, 0), b = f.start(1, 0, 1);
  const WarpInstr bar = simple(WarpInstr::Kind::Barrier);
  REQUIRE(f.core.check(a, bar, false) == V::Wait);
  REQUIRE(f.core.check(b, compute(3), true) == V::Pass); // b's quantum ends before the barrier
  f.core.open_quantum();
  CHECK(f.core.check(a, bar, false) == V::Wait); // b is not there yet
  REQUIRE(f.core.check(b, bar, false) == V::Wait);
  REQUIRE(f.core.running() == 0);
  f.core.open_quantum();
  CHECK(f.core.check(a, bar, true) == V::Pass);
  CHECK(f.core.check(b, bar, true) == V::Pass);
  // A CTA whose other warp exited: the barrier opens for the one left.
  const GateWarp c = f.start(2, 1, 0), d = f.start(3, 1, 1);
  REQUIRE(f.core.check(c, bar, false) == V::Wait);
  f.core.warp_exited(d);
  f.core.open_quantum();
  CHECK(f.core.check(c, bar, true) == V::Pass);
}

TEST_CASE("gpudet: the commit gives each byte to the highest global warp id, once", "[gpudet]") {
  StatGroup root;
  const GpuDetSpec s = spec(100);
  GpuDetCore sm0(s, 8, kLine, 32, root), sm1(s, 8, kLine, 32, root);
  for (GpuDetCore* c : {&sm0, &sm1})
    c->kernel_begins(GateLaunch{4, 2, 2, 2, 0});
  // Global ids: CTA 1 warp 1 = 3 on SM 0; CTA 0 warp 0 = 0 on SM 1.
  const GateWarp hi{0, 1, 1}, lo{0, 0, 0};
  sm0.warp_started(hi);
  sm1.warp_started(lo);
  REQUIRE(sm1.check(lo, access(WarpInstr::Kind::Store, 0x1000, 10, 4), true) == V::Taken);
  REQUIRE(sm0.check(hi, access(WarpInstr::Kind::Store, 0x1004, 20, 1), true) == V::Taken);
  const auto w = commit_writes({&sm0, &sm1}, kLine);
  REQUIRE(w.size() == 2);
  REQUIRE(w[0].count(0x1000));
  REQUIRE(w[1].count(0x1000));
  const GpuDetLine &l0 = w[0].at(0x1000), &l1 = w[1].at(0x1000);
  CHECK(l0.written[4] == 1); // warp 3 wins bytes 4..7
  CHECK(l0.data[4] == 20);
  CHECK(l1.written[4] == 0); // ... so warp 0 does not write them
  CHECK(l1.written[0] == 1);
  CHECK(l1.data[0] == 10);
  CHECK(l1.written[8] == 1);
  CHECK(l0.written[0] == 0);
}
