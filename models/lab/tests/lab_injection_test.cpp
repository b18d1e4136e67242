// The SM's AT LAB injection bookkeeping (models/lab/lab_injection.hpp) and the
// LAB core's probe that tells the SM whether a request would send a packet.
#include "models/lab/lab_injection.hpp"
#include "models/lab/tests/lab_test_util.hpp"

#include <catch2/catch.hpp>

using namespace tlmgpu;
using namespace labtest;

TEST_CASE("lab injection: bounded queue, flushes may overfill it", "[lab][sm]") {
  LabInjection<int> q(2);
  int p[4] = {};
  CHECK_FALSE(q.full());
  q.push(&p[0]);
  q.push(&p[1]);
  CHECK(q.full());
  q.push(&p[2]); // a flush's third line: queued, never refused
  CHECK(q.queued() == 3);
  CHECK(q.front() == &p[0]);
  q.pop_sent();
  CHECK(q.front() == &p[1]);
  CHECK(q.full()); // still 2 queued
  CHECK(q.unacked() == 3);
  CHECK_THROWS(LabInjection<int>(0));
}

TEST_CASE("lab injection: a mark covers exactly the packets queued before it", "[lab][sm]") {
  LabInjection<int> q(8);
  int p[4] = {};
  CHECK(q.settled());
  CHECK(q.acked_before(q.mark()));
  q.push(&p[0]);
  q.push(&p[1]);
  const uint64_t fence = q.mark(); // an ordering point after two packets
  q.push(&p[2]);                   // another warp's eviction while the fence waits
  for (int i = 0; i < 3; ++i)
    q.pop_sent();
  CHECK_FALSE(q.acked_before(fence));
  CHECK_FALSE(q.ack(&p[3])); // not one of its packets (a warp's own request)
  CHECK(q.ack(&p[1]));       // replies come back out of order
  CHECK_FALSE(q.acked_before(fence));
  CHECK(q.ack(&p[2]));
  CHECK_FALSE(q.acked_before(fence)); // p[0] is still out
  CHECK(q.ack(&p[0]));
  CHECK(q.acked_before(fence));
  CHECK(q.settled());
  CHECK_FALSE(q.ack(&p[0])); // acked once only
}

TEST_CASE("lab injection: a later packet does not hold back an earlier mark", "[lab][sm]") {
  LabInjection<int> q(8);
  int p[2] = {};
  q.push(&p[0]);
  const uint64_t fence = q.mark();
  q.push(&p[1]);
  q.pop_sent();
  q.pop_sent();
  CHECK(q.ack(&p[0]));
  CHECK(q.acked_before(fence)); // p[1] came after the fence
  CHECK_FALSE(q.settled());
}

TEST_CASE("lab injection: the request FIFO keeps order while reusing its storage", "[lab][sm]") {
  RecycledFifo<int> f;
  CHECK(f.empty());
  int next_in = 0, next_out = 0;
  for (int round = 0; round < 50; ++round) {
    for (int i = 0; i < 7 + round % 5; ++i)
      f.push_back(next_in++);
    for (int i = 0; i < 5 + round % 3 && !f.empty(); ++i) {
      CHECK(f.front() == next_out++);
      f.pop_front();
    }
  }
  CHECK(f.size() == size_t(next_in - next_out));
  while (!f.empty()) {
    CHECK(f.front() == next_out++);
    f.pop_front();
  }
  CHECK(next_out == next_in);
}

TEST_CASE("lab: sends_on_access predicts exactly when access sends packets", "[lab][sm]") {
  const LabSpec geometries[] = {spec(4, 2), spec(8, 0), inf_spec(),
                                spec(8, 8, "strict", "serialization_only")};
  for (const LabSpec& s : geometries) {
    StatGroup g;
    LabCore lab(s, g);
    // Lines in a few sets, ops alternating so hits, mismatches and LRU
    // victims all occur.
    for (unsigned i = 0; i < 200; ++i) {
      const Addr line = Addr((i * 7) % 13) * 128;
      const AtomicOp op = (i / 5) % 3 == 0 ? AtomicOp::Max : AtomicOp::Add;
      const GpuAccess a = red(op, DataType::U32, {{uint16_t((i % 32) * 4), i}});
      const bool predicted = lab.sends_on_access(a, line);
      const size_t before = lab.occupancy();
      const LabOutcome out = lab.access(a, line);
      INFO("request " << i << " occupancy " << before);
      CHECK(predicted == (!out.evictions.empty() || out.forward.has_value()));
    }
  }
}
