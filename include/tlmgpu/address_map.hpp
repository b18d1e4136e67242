// Physical address -> (channel, slice, bank, row, column).
//
// Lines are interleaved over channels in chunks of `interleave_bytes`; the
// slice (sub-partition) inside a channel alternates chunk by chunk; optional
// XOR hashing folds higher address bits into the channel index to spread
// power-of-two strides (as GPU address hashes do). Inside a channel, the
// channel-local address is split into column (within a row), bank, row.
#pragma once

#include "tlmgpu/params.hpp"
#include "tlmgpu/types.hpp"

namespace tlmgpu {

struct AddressMapSpec {
  uint32_t interleave_bytes = 0;
  std::string hash;

  template <class V>
  void visit(V& v) {
    v.param(
        interleave_bytes, "interleave_bytes", 256, Range{32, 1 << 30}, "bytes",
        "consecutive bytes mapped to one channel before moving on (power of two, >= line size)");
    v.choice(hash, "hash", "xor", {"none", "xor"}, "channel index hash");
  }
  void derive() {}
};

struct MemLocation {
  uint32_t channel = 0;
  uint32_t slice = 0; // global L2 slice index = channel * sub_partitions + sub
  uint32_t bank = 0;
  uint64_t row = 0;
  uint32_t column = 0; // byte offset inside the row
  Addr local = 0;      // channel-local address
};

class AddressMap {
public:
  AddressMap(const AddressMapSpec& spec, uint32_t channels, uint32_t sub_partitions, uint32_t banks,
             uint32_t row_bytes);
  MemLocation locate(Addr a) const;
  uint32_t slice_of(Addr a) const { return locate(a).slice; }
  uint32_t slices() const { return channels_ * subs_; }
  uint32_t channels() const { return channels_; }

private:
  // Division by a constant: a shift and a mask when the divisor is a power of
  // two (the common case), a real division otherwise.
  struct Divisor {
    uint64_t d = 1;
    int shift = 0; // log2(d), or -1 when d is not a power of two
    uint64_t div(uint64_t x) const { return shift >= 0 ? x >> shift : x / d; }
    uint64_t mod(uint64_t x) const { return shift >= 0 ? x & (d - 1) : x % d; }
  };
  uint32_t fold(uint64_t group, const Divisor& by) const;

  AddressMapSpec spec_;
  uint32_t channels_, subs_, banks_, row_bytes_;
  bool xor_hash_ = false;
  Divisor interleave_, channel_div_, sub_div_, bank_div_, row_div_;
};

} // namespace tlmgpu
