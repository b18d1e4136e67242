// Exact results of every supported (op, type) pair, the legality table and
// the identities used for commutative merging.
#include "tlmgpu/atomic_ops.hpp"

#include <catch2/catch.hpp>

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

using namespace tlmgpu;

namespace {

// Runs one atomic on an 8-byte cell holding `init` and returns {old, new}.
// The guard bytes after a 4-byte value must survive untouched.
struct Outcome {
  uint64_t old_bits, new_bits;
};
Outcome run(AtomicOp op, DataType t, uint64_t init, uint64_t operand, uint64_t compare = 0) {
  uint8_t cell[16];
  std::memset(cell, 0xA5, sizeof cell);
  std::memcpy(cell, &init, size_of(t));
  const uint64_t old = apply_atomic(op, t, cell, operand, compare);
  uint64_t now = 0;
  std::memcpy(&now, cell, size_of(t));
  for (unsigned i = size_of(t); i < sizeof cell; ++i)
    REQUIRE(cell[i] == 0xA5);
  return {old, now};
}

uint64_t f32(float f) {
  return std::bit_cast<uint32_t>(f);
}
uint64_t f64(double d) {
  return std::bit_cast<uint64_t>(d);
}
uint64_t s32(int32_t v) {
  return static_cast<uint32_t>(v);
}
float as_f32(uint64_t b) {
  return std::bit_cast<float>(static_cast<uint32_t>(b));
}
double as_f64(uint64_t b) {
  return std::bit_cast<double>(b);
}

} // namespace

TEST_CASE("integer add and sub wrap; old value is returned", "[atomic]") {
  CHECK(run(AtomicOp::Add, DataType::U32, 5, 7).new_bits == 12);
  CHECK(run(AtomicOp::Add, DataType::U32, 5, 7).old_bits == 5);
  CHECK(run(AtomicOp::Add, DataType::U32, 0xffffffff, 2).new_bits == 1);
  CHECK(run(AtomicOp::Sub, DataType::U32, 1, 2).new_bits == 0xffffffff);
  CHECK(run(AtomicOp::Add, DataType::S32, s32(-5), s32(3)).new_bits == s32(-2));
  CHECK(run(AtomicOp::Sub, DataType::S32, s32(-5), s32(3)).new_bits == s32(-8));
  CHECK(run(AtomicOp::Add, DataType::S32, s32(INT32_MAX), 1).new_bits == s32(INT32_MIN));
  // u64 carries across the 32-bit boundary and wraps at 2^64.
  CHECK(run(AtomicOp::Add, DataType::U64, 0xffffffffull, 1).new_bits == 0x100000000ull);
  CHECK(run(AtomicOp::Add, DataType::U64, ~0ull, 3).new_bits == 2);
  CHECK(run(AtomicOp::Sub, DataType::U64, 0x100000000ull, 1).new_bits == 0xffffffffull);
  const auto big = run(AtomicOp::Add, DataType::U64, 0x123456789abcull, 0x1000000000ull);
  CHECK(big.old_bits == 0x123456789abcull);
  CHECK(big.new_bits == 0x124456789abcull);
}

TEST_CASE("4-byte operands use only their low 32 bits", "[atomic]") {
  CHECK(run(AtomicOp::Add, DataType::U32, 1, 0xdead00000002ull).new_bits == 3);
  CHECK(run(AtomicOp::Exch, DataType::S32, 0, 0xffffffff00000007ull).new_bits == 7);
}

TEST_CASE("float add and sub round in the type's precision", "[atomic]") {
  // 1 + 2^-24 is not representable in float (rounds to even -> 1) but is in double.
  const float tiny = std::ldexp(1.0f, -24);
  CHECK(as_f32(run(AtomicOp::Add, DataType::F32, f32(1.0f), f32(tiny)).new_bits) == 1.0f);
  CHECK(as_f64(run(AtomicOp::Add, DataType::F64, f64(1.0), f64(tiny)).new_bits) ==
        1.0 + std::ldexp(1.0, -24));
  // 1 + 3*2^-24 lies between 1+2^-23 and 1+2^-22; ties-to-even picks 1+2^-22.
  CHECK(as_f32(run(AtomicOp::Add, DataType::F32, f32(1.0f), f32(3 * tiny)).new_bits) ==
        1.0f + std::ldexp(1.0f, -22));
  CHECK(as_f32(run(AtomicOp::Add, DataType::F32, f32(1.5f), f32(2.25f)).new_bits) == 3.75f);
  CHECK(as_f32(run(AtomicOp::Sub, DataType::F32, f32(1.5f), f32(2.25f)).new_bits) == -0.75f);
  CHECK(as_f64(run(AtomicOp::Sub, DataType::F64, f64(0.1), f64(0.3)).new_bits) == 0.1 - 0.3);
  CHECK(run(AtomicOp::Add, DataType::F32, f32(2.0f), f32(1.0f)).old_bits == f32(2.0f));
  // A double is not computed as float: 2^60 + 1 is lost, 2^52 + 1 is kept.
  CHECK(as_f64(run(AtomicOp::Add, DataType::F64, f64(std::ldexp(1.0, 52)), f64(1.0)).new_bits) ==
        std::ldexp(1.0, 52) + 1);
}

