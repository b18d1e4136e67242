#include "models/shared_mem/shared_mem_core.hpp"

#include "tlmgpu/atomic_ops.hpp"
#include "tlmgpu/params.hpp"

#include <algorithm>
#include <cstring>
#include <string>

namespace tlmgpu {

SharedMemOutOfRange::SharedMemOutOfRange(unsigned lane, uint64_t offset, unsigned size,
                                         uint64_t capacity)
    : std::out_of_range("shared memory access out of range: lane " + std::to_string(lane) +
                        " offset " + std::to_string(offset) + " size " + std::to_string(size) +
                        " (capacity " + std::to_string(capacity) + " bytes)"),
      lane_(lane), offset_(offset) {}

SharedMemCore::SharedMemCore(const SharedMemSpec& spec) : spec_(spec), mem_(spec.bytes) {
  if (spec.banks == 0) throw ConfigError("shared_mem.banks must be >= 1");
  if (spec.bank_bytes == 0) throw ConfigError("shared_mem.bank_bytes must be >= 1");
}

// All checks happen before any byte moves, so a bad lane can never leave a
// warp's store or atomic half applied.
void SharedMemCore::check(std::span<const SmemLane> lanes, size_t slots) const {
  if (lanes.size() > kMaxLanes)
    throw std::invalid_argument("shared memory access: more lanes than kMaxLanes (" +
                                std::to_string(kMaxLanes) + ")");
  if (slots < lanes.size())
    throw std::invalid_argument("shared memory access: fewer value slots than lanes");
  for (unsigned i = 0; i < lanes.size(); ++i) {
    const SmemLane& l = lanes[i];
    if (!l.active) continue;
    if (l.size != 4 && l.size != 8)
      throw std::invalid_argument("shared memory lane " + std::to_string(i) + ": size " +
                                  std::to_string(l.size) + " (must be 4 or 8)");
    if (uint64_t{l.offset} + l.size > mem_.size())
      throw SharedMemOutOfRange(i, l.offset, l.size, mem_.size());
    if (l.offset % l.size != 0)
      throw std::invalid_argument("shared memory lane " + std::to_string(i) + ": offset " +
                                  std::to_string(l.offset) + " not aligned to its size");
  }
}

std::vector<SharedMemCore::BankWord>
SharedMemCore::words_of(std::span<const SmemLane> lanes) const {
  std::vector<BankWord> words;
  words.reserve(lanes.size() * 2);
  for (unsigned i = 0; i < lanes.size(); ++i) {
    const SmemLane& l = lanes[i];
    if (!l.active) continue;
    const uint64_t first = l.offset / spec_.bank_bytes;
    const uint64_t last = (uint64_t{l.offset} + l.size - 1) / spec_.bank_bytes;
    for (uint64_t w = first; w <= last; ++w)
      words.push_back({w, i});
  }
  return words;
}

uint32_t SharedMemCore::conflict_degree(std::span<const SmemLane> lanes) const {
  check(lanes, lanes.size());
  std::vector<BankWord> words = words_of(lanes);
  std::sort(words.begin(), words.end(),
            [](const BankWord& a, const BankWord& b) { return a.word < b.word; });
  words.erase(std::unique(words.begin(), words.end(),
                          [](const BankWord& a, const BankWord& b) { return a.word == b.word; }),
              words.end());
  std::vector<uint32_t> per_bank(spec_.banks, 0);
  uint32_t degree = 0;
  for (const BankWord& w : words)
    degree = std::max(degree, ++per_bank[w.word % spec_.banks]);
  return degree;
}

uint32_t SharedMemCore::atomic_rounds(std::span<const SmemLane> lanes) const {
  check(lanes, lanes.size());
  std::vector<uint32_t> per_bank(spec_.banks, 0);
  uint32_t rounds = 0;
  for (const BankWord& w : words_of(lanes))
    rounds = std::max(rounds, ++per_bank[w.word % spec_.banks]);
  return rounds;
}

Cycle SharedMemCore::account(std::span<const SmemLane> lanes, uint32_t passes) {
  lane_accesses_ += std::count_if(lanes.begin(), lanes.end(), [](auto& l) { return l.active; });
  const uint32_t extra = passes > 1 ? passes - 1 : 0;
  if (extra > 0) ++conflicted_accesses_;
  conflict_cycles_ += extra;
  return Cycle{spec_.latency} + extra;
}

Cycle SharedMemCore::load(std::span<const SmemLane> lanes, std::span<uint64_t> values) {
  check(lanes, values.size());
  for (unsigned i = 0; i < lanes.size(); ++i) {
    if (!lanes[i].active) continue;
    uint64_t v = 0; // little-endian host (atomic_ops.cpp asserts it)
    std::memcpy(&v, mem_.data() + lanes[i].offset, lanes[i].size);
    values[i] = v;
  }
  ++loads_;
  return account(lanes, conflict_degree(lanes));
}

// Lanes writing the same address land in lane order, so the highest lane wins
// (CUDA leaves this undefined; a fixed order keeps runs reproducible).
Cycle SharedMemCore::store(std::span<const SmemLane> lanes, std::span<const uint64_t> values) {
  check(lanes, values.size());
  for (unsigned i = 0; i < lanes.size(); ++i)
    if (lanes[i].active) std::memcpy(mem_.data() + lanes[i].offset, &values[i], lanes[i].size);
  ++stores_;
  return account(lanes, conflict_degree(lanes));
}

Cycle SharedMemCore::atomic(std::span<const SmemLane> lanes, AtomicOp op, DataType type,
                            std::span<const uint64_t> operands, std::span<const uint64_t> compares,
                            std::span<uint64_t> old_values) {
  // Only CAS reads `compares`; other ops may pass an empty span.
  const bool cas = op == AtomicOp::Cas;
  check(lanes, std::min({operands.size(), old_values.size(), cas ? compares.size() : kMaxLanes}));
  if (!atomic_supported(op, type))
    throw std::invalid_argument("shared memory atomic " + std::string(to_string(op)) +
                                " is not defined on " + std::string(to_string(type)));
  for (unsigned i = 0; i < lanes.size(); ++i)
    if (lanes[i].active && lanes[i].size != size_of(type))
      throw std::invalid_argument("shared memory atomic lane " + std::to_string(i) +
                                  ": size does not match the data type");
  for (unsigned i = 0; i < lanes.size(); ++i)
    if (lanes[i].active)
      old_values[i] =
          apply_atomic(op, type, mem_.data() + lanes[i].offset, operands[i], cas ? compares[i] : 0);
  ++atomics_;
  return account(lanes, atomic_rounds(lanes));
}

} // namespace tlmgpu
