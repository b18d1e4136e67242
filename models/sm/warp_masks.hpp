// Bitsets over an SM's warp slots, one per question the issue loop asks
// every cycle (issue 13: scanning all warp slots in issue_cycle() and idle()
// was 17 % of the AT histogram's instructions). The SM keeps them in step
// with its slots (SmModule::refresh after every change of a slot's state),
// so a cycle visits only the warps that may issue instead of every slot, in
// the same ascending slot order as the scan it replaces.
#pragma once

#include <bit>
#include <cstdint>
#include <vector>

namespace tlmgpu {

class WarpMasks {
public:
  enum Set : uint8_t {
    Valid,     // a warp occupies the slot
    Memory,    // valid, and waits for memory (outstanding replies) or exited
    Barrier,   // valid, at a barrier
    Global,    // valid, not exited, its pending instruction is a global access
    Candidate, // valid, not exited, not at a barrier, no outstanding replies
    kSets
  };

  void resize(uint32_t slots, uint32_t schedulers) {
    words_ = (slots + 63) / 64;
    for (auto& b : bits_)
      b.assign(words_, 0);
    // Scheduler s owns slots s, s + n, s + 2n, ... (issue_cycle's order).
    sched_.assign(schedulers, std::vector<uint64_t>(words_, 0));
    for (uint32_t slot = 0; slot < slots; ++slot)
      sched_[slot % schedulers][slot / 64] |= uint64_t{1} << (slot % 64);
  }

  void set(Set s, uint32_t slot, bool on) {
    uint64_t& w = bits_[s][slot / 64];
    const uint64_t b = uint64_t{1} << (slot % 64);
    w = on ? w | b : w & ~b;
  }
  bool test(Set s, uint32_t slot) const { return (bits_[s][slot / 64] >> (slot % 64)) & 1; }
  bool any(Set s) const {
    for (uint64_t w : bits_[s])
      if (w) return true;
    return false;
  }

  // f(slot) for each Candidate slot, ascending, without the Global ones when
  // `global` is false (the LD/ST unit takes no global access now); only the
  // slots of scheduler `sched` unless it is kAll.
  static constexpr uint32_t kAll = ~0u;
  template <class F>
  void for_each_candidate(uint32_t sched, bool global, F f) const {
    for (uint32_t i = 0; i < words_; ++i) {
      uint64_t w = bits_[Candidate][i];
      if (!global) w &= ~bits_[Global][i];
      if (sched != kAll) w &= sched_[sched][i];
      while (w) {
        f(i * 64 + uint32_t(std::countr_zero(w)));
        w &= w - 1;
      }
    }
  }

private:
  uint32_t words_ = 0;
  std::vector<uint64_t> bits_[kSets];
  std::vector<std::vector<uint64_t>> sched_;
};

} // namespace tlmgpu
