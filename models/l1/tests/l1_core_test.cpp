// L1 core: 2 sets x 2 ways x 128 B lines of 4 x 32 B sectors, so lines
// 0x000, 0x100 and 0x200 share set 0.
#include "models/l1/l1_core.hpp"

#include <catch2/catch.hpp>

#include <string>

using namespace tlmgpu;

namespace {

L1Spec small_spec(const std::string& policy = "write_through", bool write_allocate = false) {
  auto s = defaults<L1Spec>();
  s.line_bytes = 128;
  s.sector_bytes = 32;
  s.ways = 2;
  s.sets = 2;
  s.bytes = s.sets * s.ways * s.line_bytes;
  s.sectors_per_line = 4;
  s.write_policy = policy;
  s.write_allocate = write_allocate;
  return s;
}

uint64_t counter(const StatGroup& g, const char* name) {
  auto* c = dynamic_cast<const Counter*>(g.find(name));
  REQUIRE(c);
  return c->value();
}

struct Line {
  std::array<uint8_t, 128> b{};
  explicit Line(uint8_t fill = 0) { b.fill(fill); }
  uint8_t* data() { return b.data(); }
};

// A store of `n` bytes of `v` at `off`: data and byte enables.
struct Store {
  Line d, be;
  Store(unsigned off, unsigned n, uint8_t v) {
    for (unsigned i = off; i < off + n; ++i)
      d.b[i] = v, be.b[i] = 1;
  }
};

using K = L1Outcome::Kind;

} // namespace

TEST_CASE("l1 core: load hit/miss and sector misses", "[l1]") {
  StatGroup g;
  L1Core l1(small_spec(), g);
  Line out(0xcc), mem;
  for (unsigned i = 0; i < 128; ++i)
    mem.b[i] = uint8_t(i);

  auto r = l1.load(0x1000, 0b0011, out.data());
  CHECK(r.kind == K::Miss);
  CHECK(r.fetch_sectors == 0b0011);
  CHECK_FALSE(l1.fill(0x1000, 0b0011, mem.data()).has_value());
  r = l1.load(0x1000, 0b0011, out.data(), /*replay=*/true);
  CHECK(r.kind == K::Hit);
  CHECK(out.b[0] == 0);
  CHECK(out.b[63] == 63);
  CHECK(out.b[64] == 0xcc);

  r = l1.load(0x1000, 0b0110, out.data());
  CHECK(r.kind == K::Miss);
  CHECK(r.fetch_sectors == 0b0100); // only the sector that is not present
  r = l1.load(0x1000, 0b0001, out.data());
  CHECK(r.kind == K::Hit);

  CHECK(counter(g, "loads") == 3);
  CHECK(counter(g, "load_hits") == 1);
  CHECK(counter(g, "load_misses") == 2);
  CHECK(counter(g, "sector_misses") == 3);
  CHECK(counter(g, "fills") == 1);
}

TEST_CASE("l1 core: LRU replacement on fill", "[l1]") {
  StatGroup g;
  L1Core l1(small_spec(), g);
  Line mem, out;
  l1.fill(0x000, 0xf, mem.data());
  l1.fill(0x100, 0xf, mem.data());
  CHECK(l1.load(0x000, 1, out.data()).kind == K::Hit);      // 0x100 becomes LRU
  CHECK_FALSE(l1.fill(0x200, 0xf, mem.data()).has_value()); // clean victim
  CHECK(l1.load(0x100, 1, out.data()).kind == K::Miss);
  CHECK(l1.load(0x000, 1, out.data()).kind == K::Hit);
  CHECK(counter(g, "evictions") == 1);
}

