// Bank conflicts, broadcast, data round trips, atomic serialisation and
// bounds checks of the shared-memory core (32 banks of 4 bytes).
#include "models/shared_mem/shared_mem_core.hpp"

#include "tlmgpu/params.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cstring>

using namespace tlmgpu;

namespace {

SharedMemSpec small_spec() {
  SharedMemSpec s = defaults<SharedMemSpec>();
  s.bytes = 16384;
  s.banks = 32;
  s.bank_bytes = 4;
  s.latency = 20;
  return s;
}

using Lanes = std::array<SmemLane, 32>;

// Lane i accesses offset(i) with `size` bytes.
template <class F>
Lanes warp(F offset, uint8_t size = 4) {
  Lanes l{};
  for (unsigned i = 0; i < 32; ++i)
    l[i] = {true, static_cast<uint32_t>(offset(i)), size};
  return l;
}

} // namespace

TEST_CASE("consecutive words are conflict-free", "[shared_mem]") {
  SharedMemCore smem(small_spec());
  const Lanes l = warp([](unsigned i) { return 4 * i; });
  CHECK(smem.conflict_degree(l) == 1);
  std::array<uint64_t, 32> v{};
  CHECK(smem.load(l, v) == 20);
  CHECK(smem.conflict_cycles() == 0);
  CHECK(smem.conflicted_accesses() == 0);
  // A permutation of banks, shifted by a whole row of banks, is conflict-free too.
  CHECK(smem.conflict_degree(warp([](unsigned i) { return 128 + 4 * ((i * 7) % 32); })) == 1);
}

TEST_CASE("lanes reading one word share it (broadcast)", "[shared_mem]") {
  SharedMemCore smem(small_spec());
  CHECK(smem.conflict_degree(warp([](unsigned) { return 64; })) == 1);
  // Half the lanes on word 0, half on word 1: two banks, no conflict.
  CHECK(smem.conflict_degree(warp([](unsigned i) { return 4 * (i % 2); })) == 1);
}

TEST_CASE("stride-2 words give a 2-way conflict", "[shared_mem]") {
  SharedMemCore smem(small_spec());
  const Lanes l = warp([](unsigned i) { return 8 * i; });
  CHECK(smem.conflict_degree(l) == 2);
  std::array<uint64_t, 32> v{};
  CHECK(smem.store(l, v) == 21);
  CHECK(smem.conflict_cycles() == 1);
  CHECK(smem.conflicted_accesses() == 1);
  // Two distinct words in one bank, the rest idle: still 2-way.
  Lanes two{};
  two[0] = {true, 0, 4};
  two[5] = {true, 128, 4};
  CHECK(smem.conflict_degree(two) == 2);
}

TEST_CASE("stride-32 words give a 32-way conflict", "[shared_mem]") {
  SharedMemCore smem(small_spec());
  const Lanes l = warp([](unsigned i) { return 128 * i; });
  CHECK(smem.conflict_degree(l) == 32);
  std::array<uint64_t, 32> v{};
  CHECK(smem.load(l, v) == 20 + 31);
  CHECK(smem.conflict_cycles() == 31);
}

TEST_CASE("64-bit lanes span two banks: a coalesced warp takes two passes", "[shared_mem]") {
  SharedMemCore smem(small_spec());
  CHECK(smem.conflict_degree(warp([](unsigned i) { return 8 * i; }, 8)) == 2);
  Lanes half{};
  for (unsigned i = 0; i < 16; ++i)
    half[i] = {true, 8 * i, 8};
  CHECK(smem.conflict_degree(half) == 1);
  // The upper half of an 8-byte lane occupies the next bank: words 0,1 vs word 33 (bank 1).
  Lanes mixed{};
  mixed[0] = {true, 0, 8};
  mixed[1] = {true, 132, 4};
  CHECK(smem.conflict_degree(mixed) == 2);
}

TEST_CASE("no active lane costs the bare latency", "[shared_mem]") {
  SharedMemCore smem(small_spec());
  Lanes none{};
  std::array<uint64_t, 32> v{};
  CHECK(smem.conflict_degree(none) == 0);
  CHECK(smem.load(none, v) == 20);
  CHECK(smem.conflict_cycles() == 0);
}

TEST_CASE("stores and loads round-trip 4- and 8-byte values", "[shared_mem]") {
  SharedMemCore smem(small_spec());
  const Lanes w32 = warp([](unsigned i) { return 4 * ((i * 5) % 32); });
  std::array<uint64_t, 32> in{}, out{};
  for (unsigned i = 0; i < 32; ++i)
    in[i] = 0xA0000000u + i;
  smem.store(w32, in);
  smem.load(w32, out);
  CHECK(out == in);

  const Lanes w64 = warp([](unsigned i) { return 1024 + 8 * (31 - i); }, 8);
  for (unsigned i = 0; i < 32; ++i)
    in[i] = (uint64_t{i} << 40) | 0x12345678u;
  smem.store(w64, in);
  out.fill(0);
  smem.load(w64, out);
  CHECK(out == in);
  // Little-endian layout: lane 31's value starts at 1024.
  uint64_t raw = 0;
  std::memcpy(&raw, smem.data().data() + 1024, 8);
  CHECK(raw == in[31]);

  // Inactive lanes neither write nor read.
  Lanes some = w32;
  for (unsigned i = 1; i < 32; i += 2)
    some[i].active = false;
  std::array<uint64_t, 32> zeros{}, back{};
  back.fill(7);
  smem.store(some, zeros);
  smem.load(w32, out);
  for (unsigned i = 0; i < 32; ++i)
    CHECK(out[i] == (i % 2 ? 0xA0000000u + i : 0u));
  smem.load(some, back);
  for (unsigned i = 1; i < 32; i += 2)
    CHECK(back[i] == 7);
  CHECK(smem.loads() == 4);
  CHECK(smem.stores() == 3);
}

