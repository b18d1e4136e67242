// Address interleaving. With C channels and S sub-partitions per channel:
//
//   chunk = a / interleave_bytes          offset = a % interleave_bytes
//   i     = chunk % C                     g      = chunk / C   (the "group")
//
//   hash none: channel = i
//   hash xor : channel = i XOR fold_C(g)        (C a power of two)
//              channel = (i + fold_C(g)) % C    (any other C)
//
// fold_C(g) combines every base-C digit of g (XOR of log2(C)-bit fields, or a
// digit sum mod C). For a fixed g both forms permute i, so each group of C
// consecutive chunks still covers every channel exactly once (sequential
// traffic stays perfectly balanced), while a stride of C chunks, which keeps
// i constant, now walks the channels as g changes.
//
// Each group holds exactly one chunk of every channel, so the chunks a channel
// sees are those of groups 0, 1, 2, ...; the channel-local address is therefore
// dense: local = g * interleave_bytes + offset. The sub-partition takes the
// same approach one level down, over g with S: none gives g % S, so
// consecutive chunks of a channel alternate slices; xor gives
// (g % S) XOR/+ fold_S(g / S), which still alternates inside every aligned run
// of S groups but also spreads strides of C*S chunks over the slices.
//
// Inside a channel: column = local % row_bytes, bank = (local / row_bytes) %
// banks, row = local / row_bytes / banks.
#include "tlmgpu/address_map.hpp"

#include <bit>
#include <string>

namespace tlmgpu {
namespace {

void require_at_least_one(uint32_t v, const char* key) {
  if (v < 1) throw ConfigError(std::string(key) + " must be >= 1 (got " + std::to_string(v) + ")");
}

} // namespace

AddressMap::AddressMap(const AddressMapSpec& spec, uint32_t channels, uint32_t sub_partitions,
                       uint32_t banks, uint32_t row_bytes)
    : spec_(spec), channels_(channels), subs_(sub_partitions), banks_(banks),
      row_bytes_(row_bytes) {
  if (spec.device_windows > 0) {
    dev_base_ = spec.device_base;
    dev_bytes_ = spec.device_window_bytes;
    dev_end_ = dev_base_ + Addr(spec.device_windows) * dev_bytes_;
  }
  if (spec.interleave_bytes == 0 || !std::has_single_bit(spec.interleave_bytes))
    throw ConfigError("address_map.interleave_bytes must be a power of two (got " +
                      std::to_string(spec.interleave_bytes) + ")");
  if (spec.hash != "none" && spec.hash != "xor")
    throw ConfigError("address_map.hash must be one of: none|xor (got \"" + spec.hash + "\")");
  require_at_least_one(channels, "dram.channels");
  require_at_least_one(sub_partitions, "l2.sub_partitions");
  require_at_least_one(banks, "dram.banks");
  require_at_least_one(row_bytes, "dram.row_bytes");
  xor_hash_ = spec.hash == "xor";

  auto divisor = [](uint64_t d) {
    return Divisor{d, std::has_single_bit(d) ? std::countr_zero(d) : -1};
  };
  interleave_ = divisor(spec.interleave_bytes);
  channel_div_ = divisor(channels);
  sub_div_ = divisor(sub_partitions);
  bank_div_ = divisor(banks);
  row_div_ = divisor(row_bytes);
}

// Combines all base-`by` digits of `group` into one value < by.d.
uint32_t AddressMap::fold(uint64_t group, const Divisor& by) const {
  if (by.d == 1) return 0;
  uint64_t acc = 0;
  if (by.shift >= 0) {
    for (; group != 0; group >>= by.shift)
      acc ^= group & (by.d - 1);
  } else {
    for (; group != 0; group /= by.d)
      acc += group % by.d; // digit sum; cannot overflow
    acc %= by.d;
  }
  return static_cast<uint32_t>(acc);
}

AddressMap::Placement AddressMap::place(Addr a) const {
  const uint64_t chunk = interleave_.div(a);
  Placement p;
  p.offset = interleave_.mod(a);
  p.group = channel_div_.div(chunk);
  p.channel = channel_div_.mod(chunk);
  const uint64_t sub_pos = sub_div_.mod(p.group);
  p.sub = sub_pos;
  if (xor_hash_) {
    auto permute = [](uint64_t i, uint32_t f, const Divisor& n) {
      if (n.shift >= 0) return i ^ f;
      const uint64_t s = i + f; // both < n.d
      return s >= n.d ? s - n.d : s;
    };
    p.channel = permute(p.channel, fold(p.group, channel_div_), channel_div_);
    p.sub = permute(sub_pos, fold(sub_div_.div(p.group), sub_div_), sub_div_);
  }
  return p;
}

MemLocation AddressMap::locate(Addr a) const {
  const Placement p = place(a);
  MemLocation loc;
  loc.channel = static_cast<uint32_t>(p.channel);
  loc.slice = static_cast<uint32_t>(p.channel * subs_ + p.sub);
  loc.local = (p.group << interleave_.shift) | p.offset; // interleave is a power of two
  loc.column = static_cast<uint32_t>(row_div_.mod(loc.local));
  const uint64_t row_index = row_div_.div(loc.local);
  loc.bank = static_cast<uint32_t>(bank_div_.mod(row_index));
  loc.row = bank_div_.div(row_index);
  return loc;
}

} // namespace tlmgpu