TEST_CASE("l1 core: write-through updates only sectors already valid", "[l1]") {
  StatGroup g;
  L1Core l1(small_spec("write_through"), g);
  Line mem(0x11), out;
  l1.fill(0x000, 0b0001, mem.data());
  Store s(4, 1, 0x99);
  s.d.b[40] = 0x99, s.be.b[40] = 1; // also a byte of sector 1 (not present)
  auto r = l1.store(0x000, s.d.data(), s.be.data());
  CHECK(r.kind == K::Forward);
  REQUIRE(l1.load(0x000, 0b0001, out.data()).kind == K::Hit);
  CHECK(out.b[3] == 0x11);
  CHECK(out.b[4] == 0x99);
  // The partial write did not make sector 1 (or any byte of it) valid.
  CHECK(l1.array().find(0x000)->valid_bytes.count() == 32);
  CHECK(l1.load(0x000, 0b0010, out.data()).fetch_sectors == 0b0010);
  CHECK(counter(g, "stores") == 1);
  CHECK(counter(g, "store_hits") == 0);
  CHECK(l1.flush().empty()); // nothing is dirty in write-through

  Store full(0, 1, 0x55); // all written sectors valid: a store hit, still forwarded
  CHECK(l1.store(0x000, full.d.data(), full.be.data()).kind == K::Forward);
  CHECK(counter(g, "store_hits") == 1);
}

TEST_CASE("l1 core: no write-allocate bypasses a store miss", "[l1]") {
  StatGroup g;
  L1Core l1(small_spec("write_through", false), g);
  Store s(0, 4, 0x99);
  auto r = l1.store(0x400, s.d.data(), s.be.data());
  CHECK(r.kind == K::Forward);
  CHECK(r.fetch_sectors == 0);
  CHECK(l1.array().valid_lines() == 0);
  Line out;
  CHECK(l1.load(0x400, 0b0001, out.data()).kind == K::Miss);
}

TEST_CASE("l1 core: write-allocate fetches on write, then writes on the replay", "[l1]") {
  StatGroup g;
  L1Core l1(small_spec("write_through", true), g);
  Store s(36, 4, 0x99);
  auto r = l1.store(0x400, s.d.data(), s.be.data());
  CHECK(r.kind == K::Miss);
  CHECK(r.fetch_sectors == 0b0010);
  Line mem(0x11), out;
  l1.fill(0x400, r.fetch_sectors, mem.data());
  r = l1.store(0x400, s.d.data(), s.be.data(), true);
  CHECK(r.kind == K::Forward);
  REQUIRE(l1.load(0x400, 0b0010, out.data()).kind == K::Hit);
  CHECK(out.b[35] == 0x11);
  CHECK(out.b[36] == 0x99);
  CHECK(counter(g, "stores") == 1);
  CHECK(counter(g, "store_hits") == 0); // the replay completes the miss
}

TEST_CASE("l1 core: write-back keeps dirty data, flushes and writes back victims", "[l1]") {
  StatGroup g;
  L1Core l1(small_spec("write_back", false), g);
  Line mem(0x11), out;
  l1.fill(0x000, 0xf, mem.data());
  Store s(8, 2, 0x77);
  CHECK(l1.store(0x000, s.d.data(), s.be.data()).kind == K::Hit);
  REQUIRE(l1.load(0x000, 1, out.data()).kind == K::Hit);
  CHECK(out.b[8] == 0x77);
  CHECK_THROWS_AS(l1.invalidate_all(), std::logic_error);

  // A refill of the present line must not overwrite the dirty bytes.
  l1.fill(0x000, 0xf, mem.data());
  auto wbs = l1.flush();
  REQUIRE(wbs.size() == 1);
  CHECK(wbs[0].line == 0x000);
  CHECK(wbs[0].dirty.count() == 2);
  CHECK(wbs[0].dirty.all(8, 2));
  CHECK(wbs[0].data[8] == 0x77);
  CHECK(l1.flush().empty());

  // No write-allocate: a miss is forwarded and allocates nothing.
  CHECK(l1.store(0x100, s.d.data(), s.be.data()).kind == K::Forward);
  // Dirty victim on a fill: 0x000 (dirty again) is evicted by 0x100, 0x200.
  CHECK(l1.store(0x000, s.d.data(), s.be.data()).kind == K::Hit);
  CHECK_FALSE(l1.fill(0x100, 0xf, mem.data()).has_value());
  CHECK(l1.load(0x100, 1, out.data()).kind == K::Hit); // 0x000 becomes LRU
  auto wb = l1.fill(0x200, 0xf, mem.data());
  REQUIRE(wb.has_value());
  CHECK(wb->line == 0x000);
  CHECK(wb->dirty.count() == 2);
  CHECK(wb->data[9] == 0x77);
  CHECK(counter(g, "writebacks") == 2);
  l1.invalidate_all(); // nothing dirty left
}

