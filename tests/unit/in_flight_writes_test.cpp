// InFlightWrites: the bytes of write-backs on their way down, laid over a
// blocking fill of the same line until the last of them landed.
#include "tlmgpu/in_flight_writes.hpp"

#include <catch2/catch.hpp>

#include <array>

using namespace tlmgpu;

namespace {
Writeback wb_of(Addr line, unsigned byte, uint8_t value) {
  Writeback wb;
  wb.line = line;
  wb.data[byte] = value;
  wb.dirty.set(byte);
  return wb;
}
} // namespace

TEST_CASE("a fill sees the bytes of write-backs still in flight, newest last", "[in_flight]") {
  InFlightWrites w;
  std::array<uint8_t, kMaxLineBytes> fill{};
  fill.fill(7);
  CHECK(w.overlay(0x1000, fill.data()) == 0);
  w.sent(wb_of(0x1000, 4, 1));
  w.sent(wb_of(0x1000, 4, 2)); // a newer write of the same byte
  w.sent(wb_of(0x1000, 5, 3));
  CHECK(w.holds(0x1000));
  CHECK_FALSE(w.holds(0x2000));
  CHECK(w.overlay(0x1000, fill.data()) == 2);
  CHECK(fill[4] == 2);
  CHECK(fill[5] == 3);
  CHECK(fill[6] == 7); // not written: DRAM's byte
  CHECK(w.overlay(0x2000, fill.data()) == 0);
}

TEST_CASE("the bytes stay until the last write of the line landed", "[in_flight]") {
  InFlightWrites w;
  w.sent(wb_of(0x1000, 0, 1));
  w.sent(wb_of(0x1000, 0, 2));
  w.landed(0x1000); // the older one: the newer is still on its way
  std::array<uint8_t, kMaxLineBytes> fill{};
  CHECK(w.overlay(0x1000, fill.data()) == 1);
  CHECK(fill[0] == 2);
  w.landed(0x1000);
  CHECK_FALSE(w.holds(0x1000));
  w.landed(0x3000); // an unknown line: nothing happens
  CHECK_FALSE(w.holds(0x3000));
}
