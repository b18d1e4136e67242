// What a DAB flush sends from an SM to an L2 sub-partition (notes §10.2
// FlushExt, pitfalls P10-P11). Kernel-free; shared by AtomicBufferCore (which
// makes the packets) and ReorderUnitCore (which orders them).
#pragma once

#include "tlmgpu/types.hpp"

#include <cstdint>
#include <functional>
#include <vector>

namespace tlmgpu {

// One buffer entry on its way to the ROP: apply_atomic(op, type, word at
// addr, operand). `entry` is the index the entry had in its buffer (tests,
// traces).
struct FlushOp {
  Addr addr = 0;
  AtomicOp op = AtomicOp::Add;
  DataType type = DataType::F32;
  uint64_t operand = 0;
  uint32_t entry = 0;
};

// One flush transaction: a single entry, or with flush coalescing every
// entry of one sector, applied in `ops` order. The header is set by the SM's
// flush engine (number_flush_stream), not by the buffer.
struct FlushPacket {
  uint64_t epoch = 0;
  // Whose round-robin turn the packet takes at the reorder unit: the SM, or
  // with dab.keying = group the CTA group. `port` is the SM that sends it
  // (and gets the acknowledgement).
  uint32_t sm = 0, port = 0;
  uint32_t seq = 0;       // index among this SM's packets to this sub-partition
  uint32_t partition = 0; // destination sub-partition
  Addr sector = 0;        // sector-aligned address of ops[0]
  std::vector<FlushOp> ops;
};

// Tags an SM's flush stream (the concatenation of its buffers' drains, in
// its fixed order) with epoch, SM and a per-partition sequence number, and
// returns how many packets go to each of `partitions` sub-partitions: the
// counts of the pre-flush messages (transactions, not entries: P10). Every
// op of a packet must map to the same partition (a sector never spans two);
// an op that does not, or a partition index out of range, throws
// InvariantError.
std::vector<uint32_t> number_flush_stream(std::vector<FlushPacket>& stream, uint64_t epoch,
                                          uint32_t sm, uint32_t partitions,
                                          const std::function<uint32_t(Addr)>& partition_of);

} // namespace tlmgpu
