// Golden memory for the LAB's paper_compatible mode (seed-000 §7.8 pitfall 4).
// Kernel-free; one instance per GPU, shared by every SM's LAB stage (LabGpuState owns it).
//
// Why: the authors' GPGPU-Sim performs every atomic functionally on global
// memory at issue time, so an atomic their LAB buffers still returns the
// "right" old value, which no real LAB could know. paper_compatible mode
// reproduces that: every lane the LAB buffers (red or atomic) is also applied
// here, in issue order, and a value-returning lane is answered with the old
// value this model holds. The LAB itself still merges partial values and L2
// still receives only those, so memory after the flush is unchanged by this
// class; only the values the warps see come from here (atomics' old values,
// and loads of tracked words: LabModule's load path).
//
// State: a sparse map of 8-byte blocks (aligned address -> bytes + per-byte
// valid mask), so 4- and 8-byte words of any type share one representation.
// A word's bytes are read from the coherent memory (`Reader`, the host path
// through the owning L2 slice) the first time a lane touches them after a
// clear(); from then on only this model changes them. That is exact as long
// as every update of the word in the kernel goes through here:
//  * LAB-buffered lanes: yes (perform()).
//  * plain global stores issued by an SM: yes, store() updates the bytes this
//    model already tracks (cheap: one lookup per lane, and only while
//    anything is tracked).
//  * non-LAB atomics (exch, cas, inc, dec, other scopes) to a tracked word,
//    and stores that sit dirty in a write-back L1 when a word is first read:
//    no. The paper's commutative contract forbids racing them with the
//    buffered atomics of the same kernel, so the model does not try.
// The owner must clear() when no LAB holds a partial value (kernel end, after
// every LAB flushed): a word read afterwards would otherwise miss a partial
// still buffered in some SM. LabGpuState clears it once every SM's kernel-end release has drained
// its LAB.
#pragma once

#include "tlmgpu/types.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <unordered_map>
#include <utility>
#include <vector>

namespace tlmgpu {

class GoldenMemory {
public:
  // Reads `n` bytes of coherent device memory at `a` into `dst`.
  using Reader = std::function<void(Addr a, uint8_t* dst, size_t n)>;
  explicit GoldenMemory(Reader read) : read_(std::move(read)) {}

  // Applies `op` on `t` to the word at `addr` (aligned to size_of(t)) and
  // returns the old value (raw bits, zero-extended), as apply_atomic does.
  // Throws std::logic_error if `addr` is misaligned.
  uint64_t apply(Addr addr, AtomicOp op, DataType t, uint64_t operand, uint64_t compare = 0);
  // Every lane of the RMW `a` on line `line`, in lane order (the coalescer
  // already put same-word lanes in lane order, as L2 applies them); each
  // lane's `result` gets its old value.
  void perform(GpuAccess& a, Addr line);
  // A plain store of `n` bytes at `addr`: updates the bytes already tracked,
  // creates nothing (untracked words are read when first needed).
  void store(Addr addr, const uint8_t* src, size_t n);
  // The tracked bytes among `n` bytes at `addr`, as (offset from addr, value)
  // appended to `out`; returns the number of 8-byte blocks that had any. A
  // load's reply takes them (LabModule: what the load saw at issue).
  using TrackedBytes = std::vector<std::pair<uint16_t, uint8_t>>;
  size_t tracked(Addr addr, size_t n, TrackedBytes& out) const;
  // Current value of a tracked word (tests); false if not fully tracked.
  bool peek(Addr addr, unsigned size, uint64_t* value) const;

  void clear() { blocks_.clear(); }
  bool empty() const { return blocks_.empty(); }
  size_t blocks() const { return blocks_.size(); }
  // Word reads from the coherent memory since construction.
  uint64_t reads() const { return reads_; }

private:
  static constexpr unsigned kBlock = 8;
  struct Block {
    std::array<uint8_t, kBlock> bytes{};
    uint8_t valid = 0; // bit i: bytes[i] holds the golden value
  };

  Reader read_;
  std::unordered_map<Addr, Block> blocks_; // key: 8-byte aligned address
  uint64_t reads_ = 0;
};

} // namespace tlmgpu
