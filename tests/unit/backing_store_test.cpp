#include "tlmgpu/backing_store.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <vector>

using tlmgpu::Addr;
using tlmgpu::BackingStore;

namespace {
constexpr size_t kPage = BackingStore::kPageBytes;

std::vector<uint8_t> read_vec(const BackingStore& m, Addr a, size_t n) {
  std::vector<uint8_t> v(n, 0xaa); // poison: a read must overwrite every byte
  m.read(a, v.data(), n);
  return v;
}

std::vector<uint8_t> pattern(size_t n, uint8_t seed) {
  std::vector<uint8_t> v(n);
  for (size_t i = 0; i < n; ++i)
    v[i] = static_cast<uint8_t>(seed + i * 7 + 1);
  return v;
}
} // namespace

TEST_CASE("backing store: unwritten memory reads as zero without allocating", "[backing_store]") {
  BackingStore m;
  CHECK(read_vec(m, 0, 64) == std::vector<uint8_t>(64, 0));
  CHECK(read_vec(m, 3 * kPage - 5, 20) == std::vector<uint8_t>(20, 0));
  CHECK(m.pages() == 0);
  CHECK(m.bytes_allocated() == 0);

  // A written page next to an unwritten one: the zero half must still be zero
  // and still not allocated.
  auto p = pattern(16, 1);
  m.write(kPage - 16, p.data(), p.size());
  auto v = read_vec(m, kPage - 16, 32);
  CHECK(std::equal(p.begin(), p.end(), v.begin()));
  CHECK(std::all_of(v.begin() + 16, v.end(), [](uint8_t b) { return b == 0; }));
  CHECK(m.pages() == 1);
}

TEST_CASE("backing store: round trips within and across pages", "[backing_store]") {
  BackingStore m;
  SECTION("inside one page") {
    auto p = pattern(128, 3);
    m.write(0x1080, p.data(), p.size());
    CHECK(read_vec(m, 0x1080, 128) == p);
    CHECK(m.pages() == 1);
    CHECK(m.bytes_allocated() == kPage);
  }
  SECTION("straddling one boundary") {
    auto p = pattern(100, 5);
    m.write(2 * kPage - 37, p.data(), p.size());
    CHECK(read_vec(m, 2 * kPage - 37, 100) == p);
    CHECK(m.pages() == 2);
    // Reads at offsets that split the data differently from the write.
    auto tail = read_vec(m, 2 * kPage, 63);
    CHECK(std::equal(tail.begin(), tail.end(), p.begin() + 37));
  }
  SECTION("spanning several whole pages") {
    auto p = pattern(3 * kPage + 10, 9);
    m.write(kPage - 5, p.data(), p.size());
    CHECK(read_vec(m, kPage - 5, p.size()) == p);
    CHECK(m.pages() == 5);
  }
  SECTION("overwrites and interleaved pages defeat the lookup cache") {
    auto a = pattern(8, 10), b = pattern(8, 20), c = pattern(8, 30);
    m.write(0, a.data(), 8);
    m.write(10 * kPage, b.data(), 8);
    m.write(0, c.data(), 8); // back to the first page after the cache moved
    CHECK(read_vec(m, 10 * kPage, 8) == b);
    CHECK(read_vec(m, 0, 8) == c);
    CHECK(read_vec(m, 10 * kPage, 8) == b);
    CHECK(m.pages() == 2);
  }
}

TEST_CASE("backing store: masked writes touch only enabled bytes", "[backing_store]") {
  BackingStore m;
  auto base = pattern(64, 40);
  m.write(kPage - 32, base.data(), base.size()); // 32 bytes on each side of a boundary

  std::vector<uint8_t> src(64, 0xee), be(64, 0);
  for (size_t i = 0; i < 64; i += 3)
    be[i] = 0xff;
  m.write_masked(kPage - 32, src.data(), be.data(), 64);

  auto v = read_vec(m, kPage - 32, 64);
  for (size_t i = 0; i < 64; ++i) {
    INFO("byte " << i);
    CHECK(v[i] == (be[i] ? 0xee : base[i]));
  }
}

TEST_CASE("backing store: all-disabled masks do not allocate", "[backing_store]") {
  BackingStore m;
  std::vector<uint8_t> src(2 * kPage, 0x11), be(2 * kPage, 0);
  m.write_masked(0, src.data(), be.data(), src.size());
  CHECK(m.pages() == 0);

  be[kPage + 1] = 0xff; // one byte on the second page only
  m.write_masked(0, src.data(), be.data(), src.size());
  CHECK(m.pages() == 1);
  auto v = read_vec(m, kPage, 4);
  CHECK(v == std::vector<uint8_t>{0, 0x11, 0, 0});
}

TEST_CASE("backing store: large sparse addresses allocate one page", "[backing_store]") {
  BackingStore m;
  const Addr tib = Addr{1} << 40;
  auto p = pattern(256, 77);
  m.write(tib + 0x1234, p.data(), p.size());
  CHECK(m.pages() == 1);
  CHECK(m.bytes_allocated() == kPage);
  CHECK(read_vec(m, tib + 0x1234, 256) == p);
  // Same page offset far away must be a different page.
  CHECK(read_vec(m, 0x1234, 256) == std::vector<uint8_t>(256, 0));
  CHECK(read_vec(m, 2 * tib + 0x1234, 256) == std::vector<uint8_t>(256, 0));
  // The highest page of the address space is usable too.
  const Addr top = ~Addr{0} - 7;
  m.write(top, p.data(), 8);
  CHECK(read_vec(m, top, 8) == std::vector<uint8_t>(p.begin(), p.begin() + 8));
  CHECK(m.pages() == 2);
}
