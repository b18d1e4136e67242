// L1 core in PHI mode (l1.atomic_mode = phi): update-only lines. Same
// geometry as l1_core_test.cpp: 2 sets x 2 ways x 128 B lines of 4 x 32 B
// sectors, so lines 0x000, 0x100 and 0x200 share set 0.
#include "models/l1/l1_core.hpp"

#include <catch2/catch.hpp>

#include <bit>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

using namespace tlmgpu;

namespace {

L1Spec phi_spec(const std::string& policy = "write_through",
                const std::string& fetch = "on_write") {
  auto s = defaults<L1Spec>();
  s.line_bytes = 128;
  s.sector_bytes = 32;
  s.ways = 2;
  s.sets = 2;
  s.bytes = s.sets * s.ways * s.line_bytes;
  s.sectors_per_line = 4;
  s.write_policy = policy;
  s.write_allocate = false; // PHI implies it
  s.write_allocate_fetch = fetch;
  s.atomic_mode = "phi";
  return s;
}

uint64_t counter(const StatGroup& g, const char* name) {
  auto* c = dynamic_cast<const Counter*>(g.find(name));
  REQUIRE(c);
  return c->value();
}

// A device-scope commutative red: (offset, operand) per lane.
GpuAccess red(AtomicOp op, DataType t, std::vector<std::pair<uint16_t, uint64_t>> lanes,
              MemOrder order = MemOrder::Commutative, Scope scope = Scope::Device) {
  GpuAccess a;
  a.kind = AccessKind::Red;
  a.op = op;
  a.type = t;
  a.order = order;
  a.scope = scope;
  for (auto [off, v] : lanes) {
    a.lanes.push_back(LaneOp{off, uint8_t(a.lanes.size()), v, 0, 0});
    a.sector_mask |= 1u << (off / 32);
  }
  return a;
}

GpuAccess add_u32(std::vector<std::pair<uint16_t, uint64_t>> lanes) {
  return red(AtomicOp::Add, DataType::U32, std::move(lanes));
}

// offset -> operand of every lane of the packets of `line`.
std::vector<std::pair<uint16_t, uint64_t>> lanes_of(const std::vector<PartialUpdatePacket>& ps,
                                                    Addr line) {
  std::vector<std::pair<uint16_t, uint64_t>> out;
  for (const auto& p : ps)
    if (p.line == line)
      for (unsigned i = 0; i < p.lanes.size(); ++i)
        out.emplace_back(p.lanes[i].offset, p.lanes[i].operand);
  return out;
}

struct Line {
  std::array<uint8_t, 128> b{};
  explicit Line(uint8_t fill = 0) { b.fill(fill); }
  uint8_t* data() { return b.data(); }
};

using K = L1Outcome::Kind;
using Lanes = std::vector<std::pair<uint16_t, uint64_t>>;

} // namespace

TEST_CASE("l1 phi: eligibility is the LAB's strict rule, in PHI mode only", "[l1][phi]") {
  StatGroup g;
  L1Core l1(phi_spec(), g);
  CHECK(l1.phi());
  CHECK(l1.phi_eligible(add_u32({{0, 1}})));
  CHECK(l1.phi_eligible(red(AtomicOp::Min, DataType::S32, {{0, 1}})));
  CHECK(l1.phi_eligible(red(AtomicOp::Add, DataType::F32, {{0, 1}})));
  CHECK_FALSE(l1.phi_eligible(red(AtomicOp::Add, DataType::U32, {{0, 1}}, MemOrder::Relaxed)));
  CHECK_FALSE(l1.phi_eligible(
      red(AtomicOp::Add, DataType::U32, {{0, 1}}, MemOrder::Commutative, Scope::System)));
  CHECK_FALSE(l1.phi_eligible(red(AtomicOp::Exch, DataType::U32, {{0, 1}})));
  CHECK_FALSE(l1.phi_eligible(red(AtomicOp::Inc, DataType::U32, {{0, 1}})));
  GpuAccess atom = add_u32({{0, 1}});
  atom.kind = AccessKind::Atomic; // value-returning: performed at L2
  CHECK_FALSE(l1.phi_eligible(atom));

  StatGroup g2;
  auto bypass = phi_spec();
  bypass.atomic_mode = "bypass";
  L1Core b(bypass, g2);
  CHECK_FALSE(b.phi());
  CHECK_FALSE(b.phi_eligible(add_u32({{0, 1}})));
  CHECK(g2.find("phi_updates") == nullptr); // PHI stats only exist in PHI mode
  CHECK_THROWS_AS(b.phi_update(add_u32({{0, 1}}), 0x000), std::logic_error);
}

