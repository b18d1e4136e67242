// Per-lane values of one warp, as SIMT hardware holds them: a register is one
// value per lane (`Lanes<T>`) and divergence is an active `Mask`. Kernels
// compute on whole warps with these, so a CUDA line like
// `hist[in[i]]` becomes `address_of<uint32_t>(a.hist, px)` over all lanes.
//
// Lanes always has kMaxLanes (64) slots and a Mask 64 bits, so one compiled
// kernel runs on 32-wide warps and 64-wide wavefronts alike: the platform's
// width (sm.warp_size) is a runtime value, a narrower warp leaves the upper
// lanes out of every mask (Warp::active()), and while its kernel runs Lanes
// operations touch only its lanes (lanes_in_use()).
#pragma once

#include "tlmgpu/types.hpp"

#include <array>
#include <bit>
#include <concepts>
#include <cstdint>
#include <type_traits>

namespace tlmgpu {

class Mask {
public:
  constexpr Mask() = default;
  constexpr explicit Mask(uint64_t bits) : bits_(bits) {}

  // Lanes [0, n).
  static constexpr Mask all(unsigned n = kMaxLanes) {
    return Mask(n >= 64 ? ~uint64_t{0} : ((uint64_t{1} << n) - 1u));
  }
  static constexpr Mask lane(unsigned i) { return Mask(uint64_t{1} << i); }

  constexpr uint64_t bits() const { return bits_; }
  constexpr bool test(unsigned i) const { return (bits_ >> i) & 1u; }
  constexpr unsigned count() const { return unsigned(std::popcount(bits_)); }
  constexpr bool any() const { return bits_ != 0; }
  constexpr bool empty() const { return bits_ == 0; }
  // Lowest active lane; only meaningful when any().
  constexpr unsigned first() const { return unsigned(std::countr_zero(bits_)); }
  constexpr Mask& set(unsigned i) { return bits_ |= uint64_t{1} << i, *this; }
  constexpr Mask& reset(unsigned i) { return bits_ &= ~(uint64_t{1} << i), *this; }
  // Lanes below i (the lanes that come before lane i in lane order).
  constexpr Mask below(unsigned i) const { return Mask(bits_ & ((uint64_t{1} << i) - 1u)); }

  // Calls f(lane) for every set lane in ascending order: lane order is the
  // tie-break everywhere (coalescing, same-address stores, atomic serialization).
  template <class F>
  constexpr void for_each(F&& f) const {
    for (uint64_t b = bits_; b; b &= b - 1)
      f(unsigned(std::countr_zero(b)));
  }

  // ~m sets lanes a narrow warp does not have; AND with Warp::active() (the
  // Warp's instructions do this themselves).
  friend constexpr Mask operator~(Mask a) { return Mask(~a.bits_); }
  friend constexpr Mask operator&(Mask a, Mask b) { return Mask(a.bits_ & b.bits_); }
  friend constexpr Mask operator|(Mask a, Mask b) { return Mask(a.bits_ | b.bits_); }
  friend constexpr Mask operator^(Mask a, Mask b) { return Mask(a.bits_ ^ b.bits_); }
  constexpr Mask& operator&=(Mask b) { return bits_ &= b.bits_, *this; }
  constexpr Mask& operator|=(Mask b) { return bits_ |= b.bits_, *this; }
  constexpr Mask& operator^=(Mask b) { return bits_ ^= b.bits_, *this; }
  friend constexpr bool operator==(Mask a, Mask b) = default;

private:
  uint64_t bits_ = 0;
};

// How many of the kMaxLanes slots a Lanes operation touches: the width of
// the warp whose kernel code is running (WarpTask::resume sets it around the
// kernel), kMaxLanes outside every kernel. A 32-wide warp so computes, copies
// and compares 32 values, not 64, and its Lanes occupy no more cache than
// before 64-wide wavefronts existed: 32-wide platforms keep their speed
// (issue 15 item 3). Slots at or above it hold unspecified values; the SM
// reads only lanes in an instruction's mask, all below the warp's width.
namespace simt_lanes {
inline constinit thread_local unsigned in_use = kMaxLanes;
} // namespace simt_lanes
inline unsigned lanes_in_use() {
  return simt_lanes::in_use;
}

template <class T>
class Lanes {
public:
  using value_type = T;

  // Zero in every lane.
  Lanes() { fill(T{}); }
  // Implicit on purpose: a scalar is a uniform value, as in CUDA where
  // `x + 1` means the same 1 in every lane.
  Lanes(T x) { fill(x); }
  Lanes(const Lanes& o) { copy(o); }
  Lanes& operator=(const Lanes& o) {
    copy(o);
    return *this;
  }
  // Explicit so that mixing widths (u32 index into u64 addresses) is visible.
  template <class U>
  requires(!std::same_as<U, T>) explicit Lanes(const Lanes<U>& o) {
    const unsigned n = lanes_in_use();
    for (unsigned i = 0; i < n; ++i)
      v_[i] = static_cast<T>(o[i]);
  }

  // f(lane) -> T for every lane.
  template <class F>
  static Lanes generate(F&& f) {
    Lanes r(NoInit{});
    const unsigned n = lanes_in_use();
    for (unsigned i = 0; i < n; ++i)
      r.v_[i] = static_cast<T>(f(i));
    return r;
  }

