// GPU-wide profile of the global atomics a kernel performs, the quantities
// the LAB paper explains its results with: atomics by op, unique atomic
// words and lines, lanes of one warp instruction that hit the same word
// (intra-warp collisions, serialized by the coalescer), and the reuse
// distance of atomic lines: how many distinct atomic lines were touched
// between two touches of the same line (an LRU stack distance). A buffer of
// D lines catches the reuses with distance < D.
//
// Kernel-free; it is a probe every SM carries (InstrProbe::memory), GpuModule resets the per-kernel
// sets at each kernel end (so "unique" counts are per kernel; totals add kernels up).
#pragma once

#include "tlmgpu/simt/instr_probe.hpp"
#include "tlmgpu/simt/warp_instr.hpp"
#include "tlmgpu/stats.hpp"

#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace tlmgpu {

class AtomicProfile : public InstrProbe {
public:
  AtomicProfile(StatGroup& parent, uint32_t line_bytes);
  void record(const WarpInstr& in); // a global Atomic or Red instruction
  void end_kernel();                // forget per-kernel sets and history
  void memory(uint16_t, const WarpInstr& in) override {
    if (in.kind == WarpInstr::Kind::Atomic || in.kind == WarpInstr::Kind::Red) record(in);
  }

  // Exposed for tests.
  uint64_t unique_lines() const { return lines_.size(); }

private:
  uint64_t stack_distance(uint64_t line);
  void bit_add(size_t i, int v);
  int bit_sum(size_t i) const; // marks in [0, i]
  void grow();

  uint32_t line_bytes_;
  StatGroup stats_;
  std::array<Counter*, 11> by_op_{};
  Counter &lanes_, &unique_words_, &unique_lines_, &collisions_, &reuses_, &cold_;
  Histogram& reuse_log2_;
  std::unordered_set<uint64_t> words_;
  std::unordered_map<uint64_t, size_t> lines_; // line -> time of its latest touch
  std::vector<int> bit_; // Fenwick tree over touch times: 1 = latest touch of a line
  size_t now_ = 0;
};

} // namespace tlmgpu
