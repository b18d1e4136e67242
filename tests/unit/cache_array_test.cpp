#include "tlmgpu/cache_array.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <random>

using namespace tlmgpu;

TEST_CASE("byte mask: ranges across 64-bit words", "[cache_array]") {
  ByteMask m;
  CHECK(m.none());
  m.set_range(60, 10); // bits 60..69 straddle words 0 and 1
  CHECK(m.count() == 10);
  CHECK(m.all(60, 10));
  CHECK_FALSE(m.all(59, 10));
  CHECK_FALSE(m.test(59));
  CHECK(m.test(69));
  CHECK_FALSE(m.test(70));
  CHECK(m.any(0, 61));
  CHECK_FALSE(m.any(0, 60));
  m.set_range(0, 256);
  CHECK(m.count() == 256);
  m.reset_range(64, 64);
  CHECK(m.count() == 192);
  CHECK_FALSE(m.any(64, 64));

  ByteMask a, b;
  a.set_range(0, 8);
  b.set_range(4, 8);
  CHECK((a & b).count() == 4);
  CHECK((a | b).count() == 12);
  a.remove(b);
  CHECK(a.count() == 4);
  CHECK(a.all(0, 4));

  uint8_t be[8] = {0, 1, 0, 7, 0, 0, 0, 1};
  const ByteMask e = ByteMask::from_enables(be, 8);
  CHECK(e.count() == 3);
  CHECK((e.test(1) && e.test(3) && e.test(7)));
}

TEST_CASE("cache array: line addresses and set mapping", "[cache_array]") {
  CacheArray c(4, 2, 128, 32);
  CHECK(c.line_of(0x1234) == 0x1200);
  CHECK(c.set_of(0) == 0);
  CHECK(c.set_of(128) == 1);
  CHECK(c.set_of(3 * 128) == 3);
  CHECK(c.set_of(4 * 128) == 0);
  CHECK(c.set_of(5 * 128) == 1);
  CHECK(c.sectors_per_line() == 4);
  CHECK(c.all_sectors() == 0xf);
  CHECK(c.sectors_of(30, 4) == 0b11);
  CHECK(c.sectors_of(64, 8) == 0b100);

  // Lines of different sets never compete: 4 sets x 2 ways hold 8 lines.
  for (Addr l = 0; l < 8 * 128; l += 128) {
    bool ev = true;
    c.allocate(l, nullptr, &ev);
    CHECK_FALSE(ev);
  }
  for (Addr l = 0; l < 8 * 128; l += 128)
    CHECK(c.find(l) != nullptr);
  CHECK(c.valid_lines() == 8);
  CHECK(c.find(8 * 128) == nullptr);
}

TEST_CASE("cache array: LRU victim and its copy", "[cache_array]") {
  CacheArray c(1, 4, 128, 32);
  for (Addr l : {0x000, 0x080, 0x100, 0x180})
    c.allocate(l, nullptr, nullptr);
  CacheLine* b = c.find(0x080);
  REQUIRE(b);
  b->data[5] = 0x5a;
  b->valid_bytes.set_range(0, 32);
  b->dirty_bytes.set(5);
  b->meta = 7;
  c.touch(*c.find(0x000)); // A becomes MRU: B is now the LRU line

  CacheLine victim;
  bool ev = false;
  CacheLine& e = c.allocate(0x200, &victim, &ev);
  CHECK(ev);
  CHECK(victim.valid);
  CHECK(victim.line == 0x080);
  CHECK(victim.data[5] == 0x5a);
  CHECK(victim.dirty_bytes.count() == 1);
  CHECK(victim.valid_bytes.count() == 32);
  CHECK(victim.meta == 7);
  CHECK(c.find(0x080) == nullptr);
  // The reused way starts empty.
  CHECK(&e == c.find(0x200));
  CHECK(e.valid_bytes.none());
  CHECK(e.dirty_bytes.none());
  CHECK(e.meta == 0);
  CHECK(e.data[5] == 0);

  // Next victims in LRU order: C, D, A, E.
  for (Addr expect : {0x100, 0x180, 0x000, 0x200}) {
    c.allocate(0x1000 + expect, &victim, &ev);
    CHECK(ev);
    CHECK(victim.line == expect);
  }
}

TEST_CASE("cache array: invalid ways are used before any eviction", "[cache_array]") {
  CacheArray c(1, 2, 128, 32);
  c.allocate(0x000, nullptr, nullptr);
  c.allocate(0x080, nullptr, nullptr);
  c.invalidate(*c.find(0x000)); // the MRU way B stays; A's way is free
  bool ev = true;
  c.allocate(0x100, nullptr, &ev);
  CHECK_FALSE(ev);
  CHECK(c.find(0x080) != nullptr);
  CHECK(c.find(0x100) != nullptr);
  CHECK(c.find(0x000) == nullptr);
  CHECK_THROWS_AS(c.allocate(0x100, nullptr, nullptr), std::logic_error);
}

TEST_CASE("cache array: sector validity and sector copies", "[cache_array]") {
  CacheArray c(2, 2, 128, 32);
  CacheLine& l = c.allocate(0, nullptr, nullptr);
  l.valid_bytes.set_range(32, 32); // sector 1 fully valid
  l.valid_bytes.set_range(64, 31); // sector 2 one byte short
  CHECK(c.sectors_valid(l, 0b0010));
  CHECK_FALSE(c.sectors_valid(l, 0b0110));
  CHECK_FALSE(c.sectors_valid(l, 0b0001));
  CHECK(c.missing_sectors(l, 0b1111) == 0b1101);

  const ByteMask m = c.sector_bytes_mask(0b1001);
  CHECK(m.count() == 64);
  CHECK(m.all(0, 32));
  CHECK(m.all(96, 32));
  CHECK_FALSE(m.any(32, 64));

  uint8_t src[128], dst[128];
  for (int i = 0; i < 128; ++i)
    src[i] = uint8_t(i), dst[i] = 0xee;
  c.copy_sectors(0b1101, src, dst);
  CHECK(dst[0] == 0);
  CHECK(dst[31] == 31);
  CHECK(dst[32] == 0xee);
  CHECK(dst[63] == 0xee);
  CHECK(dst[64] == 64);
  CHECK(dst[127] == 127);
}