TEST_CASE("l1 phi: a miss allocates an update-only line without a fetch; hits merge", "[l1][phi]") {
  StatGroup g;
  L1Core l1(phi_spec(), g);
  auto r = l1.phi_update(add_u32({{4, 3}, {8, 5}}), 0x000);
  CHECK(r.kind == K::Hit); // completes here: nothing to fetch
  CHECK_FALSE(r.writeback.has_value());
  CHECK(l1.phi_update_only(0x000));
  const CacheLine* l = l1.array().find(0x000);
  REQUIRE(l);
  CHECK(l->valid_bytes.none()); // no data: a load can never hit it
  CHECK(l1.take_phi_packets().empty());

  // Same op and type: merged into the words (4 gets 3 + 10, 8 stays 5).
  CHECK(l1.phi_update(add_u32({{4, 10}, {12, 1}}), 0x000).kind == K::Hit);
  CHECK(counter(g, "phi_updates") == 2);
  CHECK(counter(g, "phi_update_hits") == 1);
  CHECK(counter(g, "phi_update_misses") == 1);
  CHECK(counter(g, "phi_merged_lanes") == 1);
  CHECK(counter(g, "fills") == 0);

  l1.phi_flush();
  CHECK(l1.phi_update_lines() == 0);
  auto ps = l1.take_phi_packets();
  REQUIRE(ps.size() == 1);
  CHECK(ps[0].op == AtomicOp::Add);
  CHECK(ps[0].type == DataType::U32);
  CHECK(ps[0].sector_mask == 0b0001);
  // Only touched words travel, with the combined partial value.
  CHECK(lanes_of(ps, 0x000) == Lanes{{4, 13}, {8, 5}, {12, 1}});
  CHECK(counter(g, "phi_flush_packets") == 1);
  CHECK(counter(g, "phi_packets") == 1);
  CHECK(counter(g, "phi_packet_lanes") == 3);
  CHECK(l1.take_phi_packets().empty()); // the outbox was emptied
}

TEST_CASE("l1 phi: sub accumulates subtrahends; min and float add start at the identity",
          "[l1][phi]") {
  StatGroup g;
  L1Core l1(phi_spec(), g);
  l1.phi_update(red(AtomicOp::Sub, DataType::U32, {{0, 3}}), 0x000);
  l1.phi_update(red(AtomicOp::Sub, DataType::U32, {{0, 4}}), 0x000);
  l1.phi_update(red(AtomicOp::Min, DataType::S32, {{0, uint32_t(-7)}, {4, 9}}), 0x080);
  l1.phi_update(red(AtomicOp::Min, DataType::S32, {{4, 12}}), 0x080);
  const uint64_t f = std::bit_cast<uint32_t>(1.5f);
  l1.phi_update(red(AtomicOp::Add, DataType::F32, {{0, f}}), 0x400);
  l1.phi_flush();
  auto ps = l1.take_phi_packets();
  CHECK(lanes_of(ps, 0x000) == Lanes{{0, 7}}); // m - 3 - 4 = m - 7
  CHECK(lanes_of(ps, 0x080) == Lanes{{0, uint32_t(-7)}, {4, 9}});
  CHECK(lanes_of(ps, 0x400) == Lanes{{0, f}}); // -0.0 + 1.5
  for (const auto& p : ps)
    if (p.line == 0x000) CHECK(p.op == AtomicOp::Sub);
}

TEST_CASE("l1 phi: an update of another op or type evicts the line first", "[l1][phi]") {
  StatGroup g;
  L1Core l1(phi_spec(), g);
  l1.phi_update(add_u32({{0, 2}}), 0x000);
  l1.phi_update(red(AtomicOp::Max, DataType::U32, {{0, 5}}), 0x000);
  auto ps = l1.take_phi_packets();
  REQUIRE(ps.size() == 1); // the add partials, sent before the max is buffered
  CHECK(ps[0].op == AtomicOp::Add);
  CHECK(lanes_of(ps, 0x000) == Lanes{{0, 2}});
  CHECK(counter(g, "phi_op_mismatch_evictions") == 1);
  CHECK(counter(g, "phi_update_misses") == 2);
  l1.phi_update(red(AtomicOp::Max, DataType::S32, {{0, 1}}), 0x000); // same op, other type
  ps = l1.take_phi_packets();
  REQUIRE(ps.size() == 1);
  CHECK(ps[0].op == AtomicOp::Max);
  CHECK(ps[0].type == DataType::U32);
  CHECK(counter(g, "phi_op_mismatch_evictions") == 2);
  l1.phi_flush();
  ps = l1.take_phi_packets();
  REQUIRE(ps.size() == 1);
  CHECK(ps[0].type == DataType::S32);
  CHECK(lanes_of(ps, 0x000) == Lanes{{0, 1}});
}