TEST_CASE("l1 core: write-back with write-allocate fetches on a store miss", "[l1]") {
  StatGroup g;
  L1Core l1(small_spec("write_back", true), g);
  Store s(0, 1, 0x77);
  auto r = l1.store(0x000, s.d.data(), s.be.data());
  CHECK(r.kind == K::Miss);
  CHECK(r.fetch_sectors == 0b0001);
  Line mem(0x11);
  l1.fill(0x000, 1, mem.data());
  CHECK(l1.store(0x000, s.d.data(), s.be.data(), true).kind == K::Hit);
  CHECK(l1.flush().size() == 1);
}

TEST_CASE("l1 core: an atomic drops the copy of its sectors", "[l1]") {
  StatGroup g;
  L1Core l1(small_spec(), g);
  Line mem, out;
  l1.fill(0x000, 0b0011, mem.data());
  CHECK_FALSE(l1.atomic(0x000, 0b0001).has_value());
  CHECK(l1.load(0x000, 0b0001, out.data()).kind == K::Miss);
  CHECK(l1.load(0x000, 0b0010, out.data()).kind == K::Hit);
  CHECK(counter(g, "atomics_invalidated") == 1);
  l1.atomic(0x000, 0b0010); // last valid sector: the way is freed
  CHECK(l1.array().valid_lines() == 0);
  l1.atomic(0x800, 0b0001); // absent line: nothing to drop
  CHECK(counter(g, "atomics_invalidated") == 2);

  // Write-back: the dropped sectors' dirty bytes must go down first.
  StatGroup g2;
  L1Core wb(small_spec("write_back"), g2);
  wb.fill(0x000, 0b0011, mem.data());
  Store s(33, 1, 0x5a);
  CHECK(wb.store(0x000, s.d.data(), s.be.data()).kind == K::Hit);
  auto w = wb.atomic(0x000, 0b0010);
  REQUIRE(w.has_value());
  CHECK(w->dirty.count() == 1);
  CHECK(w->data[33] == 0x5a);
  CHECK(wb.flush().empty());
}

TEST_CASE("l1 core: invalidate_all drops every line", "[l1]") {
  StatGroup g;
  L1Core l1(small_spec(), g);
  Line mem, out;
  l1.fill(0x000, 0xf, mem.data());
  l1.fill(0x080, 0xf, mem.data());
  l1.invalidate_all();
  CHECK(l1.load(0x000, 1, out.data()).kind == K::Miss);
  CHECK(l1.load(0x080, 1, out.data()).kind == K::Miss);
  CHECK(l1.array().valid_lines() == 0);
  CHECK(counter(g, "invalidations") == 1);
}

TEST_CASE("l1 core: a disabled L1 misses, ignores fills and forwards stores", "[l1]") {
  StatGroup g;
  auto spec = small_spec();
  spec.bytes = 0;
  spec.sets = 0;
  L1Core l1(spec, g);
  CHECK_FALSE(l1.enabled());
  Line mem, out;
  CHECK(l1.load(0x000, 0b0101, out.data()).fetch_sectors == 0b0101);
  CHECK_FALSE(l1.fill(0x000, 0xf, mem.data()).has_value());
  CHECK(l1.load(0x000, 1, out.data()).kind == K::Miss);
  Store s(0, 4, 1);
  CHECK(l1.store(0x000, s.d.data(), s.be.data()).kind == K::Forward);
  CHECK(counter(g, "fills") == 0);
  l1.invalidate_all();

  StatGroup g2;
  auto underived = small_spec();
  underived.sets = 0;
  CHECK_THROWS_AS(L1Core(underived, g2), ConfigError);
}
