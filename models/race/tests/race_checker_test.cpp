// The race checker on hand-made instruction streams: message passing with
// the release at a scope that covers the reader (no race) and one that does
// not (a race on the data word), promotion, barriers, atomics at narrow
// scopes, fences, and kernel boundaries.
#include "models/race/race_checker.hpp"

#include <catch2/catch.hpp>

using namespace tlmgpu;
using Kind = WarpInstr::Kind;

namespace {

constexpr Addr kData = 0x1000, kFlag = 0x2000;

struct Op {
  Kind kind;
  uint64_t warp, cta;
  Addr addr;
  MemOrder order = MemOrder::Relaxed;
  Scope scope = Scope::Device;
  bool remote = false;
};

WarpInstr make(const Op& o) {
  WarpInstr in;
  in.kind = o.kind;
  in.warp = o.warp;
  in.cta = o.cta;
  in.mask = Mask::lane(0);
  in.addr[0] = o.addr;
  in.size = 4;
  in.order = o.order;
  in.scope = o.scope;
  in.remote = o.remote;
  return in;
}

uint64_t races(std::initializer_list<Op> ops) {
  RaceChecker c;
  c.kernel_begin("k");
  for (const Op& o : ops)
    c.issued(0, make(o), 0);
  return c.count();
}

// Writer warp 0 (CTA 0), reader warp 9 (CTA 1): data, then a flag.
uint64_t message_passing(Scope rel, Scope acq, bool remote_acq = false) {
  return races({{Kind::Store, 0, 0, kData},
                {Kind::Atomic, 0, 0, kFlag, MemOrder::Release, rel},
                {Kind::Atomic, 9, 1, kFlag, MemOrder::Acquire, acq, remote_acq},
                {Kind::Load, 9, 1, kData}});
}

} // namespace

TEST_CASE("race checker: message passing needs scopes that cover both", "[race]") {
  CHECK(message_passing(Scope::Device, Scope::Device) == 0);
  // The data word races, and so does the flag: atomics of two CTAs where one
  // is CTA-scoped are a heterogeneous race too.
  CHECK(message_passing(Scope::Cta, Scope::Device) == 2);       // the release stays in CTA 0
  CHECK(message_passing(Scope::Device, Scope::Cta) == 2);       // the acquire looks in CTA 1 only
  CHECK(message_passing(Scope::Cta, Scope::Device, true) == 0); // a promoted acquire reaches it
  // Without any synchronisation the load races with the store.
  CHECK(races({{Kind::Store, 0, 0, kData}, {Kind::Load, 9, 1, kData}}) == 1);
}

TEST_CASE("race checker: the report names both sides", "[race]") {
  RaceChecker c;
  c.kernel_begin("mp");
  c.issued(0, make({Kind::Store, 0, 0, kData}), 0);
  c.issued(1, make({Kind::Load, 9, 1, kData}), 0);
  REQUIRE(c.races().size() == 1);
  const std::string d = RaceChecker::describe(c.races()[0]);
  CHECK(d.find("kernel 'mp'") != std::string::npos);
  CHECK(d.find("0x1000") != std::string::npos);
  CHECK(d.find("warp 0 (CTA 0)") != std::string::npos);
  CHECK(d.find("warp 9 (CTA 1)") != std::string::npos);
}

TEST_CASE("race checker: CTA scope works inside a CTA", "[race]") {
  CHECK(races({{Kind::Store, 0, 0, kData},
               {Kind::Atomic, 0, 0, kFlag, MemOrder::Release, Scope::Cta},
               {Kind::Atomic, 1, 0, kFlag, MemOrder::Acquire, Scope::Cta},
               {Kind::Load, 1, 0, kData}}) == 0);
}

TEST_CASE("race checker: barriers order a CTA's warps", "[race]") {
  CHECK(races({{Kind::Store, 0, 0, kData},
               {Kind::Barrier, 0, 0, 0},
               {Kind::Barrier, 1, 0, 0},
               {Kind::Load, 1, 0, kData}}) == 0);
  // A barrier of another CTA orders nothing.
  CHECK(races({{Kind::Store, 0, 0, kData},
               {Kind::Barrier, 0, 0, 0},
               {Kind::Barrier, 9, 1, 0},
               {Kind::Load, 9, 1, kData}}) == 1);
}

TEST_CASE("race checker: atomics race only when a scope is too narrow", "[race]") {
  CHECK(races({{Kind::Atomic, 0, 0, kFlag}, {Kind::Red, 9, 1, kFlag}}) == 0);
  CHECK(races({{Kind::Atomic, 0, 0, kFlag, MemOrder::Relaxed, Scope::Cta},
               {Kind::Atomic, 9, 1, kFlag}}) == 1);
  CHECK(races({{Kind::Atomic, 0, 0, kFlag, MemOrder::Relaxed, Scope::Cta},
               {Kind::Atomic, 9, 1, kFlag, MemOrder::AcqRel, Scope::Device, true}}) == 0);
  // A plain load against an atomic races.
  CHECK(races({{Kind::Atomic, 0, 0, kFlag}, {Kind::Load, 9, 1, kFlag}}) == 1);
}

TEST_CASE("race checker: fences make relaxed atomics synchronise", "[race]") {
  CHECK(races({{Kind::Store, 0, 0, kData},
               {Kind::Fence, 0, 0, 0, MemOrder::SeqCst, Scope::Device},
               {Kind::Atomic, 0, 0, kFlag},
               {Kind::Atomic, 9, 1, kFlag},
               {Kind::Fence, 9, 1, 0, MemOrder::SeqCst, Scope::Device},
               {Kind::Load, 9, 1, kData}}) == 0);
  // Without the reader's fence its relaxed read acquires nothing.
  CHECK(races({{Kind::Store, 0, 0, kData},
               {Kind::Fence, 0, 0, 0, MemOrder::SeqCst, Scope::Device},
               {Kind::Atomic, 0, 0, kFlag},
               {Kind::Atomic, 9, 1, kFlag},
               {Kind::Load, 9, 1, kData}}) == 1);
}

TEST_CASE("race checker: a kernel boundary orders everything", "[race]") {
  RaceChecker c;
  c.kernel_begin("a");
  c.issued(0, make({Kind::Store, 0, 0, kData}), 0);
  c.kernel_begin("b");
  c.issued(1, make({Kind::Load, 9, 1, kData}), 0);
  CHECK(c.count() == 0);
}