TEST_CASE("same-address atomic lanes serialise in lane order", "[shared_mem]") {
  SharedMemCore smem(small_spec());
  // Lanes 0..15 add (i+1) to word 0; lanes 16..31 add to their own words.
  Lanes l{};
  std::array<uint64_t, 32> operand{}, old{};
  for (unsigned i = 0; i < 32; ++i) {
    l[i] = {true, i < 16 ? 0u : 4 * i, 4};
    operand[i] = i + 1;
  }
  CHECK(smem.atomic_rounds(l) == 16);
  CHECK(smem.conflict_degree(l) == 1); // a load of the same pattern would broadcast
  const Cycle c = smem.atomic(l, AtomicOp::Add, DataType::U32, operand, {}, old);
  CHECK(c == 20 + 15);
  uint64_t running = 0;
  for (unsigned i = 0; i < 16; ++i) {
    CHECK(old[i] == running); // each lane sees the previous lanes' sum
    running += i + 1;
  }
  uint32_t word0 = 0;
  std::memcpy(&word0, smem.data().data(), 4);
  CHECK(word0 == 136); // 1 + 2 + ... + 16
  for (unsigned i = 16; i < 32; ++i)
    CHECK(old[i] == 0);
  CHECK(smem.atomics() == 1);
  CHECK(smem.conflict_cycles() == 15);
}

TEST_CASE("atomic CAS chain: only the first matching lane wins", "[shared_mem]") {
  SharedMemCore smem(small_spec());
  Lanes l = warp([](unsigned) { return 256; });
  std::array<uint64_t, 32> operand{}, compare{}, old{};
  for (unsigned i = 0; i < 32; ++i) {
    operand[i] = 100 + i;
    compare[i] = 0; // every lane expects the initial 0
  }
  compare[3] = 100; // lane 3 expects lane 0's value
  CHECK(smem.atomic(l, AtomicOp::Cas, DataType::U32, operand, compare, old) == 20 + 31);
  CHECK(old[0] == 0);
  CHECK(old[1] == 100);
  CHECK(old[2] == 100);
  CHECK(old[3] == 100); // lane 3 succeeds -> 103
  CHECK(old[4] == 103);
  uint32_t word = 0;
  std::memcpy(&word, smem.data().data() + 256, 4);
  CHECK(word == 103);
}

TEST_CASE("atomics on distinct banks cost the bare latency", "[shared_mem]") {
  SharedMemCore smem(small_spec());
  const Lanes l = warp([](unsigned i) { return 4 * i; });
  std::array<uint64_t, 32> operand{}, old{};
  operand.fill(1);
  CHECK(smem.atomic(l, AtomicOp::Inc, DataType::U32, operand, {}, old) == 20);
  CHECK_THROWS_AS(smem.atomic(l, AtomicOp::Xor, DataType::F32, operand, {}, old),
                  std::invalid_argument);
  CHECK_THROWS_AS(smem.atomic(l, AtomicOp::Add, DataType::U64, operand, {}, old),
                  std::invalid_argument); // 4-byte lanes, 8-byte type
}

TEST_CASE("out-of-bounds accesses throw before touching memory", "[shared_mem]") {
  SharedMemCore smem(small_spec());
  std::array<uint64_t, 32> v{};
  v.fill(0xff);
  Lanes l = warp([](unsigned i) { return 4 * i; });
  l[31].offset = 16384; // one past the end
  try {
    smem.store(l, v);
    FAIL("no exception");
  } catch (const SharedMemOutOfRange& e) {
    CHECK(e.offset() == 16384);
    CHECK(e.lane() == 31);
    CHECK_THAT(e.what(), Catch::Matchers::Contains("16384"));
  }
  const auto bytes = smem.data(); // lanes 0..30 must not have been written
  CHECK(std::all_of(bytes.begin(), bytes.end(), [](uint8_t b) { return b == 0; }));
  Lanes straddle{};
  straddle[0] = {true, 16376, 8}; // last 8 bytes: fine
  CHECK_NOTHROW(smem.load(straddle, v));
  straddle[0] = {true, 16384 - 4, 8}; // misaligned and past the end
  CHECK_THROWS_AS(smem.load(straddle, v), std::out_of_range);
  CHECK_THROWS_AS(smem.atomic(l, AtomicOp::Add, DataType::U32, v, {}, v), std::out_of_range);
  CHECK_THROWS_AS(smem.conflict_degree(l), std::out_of_range);
  Lanes bad_size{};
  bad_size[0] = {true, 0, 2};
  CHECK_THROWS_AS(smem.load(bad_size, v), std::invalid_argument);
}
