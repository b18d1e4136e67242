// LAB core: merging, eviction and flush must give the same memory as doing
// every atomic at L2 (seed-000 §7.4 "functional mode"), for every mergeable
// op and type, on finite (capacity + mismatch evictions) and infinite LABs.
#include "models/lab/tests/lab_test_util.hpp"

#include <catch2/catch.hpp>

#include <bit>
#include <cmath>
#include <cstring>
#include <random>

using namespace tlmgpu;
using namespace labtest;

namespace {

constexpr unsigned kLines = 12;
constexpr unsigned kLine = 128;

uint64_t random_value(DataType t, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> real(-1000.0, 1000.0);
  switch (t) {
  case DataType::F32:
    return std::bit_cast<uint32_t>(static_cast<float>(real(rng)));
  case DataType::F64:
    return std::bit_cast<uint64_t>(real(rng));
  case DataType::U64:
    return rng();
  default:
    return rng() & 0xffffffffu;
  }
}

// `n` requests of 1..32 lanes on random words (same-word lanes included).
std::vector<Req> random_reqs(const std::vector<AtomicOp>& ops, const std::vector<DataType>& types,
                             unsigned n, std::mt19937_64& rng) {
  std::vector<Req> out;
  for (unsigned r = 0; r < n; ++r) {
    const AtomicOp op = ops[rng() % ops.size()];
    const DataType t = types[rng() % types.size()];
    const unsigned words = kLine / size_of(t), lanes = 1 + rng() % kMaxLanes;
    std::vector<std::pair<uint16_t, uint64_t>> ls;
    for (unsigned i = 0; i < lanes; ++i)
      ls.emplace_back(static_cast<uint16_t>(rng() % words * size_of(t)), random_value(t, rng));
    out.push_back({Addr{rng() % kLines * kLine}, red(op, t, ls)});
  }
  return out;
}

Mem random_mem(DataType t, std::mt19937_64& rng) {
  Mem m(kLines * kLine);
  for (size_t off = 0; off < m.bytes.size(); off += size_of(t)) {
    const uint64_t v = random_value(t, rng);
    std::memcpy(&m.bytes[off], &v, size_of(t));
  }
  return m;
}

// Runs `reqs` through a LAB (evictions applied as they come, then a flush)
// and directly, and returns {lab memory, direct memory}.
std::pair<Mem, Mem> run_both(const LabSpec& s, const std::vector<Req>& reqs, const Mem& init) {
  StatGroup root;
  StatGroup g(root, "lab");
  LabCore lab(s, g);
  Mem via_lab = init, direct = init;
  for (const Req& r : reqs) {
    for (unsigned i = 0; i < r.a.lanes.size(); ++i)
      direct.apply(r.line, r.a.op, r.a.type, r.a.lanes[i]);
    LabOutcome o = lab.access(r.a, r.line);
    REQUIRE(o.kind == LabOutcome::Kind::Buffered);
    via_lab.apply(o.evictions);
  }
  via_lab.apply(lab.flush());
  REQUIRE(lab.empty());
  // Every buffered lane is merged away or sent exactly once.
  CHECK(counter(g, "buffered_lanes") ==
        counter(g, "merged_lanes") + counter(g, "evicted_lanes") + counter(g, "flushed_lanes"));
  return {via_lab, direct};
}

template <class F>
void check_close(const Mem& a, const Mem& b) {
  for (size_t off = 0; off < a.bytes.size(); off += sizeof(F)) {
    F x, y;
    std::memcpy(&x, &a.bytes[off], sizeof x);
    std::memcpy(&y, &b.bytes[off], sizeof y);
    INFO("offset " << off);
    // Merging reorders the sum; operands are within +-1000, so the error is
    // bounded by a few ulps of the running magnitude.
    CHECK(double(x) == Approx(double(y)).epsilon(1e-4).margin(0.05));
  }
}

const std::vector<LabSpec>& geometries() {
  static const std::vector<LabSpec> g{spec(4, 2), spec(8, 0), inf_spec()};
  return g;
}

} // namespace

