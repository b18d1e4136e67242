// DAB atomic buffer core: spec checks, lane-ordered all-or-nothing insertion,
// fusion, flush coalescing and offset flushing (seed-001 §3.1, §3.6-3.7,
// §10.5 item 6).
#include "models/atomic_buffer/tests/dab_test_util.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <random>

using namespace tlmgpu;
using namespace dabtest;

namespace {

void require_config_error(AtomicBufferSpec s, const std::string& key) {
  try {
    s.derive();
    FAIL("derive() accepted a spec that must name " << key);
  } catch (const ConfigError& e) {
    CHECK_THAT(e.what(), Catch::Matchers::Contains(key));
  }
}

} // namespace

TEST_CASE("dab spec: defaults derive, impossible combinations name their dab key",
          "[atomic_buffer]") {
  auto s = defaults<AtomicBufferSpec>();
  CHECK(s.level == "none");
  CHECK(s.entries == 64);
  CHECK(s.deterministic());
  s.derive();
  s.level = "scheduler";
  CHECK(dab_bytes_per_sm(s, 64, 4) == 2304); // 2.3 KB per SM (notes §3.1)
  s.level = "warp";
  s.entries = 32;
  CHECK(dab_bytes_per_sm(s, 64, 4) == 18432);

  auto bad = [] {
    auto b = defaults<AtomicBufferSpec>();
    b.level = "scheduler";
    return b;
  };
  auto b = bad();
  b.entries = 16;
  require_config_error(b, "dab.entries");
  b = bad();
  b.sector_bytes = 24;
  require_config_error(b, "dab.sector_bytes");
  b = bad();
  b.offset_flush = true;
  b.offset_index = 64;
  require_config_error(b, "dab.offset_index");
  b = bad();
  b.allow_overlap = true; // OF without NR
  require_config_error(b, "dab.allow_overlap");
  b = bad();
  b.reorder = false;
  b.flush_granularity = "cluster"; // CIF without OF
  require_config_error(b, "dab.flush_granularity");
  b.allow_overlap = true;
  b.derive(); // DAB-NR-CIF is a valid relaxed configuration
  CHECK_FALSE(b.deterministic());

  const auto rows = describe_rows<AtomicBufferSpec>("dab");
  CHECK(std::any_of(rows.begin(), rows.end(), [](const ParamRow& r) {
    return r.path == "dab.offset_index" && r.def == "32";
  }));
}

TEST_CASE("dab buffer: lanes are inserted in ascending lane id, whatever the given order",
          "[atomic_buffer]") {
  StatGroup g;
  AtomicBufferCore buf(spec({}), 1, g);
  std::vector<RedLane> ls;
  for (int lane = 31; lane >= 0; --lane) // given backwards
    ls.push_back({static_cast<uint8_t>(lane), Addr(0x1000 + 4 * (31 - lane)), uint64_t(lane)});
  REQUIRE(buf.insert(AtomicOp::Add, DataType::U32, ls));
  REQUIRE(buf.used() == 32);
  for (uint32_t i = 0; i < 32; ++i)
    CHECK(buf.entry(i).arg == i); // entry i came from lane i

  // With fusion, same-address lanes are reduced in lane order: lane order
  // gives (1e8 - 1e8) + 1 = 1; the order given, (1 - 1e8) + 1e8, gives 0.
  StatGroup g2;
  AtomicBufferCore fused(spec({.fusion = true}), 1, g2);
  const std::vector<RedLane> same = {
      {2, 0x40, f32(1.0f)}, {1, 0x40, f32(-1e8f)}, {0, 0x40, f32(1e8f)}};
  REQUIRE(fused.insert(AtomicOp::Add, DataType::F32, same));
  REQUIRE(fused.used() == 1);
  CHECK(as_f32(fused.entry(0).arg) == 1.0f);
}