TEST_CASE("cache array: disabled array and geometry checks", "[cache_array]") {
  CacheArray off(0, 4, 128, 32);
  CHECK_FALSE(off.enabled());
  CHECK(off.find(0) == nullptr);
  CHECK_THROWS_AS(off.allocate(0, nullptr, nullptr), std::logic_error);
  CHECK_THROWS_AS(CacheArray(4, 4, 96, 32), std::invalid_argument);
  CHECK_THROWS_AS(CacheArray(4, 4, 512, 32), std::invalid_argument);
  CHECK_THROWS_AS(CacheArray(4, 4, 128, 256), std::invalid_argument);
  CHECK_THROWS_AS(CacheArray(4, 4, 256, 4), std::invalid_argument); // 64 sectors
  CHECK_THROWS_AS(CacheArray(4, 0, 128, 32), std::invalid_argument);
}

TEST_CASE("byte mask: word-wise from_enables and copy_masked match the byte-wise meaning",
          "[cache]") {
  std::mt19937_64 rng(5);
  for (int round = 0; round < 200; ++round) {
    uint8_t be[128], src[128], dst[128], want[128];
    for (int i = 0; i < 128; ++i) {
      uint64_t r = rng();
      be[i] = (r & 3) == 0 ? 0 : uint8_t(r >> 8); // any nonzero value enables
      src[i] = uint8_t(r >> 16);
      dst[i] = want[i] = uint8_t(r >> 24);
    }
    ByteMask m = ByteMask::from_enables(be, 128);
    for (int i = 0; i < 128; ++i) {
      REQUIRE(m.test(i) == (be[i] != 0));
      if (be[i]) want[i] = src[i];
    }
    m.copy_masked(dst, src, 128);
    REQUIRE(std::equal(dst, dst + 128, want));
  }
}

// Sets of 64 or more ways find lines through an index (cache_array.hpp,
// kIndexWays); it must agree with the lines themselves through allocations,
// evictions and invalidations, hits and misses alike.
TEST_CASE("wide sets: the line index agrees with the lines", "[cache_array]") {
  CacheArray a(4, 64, 128, 32);
  std::mt19937_64 rng(11);
  auto brute = [&](Addr line) {
    const CacheLine* hit = nullptr;
    a.for_each_valid([&](const CacheLine& l) {
      if (l.line == line) hit = &l;
    });
    return hit;
  };
  for (int round = 0; round < 20000; ++round) {
    const Addr line = (rng() % 1200) * 128; // 1200 lines over 256 ways: evictions
    CacheLine* l = a.find(line);
    REQUIRE(l == brute(line));
    if (!l) {
      bool evicted = false;
      CacheLine victim;
      CacheLine& got = a.allocate(line, &victim, &evicted);
      REQUIRE(a.find(line) == &got);
      if (evicted) REQUIRE(a.find(victim.line) == nullptr);
    } else if (rng() % 3 == 0) {
      a.invalidate(*l);
      REQUIRE(a.find(line) == nullptr);
    }
  }
  REQUIRE(a.valid_lines() > 200);
}

// The way a wide (indexed) set gives a new line is observable: flushes walk
// the lines in way order. It must be the lowest free way, else the least
// recently used one, as in a narrow set (96 ways: a partial bitmask word).
TEST_CASE("wide sets: a new line takes the lowest free way, else the LRU way", "[cache_array]") {
  constexpr uint32_t kSets = 2, kWays = 96;
  CacheArray a(kSets, kWays, 128, 32);
  struct Way {
    Addr line = 0;
    bool valid = false;
    uint64_t stamp = 0;
  };
  std::vector<Way> ref(kSets * kWays);
  uint64_t clock = 0;
  std::mt19937_64 rng(5);
  for (int round = 0; round < 30000; ++round) {
    const Addr line = (rng() % 400) * 128;
    const size_t base = size_t(line / 128 % kSets) * kWays;
    Way* hit = nullptr;
    for (size_t w = base; w < base + kWays; ++w)
      if (ref[w].valid && ref[w].line == line) hit = &ref[w];
    CacheLine* l = a.find(line);
    REQUIRE((l != nullptr) == (hit != nullptr));
    if (!l) {
      Way* v = nullptr;
      for (size_t w = base; w < base + kWays && !v; ++w)
        if (!ref[w].valid) v = &ref[w];
      const bool full = v == nullptr;
      for (size_t w = base; w < base + kWays && full; ++w)
        if (!v || ref[w].stamp < v->stamp) v = &ref[w];
      bool evicted = false;
      CacheLine victim;
      a.allocate(line, &victim, &evicted);
      REQUIRE(evicted == full);
      if (full) REQUIRE(victim.line == v->line);
      *v = Way{line, true, ++clock};
    } else if (rng() % 4 == 0) {
      a.invalidate(*l);
      hit->valid = false;
    } else {
      a.touch(*l);
      hit->stamp = ++clock;
    }
    if (round % 97 == 0) { // way order, as a flush sees it
      std::vector<Addr> got, want;
      a.for_each_valid([&](const CacheLine& c) { got.push_back(c.line); });
      for (const Way& w : ref)
        if (w.valid) want.push_back(w.line);
      REQUIRE(got == want);
    }
  }
}