TEST_CASE("lab: merge then flush equals every atomic at L2, each op and type", "[lab]") {
  const std::vector<DataType> types{DataType::U32, DataType::S32, DataType::U64, DataType::F32,
                                    DataType::F64};
  const std::vector<AtomicOp> ops{AtomicOp::Add, AtomicOp::Sub, AtomicOp::Min, AtomicOp::Max,
                                  AtomicOp::And, AtomicOp::Or,  AtomicOp::Xor};
  std::mt19937_64 rng(42);
  unsigned tried = 0;
  for (DataType t : types)
    for (AtomicOp op : ops) {
      if (!LabCore::mergeable(op, t)) continue;
      ++tried;
      for (const LabSpec& s : geometries()) {
        INFO(to_string(op) << "." << to_string(t) << " entries " << s.entries << " ways " << s.ways
                           << (s.infinite ? " inf" : ""));
        const Mem init = random_mem(t, rng);
        const auto [lab, direct] = run_both(s, random_reqs({op}, {t}, 200, rng), init);
        const bool float_sum = (t == DataType::F32 || t == DataType::F64) &&
                               (op == AtomicOp::Add || op == AtomicOp::Sub);
        if (!float_sum)
          CHECK(lab.bytes == direct.bytes); // exact, incl. float min/max
        else if (t == DataType::F32)
          check_close<float>(lab, direct);
        else
          check_close<double>(lab, direct);
      }
    }
  CHECK(tried == 3 * 7 + 2 * 4); // integers: 7 ops; floats: add, sub, min, max
}

TEST_CASE("lab: interleaved ops and types on shared words stay exact", "[lab]") {
  // Op/type changes evict first, so each word sees the same sequence of
  // op groups as at L2; integer results must match bit for bit.
  std::mt19937_64 rng(7);
  const std::vector<AtomicOp> ops{AtomicOp::Add, AtomicOp::Sub, AtomicOp::Min, AtomicOp::Max,
                                  AtomicOp::And, AtomicOp::Or,  AtomicOp::Xor};
  const std::vector<DataType> types{DataType::U32, DataType::S32, DataType::U64};
  for (const LabSpec& s : geometries()) {
    const Mem init = random_mem(DataType::U64, rng);
    const auto [lab, direct] = run_both(s, random_reqs(ops, types, 400, rng), init);
    CHECK(lab.bytes == direct.bytes);
  }
}

TEST_CASE("lab: same-word lanes merge and untouched words are not sent", "[lab]") {
  StatGroup g;
  LabCore lab(spec(8), g);
  std::vector<std::pair<uint16_t, uint64_t>> lanes(32, {8, 1}); // 32 lanes on word 2
  LabOutcome o = lab.access(red(AtomicOp::Add, DataType::U32, lanes), 0x400);
  CHECK_FALSE(o.hit);
  CHECK(o.evictions.empty());
  o = lab.access(red(AtomicOp::Add, DataType::U32, {{8, 10}, {100, 5}}), 0x400);
  CHECK(o.hit);
  const auto out = lab.flush();
  REQUIRE(out.size() == 1);
  REQUIRE(out[0].lanes.size() == 2);
  CHECK(out[0].line == 0x400);
  CHECK(out[0].lanes[0].offset == 8);
  CHECK(out[0].lanes[0].operand == 42);
  CHECK(out[0].lanes[1].offset == 100);
  CHECK(out[0].lanes[1].operand == 5);
  CHECK(out[0].sector_mask == 0b1001);
  CHECK(counter(g, "merged_lanes") == 32);
  CHECK(counter(g, "hits") == 1);
  CHECK(counter(g, "misses") == 1);
}

TEST_CASE("lab: a request of another op or type evicts the line first", "[lab]") {
  StatGroup g;
  LabCore lab(spec(8), g);
  lab.access(red(AtomicOp::Add, DataType::U32, {{0, 2}, {0, 5}}), 0);
  LabOutcome o = lab.access(red(AtomicOp::Min, DataType::U32, {{4, 9}}), 0);
  CHECK_FALSE(o.hit);
  REQUIRE(o.evictions.size() == 1);
  CHECK(o.evictions[0].op == AtomicOp::Add);
  CHECK(o.evictions[0].lanes.size() == 1);
  CHECK(o.evictions[0].lanes[0].operand == 7);
  o = lab.access(red(AtomicOp::Min, DataType::S32, {{4, 3}}), 0); // same op, other type
  REQUIRE(o.evictions.size() == 1);
  CHECK(o.evictions[0].op == AtomicOp::Min);
  CHECK(o.evictions[0].type == DataType::U32);
  CHECK(o.evictions[0].lanes[0].offset == 4);
  CHECK(o.evictions[0].lanes[0].operand == 9);
  CHECK(counter(g, "op_mismatch_evictions") == 2);
  CHECK(counter(g, "capacity_evictions") == 0);
  const auto out = lab.flush();
  REQUIRE(out.size() == 1);
  CHECK(out[0].type == DataType::S32);
}

