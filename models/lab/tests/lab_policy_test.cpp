// LAB policies around the core: eligibility per mode, the serialization-only
// variant, spec checks and the L1 carve-out arithmetic.
#include "models/lab/tests/lab_test_util.hpp"

#include <catch2/catch.hpp>

#include <string>

using namespace tlmgpu;
using namespace labtest;

namespace {

constexpr uint32_t KB = 1024;

std::string config_error(LabSpec s) {
  try {
    s.derive();
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

} // namespace

TEST_CASE("lab: only ops with an identity merge", "[lab]") {
  for (AtomicOp op : {AtomicOp::Inc, AtomicOp::Dec, AtomicOp::Exch, AtomicOp::Cas})
    for (DataType t : {DataType::U32, DataType::S32, DataType::U64, DataType::F32, DataType::F64})
      CHECK_FALSE(LabCore::mergeable(op, t));
  CHECK(LabCore::mergeable(AtomicOp::Add, DataType::F32));
  CHECK(LabCore::mergeable(AtomicOp::Sub, DataType::F64));
  CHECK(LabCore::mergeable(AtomicOp::Xor, DataType::U64));
  CHECK_FALSE(LabCore::mergeable(AtomicOp::And, DataType::F32)); // not a CUDA atomic
}

TEST_CASE("lab: eligibility per mode", "[lab]") {
  StatGroup g1, g2, g3;
  LabCore strict(spec(8), g1), compat(spec(8, 8, "paper_compatible"), g2), off(spec(0), g3);
  const GpuAccess base = red(AtomicOp::Add, DataType::U32, {{0, 1}});
  CHECK(strict.eligible(base));
  CHECK(compat.eligible(base));
  CHECK_FALSE(off.eligible(base));
  CHECK(strict.mode_label() == "strict");
  CHECK(compat.mode_label().find("paper_compatible") == 0);
  CHECK(compat.mode_label().find("golden memory") != std::string_view::npos);

  GpuAccess a = base;
  a.kind = AccessKind::Atomic; // return value used: golden memory in paper_compatible only
  CHECK_FALSE(strict.eligible(a));
  CHECK(compat.eligible(a));
  a.order = MemOrder::AcqRel;
  CHECK(compat.eligible(a));
  for (AtomicOp op : {AtomicOp::Exch, AtomicOp::Cas, AtomicOp::Inc, AtomicOp::Dec}) {
    a.op = op; // no identity: never buffered, even with a golden memory
    CHECK_FALSE(compat.eligible(a));
  }
  a = base;
  a.order = MemOrder::Relaxed;
  CHECK_FALSE(strict.eligible(a));
  CHECK(compat.eligible(a));
  for (Scope sc : {Scope::Cta, Scope::System}) {
    a = base;
    a.scope = sc;
    CHECK_FALSE(strict.eligible(a));
    CHECK_FALSE(compat.eligible(a));
  }
  for (AtomicOp op : {AtomicOp::Exch, AtomicOp::Cas, AtomicOp::Inc, AtomicOp::Dec}) {
    a = base;
    a.op = op;
    CHECK_FALSE(strict.eligible(a));
    CHECK_FALSE(compat.eligible(a));
  }
  a = base;
  a.kind = AccessKind::Store;
  CHECK_FALSE(compat.eligible(a));
  a.kind = AccessKind::Atomic;
  CHECK_THROWS_AS(strict.access(a, 0), std::logic_error);
  CHECK(strict.empty());
}

TEST_CASE("lab: serialization-only forwards every request and stores nothing", "[lab]") {
  StatGroup g;
  LabCore lab(spec(8, 8, "strict", "serialization_only"), g);
  CHECK(lab.serialization_only());
  CHECK(lab.flush_costs_time());
  for (unsigned r = 0; r < 10; ++r) {
    const GpuAccess a = red(AtomicOp::Max, DataType::S32, {{4, r}, {4, 100}, {96, 7}});
    LabOutcome o = lab.access(a, 0x80);
    CHECK(o.kind == LabOutcome::Kind::Forward);
    CHECK(o.evictions.empty());
    REQUIRE(o.forward);
    CHECK(o.forward->line == 0x80);
    CHECK(o.forward->op == AtomicOp::Max);
    CHECK(o.forward->type == DataType::S32);
    REQUIRE(o.forward->lanes.size() == 3);
    CHECK(o.forward->lanes[0].operand == r);
    CHECK(o.forward->sector_mask == 0b1001);
    CHECK(lab.empty());
  }
  CHECK(lab.flush().empty());
  CHECK(counter(g, "forwarded") == 10);
  CHECK(counter(g, "misses") == 10);
  CHECK(counter(g, "hits") == 0);
}

TEST_CASE("lab: no_flush_cost is the normal LAB with a free flush", "[lab]") {
  StatGroup g;
  LabCore lab(spec(8, 8, "strict", "no_flush_cost"), g);
  CHECK_FALSE(lab.flush_costs_time());
  lab.access(red(AtomicOp::Add, DataType::U32, {{0, 1}}), 0);
  CHECK(lab.flush().size() == 1);
}

TEST_CASE("lab: spec geometry and its errors", "[lab]") {
  const LabSpec s8 = spec(8);
  CHECK(s8.sets == 1);
  CHECK(s8.assoc == 8);
  CHECK(spec(64).sets == 8);
  CHECK(spec(64, 0).sets == 1);
  CHECK(spec(64, 0).assoc == 64);
  CHECK(spec(0).sets == 0);
  CHECK_FALSE(spec(0).enabled());
  CHECK(inf_spec().enabled());

  auto s = defaults<LabSpec>();
  s.entries = 12;
  CHECK(config_error(s).find("lab.entries (12) must be a multiple of lab.ways (8)") == 0);
  s.entries = 4; // fewer than the ways
  CHECK(config_error(s).find("lab.entries") == 0);
  s.entries = 24; // 3 sets
  CHECK(config_error(s).find("lab.entries / lab.ways") == 0);
  s.entries = 8;
  s.line_bytes = 96;
  CHECK(config_error(s).find("lab.line_bytes") == 0);
  s.line_bytes = 128;
  s.sector_bytes = 256;
  CHECK(config_error(s).find("lab.sector_bytes") == 0);
  s.sector_bytes = 32;
  s.infinite = true;
  CHECK(config_error(s).find("lab.entries (8) must be 0 when lab.infinite") == 0);
  s.entries = 0;
  CHECK(config_error(s).empty());

  auto d = defaults<LabSpec>(); // undeclared choices are rejected by the core
  d.derive();
  d.mode = "loose";
  StatGroup g;
  CHECK_THROWS_AS(LabCore(d, g), ConfigError);
}

TEST_CASE("lab: carve-out arithmetic", "[lab]") {
  CHECK(lab_bytes(spec(0)) == 0);
  CHECK(lab_bytes(spec(8)) == 1 * KB);
  CHECK(lab_bytes(spec(64)) == 8 * KB); // "a 64-entry LAB uses approximately 8 KB"
  CHECK(lab_bytes(spec(256)) == 32 * KB);
  CHECK(lab_bytes(inf_spec()) == 0); // LAB-Inf takes nothing from the cache
}
