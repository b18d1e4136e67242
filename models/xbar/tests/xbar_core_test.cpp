// XbarCore's link bookings (models/xbar/README.md). Defaults: 40 B flits,
// 8 B header, latency 8, one flit per cycle.
#include "models/xbar/xbar_core.hpp"

#include <catch2/catch.hpp>

using namespace tlmgpu;

namespace {
XbarSpec spec() {
  auto s = defaults<XbarSpec>();
  s.derive();
  return s;
}
} // namespace

TEST_CASE("xbar: a packet crosses in its serialization plus the latency", "[xbar]") {
  XbarCore x(spec(), 2, 2, 32);
  // a 128 B line and a header: 4 flits
  CHECK(x.flits(128) == 4);
  CHECK(x.traverse_request(0, 0, 4, 100) == 100 + 4 + 8);
}

// AT moves a whole burst from an input into the switch at once (serve_input),
// so its packets are booked far ahead on their input link. Each claims its
// output only from when its head leaves the input: a packet of another input
// offered in the meantime goes first instead of queueing behind the burst.
// (An L1's kernel-end flush spreads over every slice, so each output carries
// one burst packet in four here.)
TEST_CASE("xbar: a burst booked ahead does not hold up another input's packet", "[xbar]") {
  for (const Booking b : {Booking::CallOrder, Booking::TimeOrder}) {
    INFO("booking " << (b == Booking::CallOrder ? "call order" : "time order"));
    XbarCore x(spec(), 2, 4, 32, b);
    Cycle last = 0;
    for (unsigned k = 0; k < 400; ++k) // input 0: 400 one-flit packets offered at 0
      last = x.traverse_request(0, k % 4, 1, 0);
    CHECK(last == 399 + 1 + 8); // serialized on input 0's link
    // Input 1 offers a packet to output 0 at 10: it goes in the next gap
    // between the burst's packets there, not after the burst (at 400).
    const Cycle other = x.traverse_request(1, 0, 1, 10);
    CHECK(other <= 10 + 4 + 1 + 8);
  }
}