TEST_CASE("min and max: signed for s32, unsigned for u32/u64", "[atomic]") {
  // -1 is the smallest s32 here but the largest u32.
  CHECK(run(AtomicOp::Min, DataType::S32, s32(3), s32(-1)).new_bits == s32(-1));
  CHECK(run(AtomicOp::Min, DataType::U32, 3, s32(-1)).new_bits == 3);
  CHECK(run(AtomicOp::Max, DataType::S32, s32(3), s32(-1)).new_bits == 3);
  CHECK(run(AtomicOp::Max, DataType::U32, 3, s32(-1)).new_bits == 0xffffffff);
  CHECK(run(AtomicOp::Min, DataType::S32, s32(-7), s32(-2)).new_bits == s32(-7));
  CHECK(run(AtomicOp::Max, DataType::S32, s32(-7), s32(-2)).new_bits == s32(-2));
  // u64 above 2^32: a comparison on the low word alone would pick wrongly.
  CHECK(run(AtomicOp::Min, DataType::U64, 0x100000000ull, 0xffffffffull).new_bits == 0xffffffffull);
  CHECK(run(AtomicOp::Max, DataType::U64, 0x100000000ull, 0xffffffffull).new_bits ==
        0x100000000ull);
  CHECK(run(AtomicOp::Max, DataType::U64, 1, 1ull << 63).new_bits == 1ull << 63);
  CHECK(run(AtomicOp::Min, DataType::U32, 9, 4).old_bits == 9);
}

TEST_CASE("float min and max, with NaN and signed zeros", "[atomic]") {
  const uint64_t nan32 = f32(std::numeric_limits<float>::quiet_NaN());
  const uint64_t nan64 = f64(std::numeric_limits<double>::quiet_NaN());
  CHECK(as_f32(run(AtomicOp::Min, DataType::F32, f32(-1.5f), f32(2.0f)).new_bits) == -1.5f);
  CHECK(as_f32(run(AtomicOp::Max, DataType::F32, f32(-1.5f), f32(2.0f)).new_bits) == 2.0f);
  CHECK(as_f64(run(AtomicOp::Min, DataType::F64, f64(-1e300), f64(-1e299)).new_bits) == -1e300);
  CHECK(as_f64(run(AtomicOp::Max, DataType::F64, f64(-1e300), f64(-1e299)).new_bits) == -1e299);
  // A NaN operand leaves memory alone; a NaN in memory is replaced.
  CHECK(run(AtomicOp::Min, DataType::F32, f32(4.0f), nan32).new_bits == f32(4.0f));
  CHECK(run(AtomicOp::Max, DataType::F32, nan32, f32(4.0f)).new_bits == f32(4.0f));
  CHECK(run(AtomicOp::Min, DataType::F64, nan64, f64(-3.0)).new_bits == f64(-3.0));
  CHECK(run(AtomicOp::Max, DataType::F64, f64(-3.0), nan64).new_bits == f64(-3.0));
  // -0 < +0, whichever side each is on.
  CHECK(run(AtomicOp::Min, DataType::F32, f32(0.0f), f32(-0.0f)).new_bits == f32(-0.0f));
  CHECK(run(AtomicOp::Min, DataType::F32, f32(-0.0f), f32(0.0f)).new_bits == f32(-0.0f));
  CHECK(run(AtomicOp::Max, DataType::F64, f64(-0.0), f64(0.0)).new_bits == f64(0.0));
  CHECK(run(AtomicOp::Max, DataType::F64, f64(0.0), f64(-0.0)).new_bits == f64(0.0));
}

TEST_CASE("inc and dec follow CUDA's wrapping counters", "[atomic]") {
  CHECK(run(AtomicOp::Inc, DataType::U32, 3, 10).new_bits == 4);
  CHECK(run(AtomicOp::Inc, DataType::U32, 10, 10).new_bits == 0); // old >= operand wraps
  CHECK(run(AtomicOp::Inc, DataType::U32, 15, 10).new_bits == 0);
  CHECK(run(AtomicOp::Inc, DataType::U32, 9, 10).new_bits == 10);
  CHECK(run(AtomicOp::Inc, DataType::U32, 9, 10).old_bits == 9);
  CHECK(run(AtomicOp::Dec, DataType::U32, 3, 10).new_bits == 2);
  CHECK(run(AtomicOp::Dec, DataType::U32, 0, 10).new_bits == 10);  // zero wraps to operand
  CHECK(run(AtomicOp::Dec, DataType::U32, 11, 10).new_bits == 10); // above operand too
  CHECK(run(AtomicOp::Dec, DataType::U32, 10, 10).new_bits == 9);
  CHECK(run(AtomicOp::Dec, DataType::U32, 1, 10).new_bits == 0);
}

