// ZeroedArray: zero on both allocation paths (calloc below kMapBytes, a
// mapping of its own above), writable everywhere, and moved without a copy.
#include "tlmgpu/zeroed_array.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <utility>

using tlmgpu::ZeroedArray;

namespace {

struct Plain {
  uint64_t a;
  uint8_t b[40];
};

template <class T>
bool all_zero(const ZeroedArray<T>& z) {
  const auto* p = reinterpret_cast<const uint8_t*>(z.data());
  return std::all_of(p, p + z.size() * sizeof(T), [](uint8_t c) { return c == 0; });
}

} // namespace

TEST_CASE("ZeroedArray starts zero and is writable on both allocation paths", "[zeroed_array]") {
  constexpr size_t map = ZeroedArray<uint8_t>::kMapBytes;
  for (size_t n : {size_t{1}, size_t{100}, map - 1, map, 3 * map + 17}) {
    ZeroedArray<uint8_t> z(n);
    REQUIRE(z.size() == n);
    REQUIRE(all_zero(z));
    z[0] = 1;
    z[n - 1] = 2;
    CHECK(z[n - 1] == 2);
    CHECK(z[0] == (n == 1 ? 2 : 1));
  }
  ZeroedArray<Plain> s(5000); // 240 KB: mapped
  REQUIRE(all_zero(s));
  s[4999].b[39] = 7;
  CHECK(s[4999].b[39] == 7);
}

TEST_CASE("ZeroedArray moves its storage and frees it once", "[zeroed_array]") {
  ZeroedArray<uint32_t> a(1 << 20);
  a[123] = 42;
  const uint32_t* p = a.data();
  ZeroedArray<uint32_t> b(std::move(a));
  CHECK(b.data() == p);
  CHECK(b[123] == 42);
  ZeroedArray<uint32_t> c;
  c = std::move(b);
  CHECK(c[123] == 42);
  CHECK(ZeroedArray<uint32_t>(0).size() == 0);
}