TEST_CASE("l1 phi: a data access releases the update-only line, then misses normally",
          "[l1][phi]") {
  StatGroup g;
  L1Core l1(phi_spec(), g);
  Line out, mem(0x11);
  l1.phi_update(add_u32({{32, 6}}), 0x000);
  // The core refuses to treat partial values as data.
  CHECK_THROWS_AS(l1.load(0x000, 0b0010, out.data()), std::logic_error);
  CHECK_THROWS_AS(l1.store(0x000, mem.data(), nullptr), std::logic_error);
  CHECK_THROWS_AS(l1.atomic(0x000, 1), std::logic_error);
  CHECK_THROWS_AS(l1.fill(0x000, 1, mem.data()), std::logic_error);

  CHECK(l1.phi_release(0x000));
  CHECK_FALSE(l1.phi_release(0x000)); // nothing left
  CHECK_FALSE(l1.phi_release(0x080)); // absent
  auto ps = l1.take_phi_packets();
  CHECK(lanes_of(ps, 0x000) == Lanes{{32, 6}});
  CHECK(ps[0].sector_mask == 0b0010);
  CHECK(counter(g, "phi_conflict_evictions") == 1);
  auto r = l1.load(0x000, 0b0010, out.data());
  CHECK(r.kind == K::Miss);
  CHECK(r.fetch_sectors == 0b0010);
  l1.fill(0x000, 0b0010, mem.data());
  CHECK(l1.load(0x000, 0b0010, out.data(), true).kind == K::Hit);
  CHECK(out.b[32] == 0x11);
}

TEST_CASE("l1 phi: an update to a data line drops the data copy (S -> U)", "[l1][phi]") {
  StatGroup g;
  L1Core l1(phi_spec(), g);
  Line mem(0x11), out;
  l1.fill(0x000, 0xf, mem.data());
  CHECK(l1.phi_update(add_u32({{0, 1}}), 0x000).kind == K::Hit);
  CHECK(l1.phi_update_only(0x000));
  CHECK(l1.array().find(0x000)->valid_bytes.none());
  CHECK(counter(g, "phi_data_conversions") == 1);
  CHECK(counter(g, "phi_update_misses") == 1);
  CHECK(counter(g, "evictions") == 0); // no way changed hands
  l1.phi_flush();
  // The identity, not the stale data, seeded the words: the packet adds 1.
  CHECK(lanes_of(l1.take_phi_packets(), 0x000) == Lanes{{0, 1}});

  // Write-back: the dirty bytes of the data copy are returned first.
  StatGroup g2;
  L1Core wb(phi_spec("write_back"), g2);
  wb.fill(0x000, 0xf, mem.data());
  Line d(0x77), be;
  be.b[8] = 1;
  CHECK(wb.store(0x000, d.data(), be.data()).kind == K::Hit);
  auto r = wb.phi_update(add_u32({{8, 1}}), 0x000);
  REQUIRE(r.writeback.has_value());
  CHECK(r.writeback->dirty.count() == 1);
  CHECK(r.writeback->data[8] == 0x77);
  CHECK(wb.flush().empty()); // the partials are not dirty data...
  CHECK(lanes_of(wb.take_phi_packets(), 0x000) == Lanes{{8, 1}}); // ...they left as a red
  wb.invalidate_all();
}