TEST_CASE("dab buffer: an instruction goes in whole or not at all", "[atomic_buffer]") {
  StatGroup g;
  AtomicBufferCore buf(spec({.entries = 32}), 0, g);
  std::vector<Addr> a(20), b(20);
  for (int i = 0; i < 20; ++i) {
    a[i] = 0x1000 + 4 * i;
    b[i] = 0x2000 + 4 * i;
  }
  REQUIRE(buf.insert(AtomicOp::Add, DataType::U32, lanes(a)));
  CHECK_FALSE(buf.fits(AtomicOp::Add, DataType::U32, lanes(b)));
  CHECK_FALSE(buf.insert(AtomicOp::Add, DataType::U32, lanes(b)));
  CHECK(buf.used() == 20); // none of the 20 went in, though 12 would have fitted
  CHECK(buf.full());
  CHECK_FALSE(buf.insert(AtomicOp::Add, DataType::U32, lanes(b))); // the warp retries
  CHECK(counter(g, "refused_inserts") == 2);
  CHECK(counter(g, "full_events") == 1);
  CHECK(buf.drain().size() == 20);
  CHECK_FALSE(buf.full());
  CHECK(buf.insert(AtomicOp::Add, DataType::U32, lanes(b)));

  // A buffer with no free entry still takes an instruction that only fuses.
  StatGroup g2;
  AtomicBufferCore f(spec({.entries = 32, .fusion = true}), 0, g2);
  std::vector<Addr> full32(32);
  for (int i = 0; i < 32; ++i)
    full32[i] = 0x3000 + 4 * i;
  REQUIRE(f.insert(AtomicOp::Add, DataType::U32, lanes(full32)));
  REQUIRE(f.used() == f.capacity());
  CHECK(f.insert(AtomicOp::Add, DataType::U32, lanes({0x3000, 0x3004, 0x3000})));
  CHECK_FALSE(f.insert(AtomicOp::Add, DataType::U32, lanes({0x3000, 0x4000})));
  CHECK(f.used() == 32);
  CHECK(f.entry(0).arg == 3);
}

TEST_CASE("dab buffer: fusion merges same address and op, across warps; nothing else",
          "[atomic_buffer]") {
  StatGroup g;
  AtomicBufferCore on(spec({.fusion = true}), 0, g);
  // Fig. 6b: two adds to 0xB0BA-like address from two warps share one entry.
  REQUIRE(on.insert(AtomicOp::Add, DataType::U32, lanes({0xB0B8}, 3)));
  REQUIRE(on.insert(AtomicOp::Add, DataType::U32, lanes({0xB0B8}, 4)));
  CHECK(on.used() == 1);
  CHECK(on.entry(0).arg == 7);
  CHECK(counter(g, "fusions") == 1);
  // Another op on the address takes a new entry, and later adds fuse only
  // with the latest entry (the min), so they append again (P8).
  REQUIRE(on.insert(AtomicOp::Min, DataType::U32, lanes({0xB0B8}, 5)));
  REQUIRE(on.insert(AtomicOp::Add, DataType::U32, lanes({0xB0B8}, 1)));
  CHECK(on.used() == 3);
  // Another type is another op.
  REQUIRE(on.insert(AtomicOp::Add, DataType::S32, lanes({0xB0B8}, 1)));
  CHECK(on.used() == 4);
  // inc/dec wrap against the old value: never fused.
  REQUIRE(on.insert(AtomicOp::Inc, DataType::U32, lanes({0x100}, 9)));
  REQUIRE(on.insert(AtomicOp::Inc, DataType::U32, lanes({0x100}, 9)));
  CHECK(on.used() == 6);
  // sub accumulates subtrahends: (m - 3) - 4 = m - 7.
  REQUIRE(on.insert(AtomicOp::Sub, DataType::U32, lanes({0x200}, 3)));
  REQUIRE(on.insert(AtomicOp::Sub, DataType::U32, lanes({0x200}, 4)));
  CHECK(on.used() == 7);
  CHECK(on.entry(6).op == AtomicOp::Sub);
  CHECK(on.entry(6).arg == 7);

  StatGroup g2;
  AtomicBufferCore off(spec({.fusion = false}), 0, g2);
  REQUIRE(off.insert(AtomicOp::Add, DataType::U32, lanes({0xB0B8}, 3)));
  REQUIRE(off.insert(AtomicOp::Add, DataType::U32, lanes({0xB0B8}, 4)));
  CHECK(off.used() == 2);
  CHECK(counter(g2, "fusions") == 0);
}

TEST_CASE("dab buffer: non-reds and bad lanes are refused before any change", "[atomic_buffer]") {
  StatGroup g;
  AtomicBufferCore buf(spec({}), 0, g);
  CHECK_THROWS_AS(buf.insert(AtomicOp::Exch, DataType::U32, lanes({0x10})), std::invalid_argument);
  CHECK_THROWS_AS(buf.insert(AtomicOp::Add, DataType::U32, lanes({0x10, 0x13})),
                  std::invalid_argument);
  const std::vector<RedLane> twice = {{3, 0x10, 1}, {3, 0x14, 1}};
  CHECK_THROWS_AS(buf.insert(AtomicOp::Add, DataType::U32, twice), std::invalid_argument);
  CHECK(buf.empty());
}

