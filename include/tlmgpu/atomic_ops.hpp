// The arithmetic of GPU atomics, shared by every block that performs one
// (L1/L2 atomic units, shared memory, the random-traffic checker's reference
// model), so they all agree bit for bit.
//
// Values are raw bit patterns of the DataType (a float travels as its IEEE
// bits); 4-byte types use the low 32 bits of a uint64_t and return their old
// value zero-extended. Memory is little-endian.
#pragma once

#include "tlmgpu/types.hpp"

#include <cstdint>
#include <optional>

namespace tlmgpu {

// Which (op, type) pairs a GPU can perform (CUDA's atomic* set):
//   add, sub, min, max, exch, cas: every type;
//   and, or, xor: integer types (u32, s32, u64);
//   inc, dec: u32 only.
bool atomic_supported(AtomicOp op, DataType t);

// Applies `op` to the size_of(t)-byte value at `p`, stores the new value and
// returns the old one. CUDA semantics:
//   add/sub  wrap for integers; floats round in the type's own precision.
//   min/max  signed for s32, unsigned for u32/u64. Floats follow IEEE 754-2019
//            minimumNumber/maximumNumber: a NaN loses to any number (so a NaN
//            operand leaves memory unchanged and a NaN in memory is replaced),
//            two NaNs give the operand's NaN, and -0 < +0.
//   inc      old >= operand ? 0 : old + 1
//   dec      (old == 0 || old > operand) ? operand : old - 1
//   exch     operand
//   cas      old == compare ? operand : old, compared bitwise (so a NaN can
//            match itself and -0 does not match +0).
// Throws std::invalid_argument for a pair atomic_supported() rejects.
uint64_t apply_atomic(AtomicOp op, DataType t, uint8_t* p, uint64_t operand, uint64_t compare);

// The identity e of `op` on `t` (op(x, e) == x for every non-NaN x), used to
// seed commutative merging of reductions. Integer add/sub/or/xor: 0; and: all
// ones; min: the type's maximum (+inf); max: its lowest value (-inf). Float add
// uses -0.0, because +0.0 would turn a stored -0.0 into +0.0; float sub uses
// +0.0 for the same reason. exch, cas, inc, dec (and unsupported pairs) have
// no identity.
std::optional<uint64_t> atomic_identity(AtomicOp op, DataType t);

} // namespace tlmgpu