TEST_CASE("bitwise ops on every integer type", "[atomic]") {
  CHECK(run(AtomicOp::And, DataType::U32, 0xf0f0, 0x0ff0).new_bits == 0x00f0);
  CHECK(run(AtomicOp::Or, DataType::S32, 0xf000, 0x000f).new_bits == 0xf00f);
  CHECK(run(AtomicOp::Xor, DataType::U32, 0xff00ff00, 0xffffffff).new_bits == 0x00ff00ff);
  CHECK(run(AtomicOp::And, DataType::U64, 0xff00000000ffull, 0x0f000000000full).new_bits ==
        0x0f000000000full);
  CHECK(run(AtomicOp::Or, DataType::U64, 1ull << 40, 1).new_bits == (1ull << 40 | 1));
  CHECK(run(AtomicOp::Xor, DataType::U64, 1ull << 40 | 3, 1ull << 40 | 1).new_bits == 2);
}

TEST_CASE("exch on every type", "[atomic]") {
  CHECK(run(AtomicOp::Exch, DataType::U32, 1, 2).new_bits == 2);
  CHECK(run(AtomicOp::Exch, DataType::U32, 1, 2).old_bits == 1);
  CHECK(run(AtomicOp::Exch, DataType::S32, s32(-1), 2).old_bits == 0xffffffff); // zero-extended
  CHECK(run(AtomicOp::Exch, DataType::U64, 1ull << 50, 5).old_bits == 1ull << 50);
  CHECK(run(AtomicOp::Exch, DataType::F32, f32(1.0f), f32(-2.0f)).new_bits == f32(-2.0f));
  CHECK(run(AtomicOp::Exch, DataType::F64, f64(1.0), f64(-2.0)).new_bits == f64(-2.0));
}

TEST_CASE("cas succeeds on a bitwise match and fails otherwise", "[atomic]") {
  auto ok = run(AtomicOp::Cas, DataType::U32, 7, 9, 7);
  CHECK(ok.old_bits == 7);
  CHECK(ok.new_bits == 9);
  auto fail = run(AtomicOp::Cas, DataType::U32, 7, 9, 8);
  CHECK(fail.old_bits == 7);
  CHECK(fail.new_bits == 7);
  // Above 2^32: a low-word-only compare would wrongly succeed.
  CHECK(run(AtomicOp::Cas, DataType::U64, 0x100000001ull, 5, 1).new_bits == 0x100000001ull);
  CHECK(run(AtomicOp::Cas, DataType::U64, 0x100000001ull, 5, 0x100000001ull).new_bits == 5);
  CHECK(run(AtomicOp::Cas, DataType::S32, s32(-4), 1, s32(-4)).new_bits == 1);
  // Bitwise: -0 does not match +0, a NaN matches its own bits.
  CHECK(run(AtomicOp::Cas, DataType::F32, f32(-0.0f), f32(1.0f), f32(0.0f)).new_bits == f32(-0.0f));
  const uint64_t nan = f64(std::numeric_limits<double>::quiet_NaN());
  CHECK(run(AtomicOp::Cas, DataType::F64, nan, f64(1.0), nan).new_bits == f64(1.0));
}

TEST_CASE("legality table", "[atomic]") {
  const DataType all[] = {DataType::U32, DataType::S32, DataType::U64, DataType::F32,
                          DataType::F64};
  for (DataType t : all) {
    const bool is_int = t == DataType::U32 || t == DataType::S32 || t == DataType::U64;
    INFO(to_string(t));
    for (AtomicOp op : {AtomicOp::Add, AtomicOp::Sub, AtomicOp::Min, AtomicOp::Max, AtomicOp::Exch,
                        AtomicOp::Cas})
      CHECK(atomic_supported(op, t));
    for (AtomicOp op : {AtomicOp::And, AtomicOp::Or, AtomicOp::Xor})
      CHECK(atomic_supported(op, t) == is_int);
    CHECK(atomic_supported(AtomicOp::Inc, t) == (t == DataType::U32));
    CHECK(atomic_supported(AtomicOp::Dec, t) == (t == DataType::U32));
  }
  uint8_t cell[8] = {};
  CHECK_THROWS_AS(apply_atomic(AtomicOp::And, DataType::F32, cell, 1, 0), std::invalid_argument);
  CHECK_THROWS_AS(apply_atomic(AtomicOp::Inc, DataType::U64, cell, 1, 0), std::invalid_argument);
}

