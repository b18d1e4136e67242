#include "models/sm/atomic_profile.hpp"

#include <catch2/catch.hpp>

using namespace tlmgpu;

static WarpInstr red_at(std::initializer_list<Addr> addrs) {
  WarpInstr in;
  in.kind = WarpInstr::Kind::Red;
  in.op = AtomicOp::Add;
  unsigned l = 0;
  for (Addr a : addrs) {
    in.addr[l] = a;
    in.mask = in.mask | Mask::lane(l);
    ++l;
  }
  return in;
}

static double value(const StatGroup& g, const std::string& path) {
  const Stat* s = g.find(path);
  REQUIRE(s);
  return dynamic_cast<const Counter&>(*s).value();
}

TEST_CASE("atomic profile: collisions, unique words and lines", "[sm]") {
  StatGroup root;
  AtomicProfile p(root, 128);
  p.record(red_at({0, 0, 4, 128})); // lanes 0 and 1 share word 0
  CHECK(value(root, "atomics.warp_collisions") == 2);
  CHECK(value(root, "atomics.unique_words") == 3);
  CHECK(value(root, "atomics.unique_lines") == 2);
  CHECK(value(root, "atomics.op_add") == 1);
}

TEST_CASE("atomic profile: reuse distance is the LRU stack distance in lines", "[sm]") {
  StatGroup root;
  AtomicProfile p(root, 128);
  // Lines A B C A: A's reuse sees 2 distinct lines in between (bucket 1: [1,3)).
  for (Addr a : {0u, 128u, 256u, 0u})
    p.record(red_at({a}));
  const auto& h = dynamic_cast<const Histogram&>(*root.find("atomics.reuse_distance_log2"));
  CHECK(h.bucket(1) == 1);
  // A again right away: distance 0 (bucket 0).
  p.record(red_at({0}));
  CHECK(h.bucket(0) == 1);
  // Many lines in between, across a renumbering of the time slots.
  for (Addr a = 1000 * 128; a < 3000 * 128; a += 128)
    p.record(red_at({a}));
  p.record(red_at({0}));
  CHECK(h.bucket(10) == 1); // 2000 lines in between: bucket 10 holds [1023, 2047)
  CHECK(value(root, "atomics.line_reuses") == 3);
  p.end_kernel();
  CHECK(p.unique_lines() == 0);
}
