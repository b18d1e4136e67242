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
  // Device windows: address ranges routed to non-memory targets (a unit's
  // registers) through the crossbar's `dev` ports instead of an L2 slice.
  uint32_t device_base = 0, device_window_bytes = 0, device_windows = 0;

  template <class V>
  void visit(V& v) {
    v.param(
        interleave_bytes, "interleave_bytes", 256, Range{32, 1 << 30}, "bytes",
        "consecutive bytes mapped to one channel before moving on (power of two, >= line size)");
    v.choice(hash, "hash", "xor", {"none", "xor"}, "channel index hash");
    v.param(device_windows, "device_windows", 0, Range{0, 64}, "",
            "address windows routed to the crossbar's dev[k] ports (non-memory targets), "
            "window k at device_base + k * device_window_bytes");
    v.param(device_base, "device_base", 0x1000000, Range{4096, 0x10000000}, "bytes",
            "address of device window 0 (below device memory, which starts at 0x10000000)");
    v.param(device_window_bytes, "device_window_bytes", 4096, Range{128, 1 << 24}, "bytes",
            "size of each device window (power of two, a multiple of the line size)");
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
  // locate(a).slice without the bank and row arithmetic (the crossbar routes
  // every packet by it).
  uint32_t slice_of(Addr a) const {
    const Placement p = place(a);
    return static_cast<uint32_t>(p.channel * subs_ + p.sub);
  }
  // The device window holding `a` (AddressMapSpec::device_windows), or -1.
  int device_of(Addr a) const {
    if (a < dev_base_ || a >= dev_end_) return -1;
    return int((a - dev_base_) / dev_bytes_);
  }
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
  struct Placement {
    uint64_t group, offset, channel, sub;
  };
  Placement place(Addr a) const; // channel and sub-partition of `a` (hashed)

  AddressMapSpec spec_;
  Addr dev_base_ = 0, dev_end_ = 0, dev_bytes_ = 1;
  uint32_t channels_, subs_, banks_, row_bytes_;
  bool xor_hash_ = false;
  Divisor interleave_, channel_div_, sub_div_, bank_div_, row_div_;
};

} // namespace tlmgpu