TEST_CASE("identities leave every value unchanged", "[atomic]") {
  CHECK(atomic_identity(AtomicOp::Add, DataType::U32) == 0u);
  CHECK(atomic_identity(AtomicOp::And, DataType::U32) == 0xffffffffu);
  CHECK(atomic_identity(AtomicOp::And, DataType::U64) == ~0ull);
  CHECK(atomic_identity(AtomicOp::Min, DataType::S32) == 0x7fffffffu);
  CHECK(atomic_identity(AtomicOp::Max, DataType::S32) == 0x80000000u);
  CHECK(atomic_identity(AtomicOp::Min, DataType::U64) == ~0ull);
  CHECK(atomic_identity(AtomicOp::Max, DataType::U32) == 0u);
  CHECK(atomic_identity(AtomicOp::Min, DataType::F32) ==
        f32(std::numeric_limits<float>::infinity()));
  CHECK(atomic_identity(AtomicOp::Max, DataType::F64) ==
        f64(-std::numeric_limits<double>::infinity()));
  CHECK(atomic_identity(AtomicOp::Add, DataType::F32) == f32(-0.0f));
  CHECK(atomic_identity(AtomicOp::Sub, DataType::F64) == f64(0.0));
  for (AtomicOp op : {AtomicOp::Inc, AtomicOp::Dec, AtomicOp::Exch, AtomicOp::Cas})
    CHECK_FALSE(atomic_identity(op, DataType::U32).has_value());
  CHECK_FALSE(atomic_identity(AtomicOp::Xor, DataType::F32).has_value());

  // The defining property, over awkward values of each type.
  struct Sample {
    DataType t;
    std::vector<uint64_t> values;
  };
  const std::vector<Sample> samples = {
      {DataType::U32, {0, 1, 0x7fffffff, 0x80000000, 0xffffffff}},
      {DataType::S32, {0, 1, s32(-1), s32(INT32_MIN), s32(INT32_MAX)}},
      {DataType::U64, {0, 1, 0xffffffff, 1ull << 32, ~0ull}},
      {DataType::F32,
       {f32(0.0f), f32(-0.0f), f32(1.5f), f32(-1e30f),
        f32(std::numeric_limits<float>::infinity())}},
      {DataType::F64,
       {f64(0.0), f64(-0.0), f64(1.5), f64(-1e300), f64(-std::numeric_limits<double>::infinity())}},
  };
  for (const auto& s : samples)
    for (AtomicOp op : {AtomicOp::Add, AtomicOp::Sub, AtomicOp::Min, AtomicOp::Max, AtomicOp::And,
                        AtomicOp::Or, AtomicOp::Xor}) {
      auto id = atomic_identity(op, s.t);
      if (!id) continue;
      for (uint64_t v : s.values) {
        INFO(to_string(op) << " " << to_string(s.t) << " " << v);
        CHECK(run(op, s.t, v, *id).new_bits == v);
      }
    }
}

TEST_CASE("names round-trip through to_string and parse", "[types]") {
  for (int i = 0; i <= static_cast<int>(AtomicOp::Cas); ++i) {
    auto op = static_cast<AtomicOp>(i);
    CHECK(parse_atomic_op(to_string(op)) == op);
  }
  for (int i = 0; i <= static_cast<int>(DataType::F64); ++i) {
    auto t = static_cast<DataType>(i);
    CHECK(parse_data_type(to_string(t)) == t);
  }
  for (int i = 0; i <= static_cast<int>(MemOrder::Commutative); ++i) {
    auto o = static_cast<MemOrder>(i);
    CHECK(parse_mem_order(to_string(o)) == o);
  }
  for (int i = 0; i <= static_cast<int>(Scope::System); ++i) {
    auto s = static_cast<Scope>(i);
    CHECK(parse_scope(to_string(s)) == s);
  }
  CHECK(to_string(AccessKind::Load) == "load");
  CHECK(to_string(AccessKind::Fill) == "fill");
  CHECK(to_string(AtomicOp::Exch) == "exch");
  CHECK(to_string(DataType::S32) == "s32");
  CHECK(to_string(MemOrder::AcqRel) == "acq_rel");
  CHECK(to_string(MemOrder::Commutative) == "commutative");
  CHECK(to_string(Scope::Cta) == "cta");
  CHECK_FALSE(parse_atomic_op("ADD").has_value());
  CHECK_FALSE(parse_data_type("i32").has_value());
  CHECK_FALSE(parse_scope("").has_value());
}
