// Vocabulary between a warp and the SM that runs it: grid/block dimensions,
// the description of one warp instruction (WarpInstr) and the C++ types an
// instruction may carry. Kernel-free, used by the warp API (warp.hpp), the
// coalescer and the schedulers.
#pragma once

#include "tlmgpu/simt/lanes.hpp"
#include "tlmgpu/types.hpp"

#include <cstdint>
#include <string_view>
#include <type_traits>

namespace tlmgpu {

// Grid and block sizes (CUDA dim3: unset dimensions are 1) ...
struct Dim3 {
  uint32_t x = 1, y = 1, z = 1;
  constexpr uint64_t count() const { return uint64_t(x) * y * z; }
  friend constexpr bool operator==(const Dim3&, const Dim3&) = default;
};
// ... and indices into them (CUDA uint3 blockIdx: unset dimensions are 0).
struct Index3 {
  uint32_t x = 0, y = 0, z = 0;
  friend constexpr bool operator==(const Index3&, const Index3&) = default;
};

// What the SM must time and perform next. Values are raw bits, zero-extended.
struct WarpInstr {
  enum class Kind : uint8_t {
    Compute,      // `count` ALU instructions
    Load,         // global, `size` bytes per lane
    Store,        // global, values in `operand`
    Atomic,       // global RMW, old values to `results`
    Red,          // global RMW without result (PTX red)
    SharedLoad,   // `addr` holds offsets into the CTA's shared memory
    SharedStore,  //
    SharedAtomic, // old values to `results`
    Barrier,      // __syncthreads: the CTA's warps meet here
    Fence,        // ordering point at `scope`
    Exit,         // never pending; the kind a scheduler sees for a finished warp
  };
  Kind kind = Kind::Compute;
  uint32_t count = 0; // Compute only; 0 is a no-op the SM may complete at once
  Mask mask;          // active lanes, already ANDed with Warp::active()
  DataType type = DataType::U32;
  uint8_t size = 0; // bytes per lane: 1, 2, 4, 8 (loads/stores), size_of(type) for atomics
  AtomicOp op = AtomicOp::Add;
  MemOrder order = MemOrder::Relaxed;
  Scope scope = Scope::Device;
  bool remote = false; // Atomic only: remote-scope-promoted (Warp::atomic_remote)
  uint64_t warp = 0;   // the issuing warp: Warp::global_warp() (for probes)
  uint64_t cta = 0;    // its CTA: Warp::cta_linear()
  Lanes<Addr> addr;
  Lanes<uint64_t> operand; // store data or atomic operand
  Lanes<uint64_t> compare; // CAS only
  Lanes<uint64_t>* results = nullptr;

  bool is_global() const { return kind >= Kind::Load && kind <= Kind::Red; }
  bool is_shared() const { return kind >= Kind::SharedLoad && kind <= Kind::SharedAtomic; }
  bool is_memory() const { return is_global() || is_shared(); }
  bool returns_values() const {
    return kind == Kind::Load || kind == Kind::Atomic || kind == Kind::SharedLoad ||
           kind == Kind::SharedAtomic;
  }
};
std::string_view to_string(WarpInstr::Kind k);

// Types a load/store moves: any 1/2/4/8-byte integer or float.
template <class T>
inline constexpr bool is_memory_value_v =
    std::is_arithmetic_v<T> && !std::is_same_v<T, bool> &&
    (sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8);
template <class T>
concept MemoryValue = is_memory_value_v<T>;

// Types an atomic works on (CUDA's set): 32-bit integers, unsigned 64-bit, float, double.
template <class T>
inline constexpr bool is_atomic_value_v = is_memory_value_v<T> &&
                                          (std::is_floating_point_v<T> || sizeof(T) == 4 ||
                                           (sizeof(T) == 8 && std::is_unsigned_v<T>));
template <class T>
concept AtomicValue = is_atomic_value_v<T>;

// DataType closest to T; for 1- and 2-byte types WarpInstr::size is what counts.
template <MemoryValue T>
constexpr DataType data_type_of() {
  if constexpr (std::is_floating_point_v<T>)
    return sizeof(T) == 4 ? DataType::F32 : DataType::F64;
  else if constexpr (sizeof(T) == 8)
    return DataType::U64;
  else
    return std::is_signed_v<T> ? DataType::S32 : DataType::U32;
}

} // namespace tlmgpu
