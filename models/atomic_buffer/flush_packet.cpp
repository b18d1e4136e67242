#include "models/atomic_buffer/flush_packet.hpp"

#include "tlmgpu/invariant.hpp"

namespace tlmgpu {

std::vector<uint32_t> number_flush_stream(std::vector<FlushPacket>& stream, uint64_t epoch,
                                          uint32_t sm, uint32_t partitions,
                                          const std::function<uint32_t(Addr)>& partition_of) {
  std::vector<uint32_t> counts(partitions, 0);
  for (FlushPacket& p : stream) {
    TLMGPU_CHECK(!p.ops.empty());
    const uint32_t part = partition_of(p.ops.front().addr);
    TLMGPU_CHECK(part < partitions);
    for (const FlushOp& op : p.ops)
      TLMGPU_CHECK(partition_of(op.addr) == part);
    p.epoch = epoch;
    p.sm = p.port = sm;
    p.partition = part;
    p.seq = counts[part]++;
  }
  return counts;
}

} // namespace tlmgpu