TEST_CASE("l1 phi: capacity eviction picks the LRU way among data and update lines", "[l1][phi]") {
  StatGroup g;
  L1Core l1(phi_spec(), g);
  Line mem(0x11), out;
  // Set 0: data 0x000, update 0x100; touching 0x000 makes 0x100 the LRU way.
  l1.fill(0x000, 0xf, mem.data());
  l1.phi_update(add_u32({{0, 4}}), 0x100);
  CHECK(l1.load(0x000, 1, out.data()).kind == K::Hit);
  // An update allocation evicts the update line 0x100 (to the outbox).
  l1.phi_update(add_u32({{0, 9}}), 0x200);
  CHECK(counter(g, "phi_update_evictions") == 1);
  CHECK(counter(g, "phi_data_evictions_by_updates") == 0);
  CHECK(lanes_of(l1.take_phi_packets(), 0x100) == Lanes{{0, 4}});
  CHECK(l1.load(0x000, 1, out.data()).kind == K::Hit); // the data line stayed

  // Now 0x200 (update) is LRU: a data fill evicts it; its partials leave.
  CHECK_FALSE(l1.fill(0x100, 0xf, mem.data()).has_value());
  CHECK(counter(g, "phi_update_evictions") == 2);
  CHECK(lanes_of(l1.take_phi_packets(), 0x200) == Lanes{{0, 9}});
  CHECK_FALSE(l1.phi_update_only(0x200));

  // Data line 0x000 is LRU: an update allocation evicts data.
  CHECK(l1.load(0x100, 1, out.data()).kind == K::Hit);
  l1.phi_update(add_u32({{4, 1}}), 0x200);
  CHECK(counter(g, "phi_data_evictions_by_updates") == 1);
  CHECK(l1.take_phi_packets().empty()); // a clean data victim is just dropped
  CHECK(l1.load(0x000, 1, out.data()).kind == K::Miss);
  CHECK(counter(g, "evictions") == 3);

  // Write-back: a dirty data victim of an update allocation is returned.
  StatGroup g2;
  L1Core wb(phi_spec("write_back"), g2);
  wb.fill(0x000, 0xf, mem.data());
  Line d(0x5a), be;
  be.b[1] = 1;
  wb.store(0x000, d.data(), be.data());
  wb.fill(0x100, 0xf, mem.data());
  auto r = wb.phi_update(add_u32({{0, 1}}), 0x200);
  REQUIRE(r.writeback.has_value());
  CHECK(r.writeback->line == 0x000);
  CHECK(r.writeback->data[1] == 0x5a);
}

TEST_CASE("l1 phi: flush sends every update-only line and leaves the L1 empty of them",
          "[l1][phi]") {
  StatGroup g;
  L1Core l1(phi_spec(), g);
  Line mem;
  l1.phi_update(add_u32({{0, 1}}), 0x000);
  l1.phi_update(add_u32({{0, 2}}), 0x080);
  l1.fill(0x100, 0xf, mem.data());
  CHECK(l1.phi_update_lines() == 2);
  CHECK_THROWS_AS(l1.invalidate_all(), std::logic_error); // partials must not be dropped
  CHECK(l1.flush().empty()); // flush() also drains them (write-through: no dirty data)
  CHECK(l1.phi_update_lines() == 0);
  auto ps = l1.take_phi_packets();
  CHECK(ps.size() == 2);
  CHECK(lanes_of(ps, 0x000) == Lanes{{0, 1}});
  CHECK(lanes_of(ps, 0x080) == Lanes{{0, 2}});
  CHECK(counter(g, "phi_flush_packets") == 2);
  CHECK(l1.array().valid_lines() == 1); // the data line stays until invalidate_all
  l1.invalidate_all();
  CHECK(l1.array().valid_lines() == 0);
}

TEST_CASE("l1 phi: a full line of u32 partials fits one packet; 64-bit words too", "[l1][phi]") {
  StatGroup g;
  L1Core l1(phi_spec(), g);
  Lanes all;
  for (uint16_t off = 0; off < 128; off += 4)
    all.emplace_back(off, off);
  l1.phi_update(add_u32(all), 0x000);
  l1.phi_update(red(AtomicOp::Add, DataType::U64, {{8, 1ull << 40}}), 0x080);
  l1.phi_flush();
  auto ps = l1.take_phi_packets();
  REQUIRE(ps.size() == 2);
  CHECK(ps[0].lanes.size() == 32);
  CHECK(ps[0].sector_mask == 0xf);
  CHECK(lanes_of(ps, 0x080) == Lanes{{8, 1ull << 40}});
  CHECK_THROWS_AS(l1.phi_update(add_u32({{2, 1}}), 0x000), std::logic_error); // misaligned
  CHECK(l1.phi_update_lines() == 0);                                          // nothing changed
}