TEST_CASE("lab: LRU victim order", "[lab]") {
  auto one = [](uint64_t v) { return red(AtomicOp::Add, DataType::U32, {{0, v}}); };
  SECTION("fully associative") {
    StatGroup g;
    LabCore lab(spec(4, 0), g);
    for (Addr l = 0; l < 4; ++l)
      CHECK(lab.access(one(l), l * kLine).evictions.empty());
    lab.access(one(0), 0); // line 0 becomes most recent
    std::vector<Addr> victims;
    for (Addr l = 4; l < 8; ++l) {
      const auto o = lab.access(one(l), l * kLine);
      REQUIRE(o.evictions.size() == 1);
      victims.push_back(o.evictions[0].line);
    }
    CHECK(victims == std::vector<Addr>{1 * kLine, 2 * kLine, 3 * kLine, 0});
    CHECK(counter(g, "capacity_evictions") == 4);
  }
  SECTION("8-way, 2 sets: only the set's own lines compete") {
    StatGroup g;
    LabCore lab(spec(16, 8), g);
    for (Addr l = 0; l < 16; ++l) // even lines fill set 0, odd lines set 1
      CHECK(lab.access(one(l), l * kLine).evictions.empty());
    const auto o = lab.access(one(1), 16 * kLine); // set 0
    REQUIRE(o.evictions.size() == 1);
    CHECK(o.evictions[0].line == 0);
    CHECK(o.evictions[0].lanes[0].operand == 0);
    CHECK(lab.occupancy() == 16);
  }
}

TEST_CASE("lab: flush empties the buffer and loses nothing", "[lab]") {
  for (const LabSpec& s : geometries()) {
    StatGroup g;
    LabCore lab(s, g);
    std::mt19937_64 rng(3);
    uint64_t sent = 0, in = 0;
    for (unsigned r = 0; r < 300; ++r) {
      std::vector<std::pair<uint16_t, uint64_t>> lanes;
      for (unsigned i = 0; i < 1 + rng() % 32; ++i) {
        lanes.emplace_back(static_cast<uint16_t>(rng() % 32 * 4), 1 + rng() % 5);
        in += lanes.back().second;
      }
      for (const auto& e :
           lab.access(red(AtomicOp::Add, DataType::U32, lanes), rng() % 40 * kLine).evictions)
        for (unsigned i = 0; i < e.lanes.size(); ++i)
          sent += e.lanes[i].operand;
    }
    CHECK_FALSE(lab.empty());
    const size_t lines = lab.occupancy();
    for (const auto& e : lab.flush())
      for (unsigned i = 0; i < e.lanes.size(); ++i)
        sent += e.lanes[i].operand;
    CHECK(sent == in);
    CHECK(lab.empty());
    CHECK(counter(g, "flush_evictions") == lines);
    CHECK(lab.flush().empty());
  }
}

TEST_CASE("lab: a line with more words than lanes is split into 32-lane evictions", "[lab]") {
  StatGroup g;
  LabCore lab(spec(8, 8, "strict", "normal", false, 256), g);
  for (uint16_t half = 0; half < 2; ++half) {
    std::vector<std::pair<uint16_t, uint64_t>> lanes;
    for (uint16_t w = 0; w < 32; ++w)
      lanes.emplace_back(static_cast<uint16_t>((half * 32 + w) * 4), 1);
    lab.access(red(AtomicOp::Or, DataType::U32, lanes), 0x800);
  }
  const auto out = lab.flush();
  REQUIRE(out.size() == 2);
  CHECK(out[0].lanes.size() == 32);
  CHECK(out[1].lanes.size() == 32);
  CHECK(out[0].sector_mask == 0x0f);
  CHECK(out[1].sector_mask == 0xf0);
  CHECK(out[1].lanes[0].offset == 128);
  CHECK(counter(g, "flushed_lanes") == 64);
  CHECK(counter(g, "flush_evictions") == 1);
}
