// GoldenMemory (paper_compatible LAB return values): first-touch reads from
// the coherent memory, op application and old values, stores, clear.
#include "models/lab/golden_memory.hpp"

#include <catch2/catch.hpp>

#include <bit>
#include <cstring>
#include <stdexcept>
#include <vector>

using namespace tlmgpu;

namespace {

// A flat "coherent memory" from address 0 that counts the reader's calls.
struct Backing {
  std::vector<uint8_t> bytes = std::vector<uint8_t>(256);
  unsigned reads = 0;
  template <class T>
  void put(Addr a, T v) {
    std::memcpy(&bytes.at(a), &v, sizeof v);
  }
  GoldenMemory::Reader reader() {
    return [this](Addr a, uint8_t* dst, size_t n) {
      ++reads;
      std::memcpy(dst, &bytes.at(a), n);
    };
  }
};

uint64_t f32(float f) {
  return std::bit_cast<uint32_t>(f);
}
uint64_t s32(int32_t v) {
  return std::bit_cast<uint32_t>(v);
}

} // namespace

TEST_CASE("golden: the first touch reads the coherent value, later ones do not", "[lab][golden]") {
  Backing m;
  m.put<uint32_t>(16, 40);
  GoldenMemory g(m.reader());
  CHECK(g.empty());
  CHECK(g.apply(16, AtomicOp::Add, DataType::U32, 2) == 40);
  CHECK(m.reads == 1);
  m.put<uint32_t>(16, 1000); // e.g. a buffered partial reaching L2: golden already has it
  CHECK(g.apply(16, AtomicOp::Add, DataType::U32, 3) == 42);
  CHECK(g.apply(16, AtomicOp::Add, DataType::U32, 0) == 45);
  CHECK(m.reads == 1);
  uint64_t v = 0;
  REQUIRE(g.peek(16, 4, &v));
  CHECK(v == 45);
  CHECK_FALSE(g.peek(20, 4, &v)); // the other half of the block was never touched
  CHECK(g.reads() == 1);
}

TEST_CASE("golden: add/min/max old values on u32, s32, f32, u64", "[lab][golden]") {
  Backing m;
  m.put<uint32_t>(0, 10);
  m.put<int32_t>(4, -5);
  m.put<float>(8, 1.5f);
  m.put<uint64_t>(16, 1ull << 40);
  GoldenMemory g(m.reader());
  // u32
  CHECK(g.apply(0, AtomicOp::Min, DataType::U32, 20) == 10);
  CHECK(g.apply(0, AtomicOp::Min, DataType::U32, 3) == 10);
  CHECK(g.apply(0, AtomicOp::Max, DataType::U32, 7) == 3);
  CHECK(g.apply(0, AtomicOp::Add, DataType::U32, 0xffffffffu) == 7); // wraps
  CHECK(g.apply(0, AtomicOp::Add, DataType::U32, 0) == 6);
  // s32: signed comparisons
  CHECK(g.apply(4, AtomicOp::Max, DataType::S32, s32(-9)) == s32(-5));
  CHECK(g.apply(4, AtomicOp::Min, DataType::S32, s32(-9)) == s32(-5));
  CHECK(g.apply(4, AtomicOp::Add, DataType::S32, s32(4)) == s32(-9));
  CHECK(g.apply(4, AtomicOp::Add, DataType::S32, 0) == s32(-5));
  // f32
  CHECK(g.apply(8, AtomicOp::Add, DataType::F32, f32(0.25f)) == f32(1.5f));
  CHECK(g.apply(8, AtomicOp::Max, DataType::F32, f32(-3.0f)) == f32(1.75f));
  CHECK(g.apply(8, AtomicOp::Min, DataType::F32, f32(-3.0f)) == f32(1.75f));
  CHECK(g.apply(8, AtomicOp::Add, DataType::F32, 0) == f32(-3.0f));
  // u64 (8-byte word, one block)
  CHECK(g.apply(16, AtomicOp::Add, DataType::U64, 1) == (1ull << 40));
  CHECK(g.apply(16, AtomicOp::Max, DataType::U64, 5) == (1ull << 40) + 1);
  CHECK(m.reads == 4); // one per word
  CHECK_THROWS_AS(g.apply(2, AtomicOp::Add, DataType::U32, 1), std::logic_error);
}

TEST_CASE("golden: perform answers a request's lanes in lane order", "[lab][golden]") {
  Backing m;
  m.put<uint32_t>(128 + 4, 100);
  GoldenMemory g(m.reader());
  GpuAccess a;
  a.kind = AccessKind::Atomic;
  a.op = AtomicOp::Add;
  a.type = DataType::U32;
  for (unsigned i = 0; i < 3; ++i) // three lanes on one word, one on another
    a.lanes.push_back(LaneOp{4, uint8_t(i), 1, 0, 0});
  a.lanes.push_back(LaneOp{8, 3, 7, 0, 0});
  g.perform(a, 128);
  CHECK(a.lanes[0].result == 100);
  CHECK(a.lanes[1].result == 101);
  CHECK(a.lanes[2].result == 102);
  CHECK(a.lanes[3].result == 0);
  uint64_t v = 0;
  REQUIRE(g.peek(132, 4, &v));
  CHECK(v == 103);
}

TEST_CASE("golden: stores update tracked bytes only", "[lab][golden]") {
  Backing m;
  m.put<uint32_t>(0, 1);
  m.put<uint32_t>(64, 9);
  GoldenMemory g(m.reader());
  CHECK(g.apply(0, AtomicOp::Add, DataType::U32, 1) == 1);
  const uint32_t five = 5;
  g.store(0, reinterpret_cast<const uint8_t*>(&five), 4);
  CHECK(g.apply(0, AtomicOp::Add, DataType::U32, 1) == 5);
  g.store(64, reinterpret_cast<const uint8_t*>(&five),
          4); // untracked: nothing created
  CHECK(g.blocks() == 1);
  // An 8-byte store over a tracked word and an untracked neighbour.
  const uint64_t wide = 0x0000002a00000007ull;
  g.store(0, reinterpret_cast<const uint8_t*>(&wide), 8);
  CHECK(g.apply(0, AtomicOp::Add, DataType::U32, 0) == 7);
  CHECK(g.apply(4, AtomicOp::Add, DataType::U32, 0) == 0); // read from memory, not the store
  CHECK(m.reads == 2);
}

TEST_CASE("golden: clear forgets every word, the next touch reads memory again", "[lab][golden]") {
  Backing m;
  m.put<uint32_t>(32, 3);
  GoldenMemory g(m.reader());
  CHECK(g.apply(32, AtomicOp::Add, DataType::U32, 10) == 3);
  m.put<uint32_t>(32, 77); // the flushed result plus what the host wrote between kernels
  g.clear();
  CHECK(g.empty());
  CHECK(g.apply(32, AtomicOp::Add, DataType::U32, 1) == 77);
  CHECK(m.reads == 2);
}