TEST_CASE("l1 phi: PHI implies write-allocate (fetch-on-write by default)", "[l1][phi]") {
  StatGroup g;
  L1Core l1(phi_spec(), g);
  Line d(0x99), be, mem(0x11), out;
  be.b[36] = 1;
  auto r = l1.store(0x400, d.data(), be.data());
  CHECK(r.kind == K::Miss);
  CHECK(r.fetch_sectors == 0b0010);
  l1.fill(0x400, 0b0010, mem.data());
  CHECK(l1.store(0x400, d.data(), be.data(), true).kind == K::Forward); // write-through
  REQUIRE(l1.load(0x400, 0b0010, out.data()).kind == K::Hit);
  CHECK(out.b[36] == 0x99);
  CHECK(out.b[37] == 0x11);
}

TEST_CASE("l1 core: lazy fetch-on-read writes at once and fetches only for loads", "[l1][phi]") {
  for (const char* policy : {"write_through", "write_back"}) {
    INFO(policy);
    StatGroup g;
    auto spec = phi_spec(policy, "lazy_on_read");
    spec.atomic_mode = "bypass";
    spec.write_allocate = true; // lazy is a write-allocate variant, PHI or not
    L1Core l1(spec, g);
    Line d(0x99), be, mem(0x11), out;
    be.b[36] = be.b[37] = 1;
    auto r = l1.store(0x400, d.data(), be.data());
    const bool wb = std::string(policy) == "write_back";
    CHECK(r.kind == (wb ? K::Hit : K::Forward)); // no fetch either way
    CHECK(r.fetch_sectors == 0);
    CHECK(l1.array().find(0x400)->valid_bytes.count() == 2);
    // A load of the partially written sector fetches it; the fill keeps the
    // written bytes.
    r = l1.load(0x400, 0b0010, out.data());
    CHECK(r.kind == K::Miss);
    CHECK(r.fetch_sectors == 0b0010);
    l1.fill(0x400, 0b0010, mem.data());
    REQUIRE(l1.load(0x400, 0b0010, out.data(), true).kind == K::Hit);
    CHECK(out.b[35] == 0x11);
    CHECK(out.b[36] == 0x99);
    CHECK(out.b[37] == 0x99);
    CHECK(out.b[38] == 0x11);
    CHECK(l1.flush().size() == (wb ? 1u : 0u));
  }

  // In PHI mode a lazy store allocation may evict an update-only line.
  StatGroup g;
  L1Core l1(phi_spec("write_through", "lazy_on_read"), g);
  Line d(0x99), be;
  be.b[0] = 1;
  l1.phi_update(add_u32({{0, 1}}), 0x000);
  l1.phi_update(add_u32({{0, 2}}), 0x100);
  CHECK(l1.store(0x200, d.data(), be.data()).kind == K::Forward);
  CHECK(lanes_of(l1.take_phi_packets(), 0x000) == Lanes{{0, 1}});
  CHECK(counter(g, "phi_update_evictions") == 1);

  StatGroup g2;
  auto bad = phi_spec();
  bad.write_allocate_fetch = "sometimes";
  CHECK_THROWS_AS(L1Core(bad, g2), ConfigError);
}

TEST_CASE("l1 core: fetch-on-write fetches only sectors the store writes partly", "[l1][phi]") {
  StatGroup g;
  L1Core l1(phi_spec(), g);
  Line d(0x99), be, mem(0x11), out;
  for (unsigned b = 0; b < 32; ++b)
    be.b[b] = 1; // sector 0 completely
  be.b[40] = 1;  // one byte of sector 1
  auto r = l1.store(0x400, d.data(), be.data());
  CHECK(r.kind == K::Miss);
  CHECK(r.fetch_sectors == 0b0010); // GPGPU-Sim F: a fully written sector needs no fetch
  l1.fill(0x400, 0b0010, mem.data());
  CHECK(l1.store(0x400, d.data(), be.data(), true).kind == K::Forward);
  REQUIRE(l1.load(0x400, 0b0011, out.data()).kind == K::Hit);
  CHECK(out.b[0] == 0x99);
  CHECK(out.b[39] == 0x11);
  CHECK(out.b[40] == 0x99);

  // Whole sectors only: allocated and written at once, nothing fetched.
  Line full;
  for (unsigned b = 64; b < 128; ++b)
    full.b[b] = 1;
  r = l1.store(0x800, d.data(), full.data());
  CHECK(r.kind == K::Forward);
  CHECK(l1.load(0x800, 0b1100, out.data()).kind == K::Hit);
  CHECK(l1.load(0x800, 0b0001, out.data()).kind == K::Miss);
  CHECK(counter(g, "fills") == 1);
}