TEST_CASE("dab buffer: flush coalescing sends one packet per 32 B sector", "[atomic_buffer]") {
  const std::vector<Addr> addrs = {0x100, 0x104, 0x120, 0x11c, 0x108, 0x13c};
  StatGroup g;
  AtomicBufferCore coal(spec({.coalescing = true}), 1, g);
  REQUIRE(coal.insert(AtomicOp::Add, DataType::U32, lanes(addrs)));
  auto ps = coal.drain();
  REQUIRE(ps.size() == 2); // 0x100-0x11f and 0x120-0x13f
  CHECK(ps[0].sector == 0x100);
  CHECK(addrs_of({ps[0]}) == std::vector<Addr>{0x100, 0x104, 0x11c, 0x108});
  CHECK(ps[1].sector == 0x120);
  CHECK(addrs_of({ps[1]}) == std::vector<Addr>{0x120, 0x13c});
  CHECK(counter(g, "packets") == 2);
  CHECK(counter(g, "flushed_entries") == 6);
  CHECK(coal.empty());

  StatGroup g2;
  AtomicBufferCore plain(spec({.coalescing = false}), 1, g2);
  REQUIRE(plain.insert(AtomicOp::Add, DataType::U32, lanes(addrs)));
  ps = plain.drain();
  CHECK(ps.size() == 6);
  CHECK(addrs_of(ps) == addrs); // entry order
}

TEST_CASE("dab buffer: offset flushing starts even SMs at index 32 and wraps", "[atomic_buffer]") {
  std::vector<Addr> first(32), second(32), all;
  for (int i = 0; i < 32; ++i) {
    first[i] = 0x1000 + 64 * i; // one sector each
    second[i] = 0x8000 + 64 * i;
  }
  all = first;
  all.insert(all.end(), second.begin(), second.end());
  std::vector<Addr> rotated = second;
  rotated.insert(rotated.end(), first.begin(), first.end());

  for (bool coalescing : {false, true}) {
    for (uint32_t sm : {2u, 3u}) {
      StatGroup g;
      AtomicBufferCore buf(spec({.coalescing = coalescing, .offset = true}), sm, g);
      REQUIRE(buf.insert(AtomicOp::Add, DataType::U32, lanes(first)));
      REQUIRE(buf.insert(AtomicOp::Add, DataType::U32, lanes(second)));
      CHECK(addrs_of(buf.drain()) == (sm % 2 == 0 ? rotated : all));
    }
    StatGroup g;
    AtomicBufferCore off(spec({.coalescing = coalescing}), 2, g);
    REQUIRE(off.insert(AtomicOp::Add, DataType::U32, lanes(first)));
    REQUIRE(off.insert(AtomicOp::Add, DataType::U32, lanes(second)));
    CHECK(addrs_of(off.drain()) == all);
    // Fewer entries than the start index: slots 32..63 are empty, so the
    // drain wraps straight to 0.
    StatGroup g3;
    AtomicBufferCore few(spec({.coalescing = coalescing, .offset = true}), 0, g3);
    REQUIRE(few.insert(AtomicOp::Add, DataType::U32, lanes(first)));
    CHECK(addrs_of(few.drain()) == first);
  }
}

TEST_CASE("dab buffer: entries of one address leave in insertion order, offset or not",
          "[atomic_buffer]") {
  // Mixed u32 reds on few words, every feature combination: memory after
  // the drain equals applying every lane directly in insertion order (integer
  // ops are exact, so any reordering of two ops on one word shows).
  const std::vector<AtomicOp> ops = {AtomicOp::Add, AtomicOp::Sub, AtomicOp::Min,
                                     AtomicOp::Max, AtomicOp::And, AtomicOp::Or,
                                     AtomicOp::Xor, AtomicOp::Inc, AtomicOp::Dec};
  std::mt19937 rng(14);
  for (int mask = 0; mask < 8; ++mask) {
    const SpecOpts o{.entries = 64,
                     .fusion = bool(mask & 1),
                     .coalescing = bool(mask & 2),
                     .offset = bool(mask & 4)};
    for (int round = 0; round < 20; ++round) {
      StatGroup g;
      AtomicBufferCore buf(spec(o), 0, g);
      Mem via_buffer, direct;
      while (true) {
        const AtomicOp op = ops[rng() % ops.size()];
        std::vector<RedLane> ls;
        const unsigned n = 1 + rng() % 8;
        for (unsigned i = 0; i < n; ++i)
          ls.push_back({uint8_t(i), Addr(0x40 + 4 * (rng() % 12)), uint64_t(rng() % 1000)});
        if (!buf.insert(op, DataType::U32, ls)) break;
        for (const auto& l : ls)
          direct.apply(FlushOp{l.addr, op, DataType::U32, l.operand, 0});
      }
      for (const auto& p : buf.drain())
        via_buffer.apply(p);
      REQUIRE(via_buffer == direct);
    }
  }
}
