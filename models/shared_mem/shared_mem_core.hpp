// Functional and timing core of the banked per-SM scratchpad (CUDA shared
// memory). Holds the real bytes; each warp access returns its cycles.
//
// Bank model: the scratchpad is a sequence of `bank_bytes`-wide words, word w
// living in bank w % banks. A bank delivers one word per cycle, so a warp
// access takes as many extra cycles as the busiest bank has distinct words
// beyond the first. Lanes reading the same word share it (broadcast). An
// 8-byte lane on 4-byte banks touches two words in two adjacent banks, which
// is why a fully coalesced 64-bit warp access costs two passes, as on NVIDIA
// GPUs.
#pragma once

#include "models/shared_mem/shared_mem_spec.hpp"
#include "tlmgpu/types.hpp"
#include "tlmgpu/zeroed_array.hpp"

#include <cstdint>
#include <span>
#include <stdexcept>
#include <vector>

namespace tlmgpu {

// One lane of a warp's shared-memory access; index i of the lane span is SIMT
// lane i. `offset` is a byte offset into the scratchpad, aligned to `size`.
struct SmemLane {
  bool active = false;
  uint32_t offset = 0;
  uint8_t size = 4; // 4 or 8 bytes
};

// An access past the scratchpad's end. Thrown before any byte is touched.
class SharedMemOutOfRange : public std::out_of_range {
public:
  SharedMemOutOfRange(unsigned lane, uint64_t offset, unsigned size, uint64_t capacity);
  uint64_t offset() const { return offset_; }
  unsigned lane() const { return lane_; }

private:
  unsigned lane_;
  uint64_t offset_;
};

class SharedMemCore {
public:
  // Throws ConfigError for banks or bank_bytes of 0.
  explicit SharedMemCore(const SharedMemSpec& spec);

  // Max over banks of the distinct bank words requested in that bank (0 when
  // no lane is active). Validates the lanes like the accesses do.
  uint32_t conflict_degree(std::span<const SmemLane> lanes) const;
  // Atomics get no broadcast: every lane's read-modify-write occupies its
  // bank(s) for one cycle, so this is max over banks of the (lane, word)
  // pairs in that bank. It equals conflict_degree plus the serialization of
  // lanes that hit the same word.
  uint32_t atomic_rounds(std::span<const SmemLane> lanes) const;

  // Each returns latency + (conflict_degree - 1) (atomics: latency +
  // (atomic_rounds - 1)); an access with no active lane costs `latency`.
  // Values are raw bits, little-endian, 4-byte values zero-extended; one slot
  // per lane (spans at least as long as `lanes`), inactive slots untouched.
  Cycle load(std::span<const SmemLane> lanes, std::span<uint64_t> values);
  Cycle store(std::span<const SmemLane> lanes, std::span<const uint64_t> values);
  // Lanes are applied in lane order, so lanes that hit the same address see
  // each other's results (old values chain). Every active lane must have
  // size == size_of(type); (op, type) must be atomic_supported. `compares`
  // is read by CAS only and may be empty otherwise.
  Cycle atomic(std::span<const SmemLane> lanes, AtomicOp op, DataType type,
               std::span<const uint64_t> operands, std::span<const uint64_t> compares,
               std::span<uint64_t> old_values);

  // Direct access for initialisation and checking (no timing, no counters).
  std::span<uint8_t> data() { return {mem_.data(), mem_.size()}; }
  std::span<const uint8_t> data() const { return {mem_.data(), mem_.size()}; }
  const SharedMemSpec& spec() const { return spec_; }

  // Plain counters; the module publishes them as stats.
  uint64_t loads() const { return loads_; } // warp accesses
  uint64_t stores() const { return stores_; }
  uint64_t atomics() const { return atomics_; }
  uint64_t lane_accesses() const { return lane_accesses_; }
  uint64_t conflicted_accesses() const { return conflicted_accesses_; } // needed > 1 pass
  uint64_t conflict_cycles() const { return conflict_cycles_; }         // extra cycles

private:
  // Bank words of every active lane (two per lane when a value spans banks).
  struct BankWord {
    uint64_t word;
    unsigned lane;
  };
  void check(std::span<const SmemLane> lanes, size_t slots) const;
  std::vector<BankWord> words_of(std::span<const SmemLane> lanes) const;
  Cycle account(std::span<const SmemLane> lanes, uint32_t passes);

  SharedMemSpec spec_;
  ZeroedArray<uint8_t> mem_; // mostly untouched: zero pages paid for when first written
  uint64_t loads_ = 0, stores_ = 0, atomics_ = 0, lane_accesses_ = 0;
  uint64_t conflicted_accesses_ = 0, conflict_cycles_ = 0;
};

} // namespace tlmgpu