  constexpr T& operator[](unsigned i) { return v_[i]; }
  constexpr const T& operator[](unsigned i) const { return v_[i]; }
  void fill(T x) {
    const unsigned n = lanes_in_use();
    for (unsigned i = 0; i < n; ++i)
      v_[i] = x;
  }
  // All kMaxLanes slots (for spans indexed by lane); only lanes below the
  // warp's width hold values.
  constexpr std::array<T, kMaxLanes>& array() { return v_; }
  constexpr const std::array<T, kMaxLanes>& array() const { return v_; }
  auto begin() { return v_.begin(); }
  auto end() { return v_.begin() + lanes_in_use(); }
  auto begin() const { return v_.begin(); }
  auto end() const { return v_.begin() + lanes_in_use(); }

  template <class U>
  Lanes<U> as() const {
    return Lanes<U>(*this);
  }

  // Elementwise f(x) -> U.
  template <class F>
  auto map(F&& f) const {
    using U = std::decay_t<decltype(f(v_[0]))>;
    Lanes<U> r(typename Lanes<U>::NoInit{});
    const unsigned n = lanes_in_use();
    for (unsigned i = 0; i < n; ++i)
      r.v_[i] = f(v_[i]);
    return r;
  }
  // Lanes equal in every lane of m (inactive lanes hold don't-care values).
  bool equals(const Lanes& o, Mask m = Mask::all(lanes_in_use())) const {
    bool eq = true;
    m.for_each([&](unsigned i) { eq = eq && v_[i] == o.v_[i]; });
    return eq;
  }

#define TLMGPU_LANES_BINOP(op, ...)                                                                \
  friend Lanes operator op(const Lanes& a, const Lanes& b) __VA_ARGS__ {                           \
    Lanes r(NoInit{});                                                                             \
    const unsigned n = lanes_in_use();                                                             \
    for (unsigned i = 0; i < n; ++i)                                                               \
      r.v_[i] = static_cast<T>(a.v_[i] op b.v_[i]);                                                \
    return r;                                                                                      \
  }                                                                                                \
  Lanes& operator op##=(const Lanes& b) __VA_ARGS__ {                                              \
    return *this = *this op b;                                                                     \
  }
  TLMGPU_LANES_BINOP(+)
  TLMGPU_LANES_BINOP(-)
  TLMGPU_LANES_BINOP(*)
  TLMGPU_LANES_BINOP(/)
  TLMGPU_LANES_BINOP(%, requires std::integral<T>)
  TLMGPU_LANES_BINOP(&, requires std::integral<T>)
  TLMGPU_LANES_BINOP(|, requires std::integral<T>)
  TLMGPU_LANES_BINOP(^, requires std::integral<T>)
  TLMGPU_LANES_BINOP(<<, requires std::integral<T>)
  TLMGPU_LANES_BINOP(>>, requires std::integral<T>)
#undef TLMGPU_LANES_BINOP

  friend Lanes operator-(const Lanes& a) {
    return a.map([](T x) { return T(-x); });
  }

  // Comparisons give the lanes where they hold, ready to AND into a mask.
#define TLMGPU_LANES_CMP(op)                                                                       \
  friend Mask operator op(const Lanes& a, const Lanes& b) {                                        \
    uint64_t m = 0;                                                                                \
    const unsigned n = lanes_in_use();                                                             \
    for (unsigned i = 0; i < n; ++i)                                                               \
      m |= uint64_t(a.v_[i] op b.v_[i]) << i;                                                      \
    return Mask(m);                                                                                \
  }
  TLMGPU_LANES_CMP(==)
  TLMGPU_LANES_CMP(!=)
  TLMGPU_LANES_CMP(<)
  TLMGPU_LANES_CMP(<=)
  TLMGPU_LANES_CMP(>)
  TLMGPU_LANES_CMP(>=)
#undef TLMGPU_LANES_CMP

private:
  template <class>
  friend class Lanes;
  // Storage for a result every lane of which is written next: no zeroing pass.
  struct NoInit {};
  explicit Lanes(NoInit) {}
  void copy(const Lanes& o) {
    const unsigned n = lanes_in_use();
    for (unsigned i = 0; i < n; ++i)
      v_[i] = o.v_[i];
  }

  std::array<T, kMaxLanes> v_;
};

// m ? a : b per lane (SIMT predication).
template <class T>
Lanes<T> select(Mask m, const Lanes<T>& a, const Lanes<T>& b) {
  Lanes<T> r = b;
  m.for_each([&](unsigned i) { r[i] = a[i]; });
  return r;
}

// 0, 1, ..., width-1 (CUDA's laneid).
inline Lanes<uint32_t> lane_index() {
  return Lanes<uint32_t>::generate([](unsigned i) { return i; });
}

// &base[index] per lane for an array of T: the address arithmetic of
// `ptr[i]`, with the index widened before scaling so it cannot wrap.
template <class T, class I>
Lanes<Addr> address_of(Addr base, const Lanes<I>& index) {
  static_assert(std::is_integral_v<I>, "an index must be an integer");
  return index.map([base](I i) { return Addr(base + Addr(i) * sizeof(T)); });
}

// Raw bit patterns, zero-extended to 64 bits: how values travel through the
// memory system (a float lives as its IEEE bits; see atomic_ops.hpp).
template <unsigned N>
struct uint_of_size;
template <>
struct uint_of_size<1> {
  using type = uint8_t;
};
template <>
struct uint_of_size<2> {
  using type = uint16_t;
};
template <>
struct uint_of_size<4> {
  using type = uint32_t;
};
template <>
struct uint_of_size<8> {
  using type = uint64_t;
};

template <class T>
constexpr uint64_t to_bits(T v) {
  return std::bit_cast<typename uint_of_size<sizeof(T)>::type>(v);
}
template <class T>
constexpr T from_bits(uint64_t b) {
  using U = typename uint_of_size<sizeof(T)>::type;
  return std::bit_cast<T>(static_cast<U>(b));
}

} // namespace tlmgpu
