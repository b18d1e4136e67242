#include "tlmgpu/atomic_ops.hpp"

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>

namespace tlmgpu {
namespace {

// memcpy rather than a cast: `p` has no alignment or aliasing guarantee.
template <class T>
T load_le(const uint8_t* p) {
  static_assert(std::endian::native == std::endian::little, "host must be little-endian");
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
template <class T>
void store_le(uint8_t* p, T v) {
  std::memcpy(p, &v, sizeof v);
}

bool is_integer(DataType t) {
  return t == DataType::U32 || t == DataType::S32 || t == DataType::U64;
}

// IEEE 754-2019 minimumNumber/maximumNumber. std::fmin leaves the sign of a
// zero result unspecified; a model must be deterministic, so spell it out.
template <class F>
F min_number(F a, F b) {
  if (std::isnan(b)) return a; // a NaN operand never wins (and NaN,NaN keeps b)
  if (std::isnan(a)) return b;
  if (a == b) return std::signbit(a) ? a : b; // -0 < +0
  return a < b ? a : b;
}
template <class F>
F max_number(F a, F b) {
  if (std::isnan(b)) return a;
  if (std::isnan(a)) return b;
  if (a == b) return std::signbit(a) ? b : a;
  return a > b ? a : b;
}

// Integer ops on the unsigned representation so add/sub wrap without UB;
// `S` is the type min/max compare in.
template <class U, class S>
U int_op(AtomicOp op, U old, U x, U cmp) {
  switch (op) {
  case AtomicOp::Add:
    return static_cast<U>(old + x);
  case AtomicOp::Sub:
    return static_cast<U>(old - x);
  case AtomicOp::Min:
    return static_cast<S>(x) < static_cast<S>(old) ? x : old;
  case AtomicOp::Max:
    return static_cast<S>(x) > static_cast<S>(old) ? x : old;
  case AtomicOp::Inc:
    return old >= x ? U{0} : static_cast<U>(old + 1);
  case AtomicOp::Dec:
    return (old == 0 || old > x) ? x : static_cast<U>(old - 1);
  case AtomicOp::And:
    return old & x;
  case AtomicOp::Or:
    return old | x;
  case AtomicOp::Xor:
    return old ^ x;
  case AtomicOp::Exch:
    return x;
  case AtomicOp::Cas:
    return old == cmp ? x : old;
  }
  return old;
}

// Floats travel as bits (`U`); arithmetic happens in `F`, CAS compares bits.
template <class F, class U>
U float_op(AtomicOp op, U old_bits, U x_bits, U cmp_bits) {
  const F old = std::bit_cast<F>(old_bits);
  const F x = std::bit_cast<F>(x_bits);
  switch (op) {
  case AtomicOp::Add:
    return std::bit_cast<U>(static_cast<F>(old + x));
  case AtomicOp::Sub:
    return std::bit_cast<U>(static_cast<F>(old - x));
  case AtomicOp::Min:
    return std::bit_cast<U>(min_number(old, x));
  case AtomicOp::Max:
    return std::bit_cast<U>(max_number(old, x));
  case AtomicOp::Exch:
    return x_bits;
  case AtomicOp::Cas:
    return old_bits == cmp_bits ? x_bits : old_bits;
  default:
    return old_bits; // rejected by atomic_supported before we get here
  }
}

template <class U>
uint64_t apply_typed(uint8_t* p, U (*fn)(AtomicOp, U, U, U), AtomicOp op, uint64_t operand,
                     uint64_t compare) {
  const U old = load_le<U>(p);
  store_le<U>(p, fn(op, old, static_cast<U>(operand), static_cast<U>(compare)));
  return old;
}

} // namespace

bool atomic_supported(AtomicOp op, DataType t) {
  switch (op) {
  case AtomicOp::Add:
  case AtomicOp::Sub:
  case AtomicOp::Min:
  case AtomicOp::Max:
  case AtomicOp::Exch:
  case AtomicOp::Cas:
    return true;
  case AtomicOp::And:
  case AtomicOp::Or:
  case AtomicOp::Xor:
    return is_integer(t);
  case AtomicOp::Inc:
  case AtomicOp::Dec:
    return t == DataType::U32;
  }
  return false;
}

uint64_t apply_atomic(AtomicOp op, DataType t, uint8_t* p, uint64_t operand, uint64_t compare) {
  if (!atomic_supported(op, t))
    throw std::invalid_argument("atomic " + std::string(to_string(op)) + " is not defined on " +
                                std::string(to_string(t)));
  switch (t) {
  case DataType::U32:
    return apply_typed<uint32_t>(p, int_op<uint32_t, uint32_t>, op, operand, compare);
  case DataType::S32:
    return apply_typed<uint32_t>(p, int_op<uint32_t, int32_t>, op, operand, compare);
  case DataType::U64:
    return apply_typed<uint64_t>(p, int_op<uint64_t, uint64_t>, op, operand, compare);
  case DataType::F32:
    return apply_typed<uint32_t>(p, float_op<float, uint32_t>, op, operand, compare);
  case DataType::F64:
    return apply_typed<uint64_t>(p, float_op<double, uint64_t>, op, operand, compare);
  }
  return 0;
}

std::optional<uint64_t> atomic_identity(AtomicOp op, DataType t) {
  if (!atomic_supported(op, t)) return std::nullopt;
  const bool f32 = t == DataType::F32, f64 = t == DataType::F64;
  const uint64_t ones = size_of(t) == 8 ? ~uint64_t{0} : uint64_t{0xffffffff};
  switch (op) {
  case AtomicOp::Add:
    if (f32) return std::bit_cast<uint32_t>(-0.0f);
    if (f64) return std::bit_cast<uint64_t>(-0.0);
    return 0;
  case AtomicOp::Sub:
  case AtomicOp::Or:
  case AtomicOp::Xor:
    return 0;
  case AtomicOp::And:
    return ones;
  case AtomicOp::Min:
    if (f32) return std::bit_cast<uint32_t>(std::numeric_limits<float>::infinity());
    if (f64) return std::bit_cast<uint64_t>(std::numeric_limits<double>::infinity());
    if (t == DataType::S32) return uint64_t{0x7fffffff};
    return ones;
  case AtomicOp::Max:
    if (f32) return std::bit_cast<uint32_t>(-std::numeric_limits<float>::infinity());
    if (f64) return std::bit_cast<uint64_t>(-std::numeric_limits<double>::infinity());
    if (t == DataType::S32) return uint64_t{0x80000000};
    return 0;
  case AtomicOp::Inc:
  case AtomicOp::Dec:
  case AtomicOp::Exch:
  case AtomicOp::Cas:
    return std::nullopt;
  }
  return std::nullopt;
}

} // namespace tlmgpu
