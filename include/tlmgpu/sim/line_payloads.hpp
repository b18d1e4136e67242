// Payloads a cache makes for itself: a fill (read of some sectors of a line)
// and a write-back (byte-enabled write of a line's dirty bytes). Shared by
// every cache module so the two look the same on the wire everywhere.
#pragma once

#include "tlmgpu/cache_array.hpp"
#include "tlmgpu/sim/payload.hpp"

namespace tlmgpu {

GpuPayload* make_fill_payload(PayloadPool& pool, Addr line, uint32_t sectors, unsigned line_bytes,
                              uint16_t src_sm);
GpuPayload* make_write_back_payload(PayloadPool& pool, const Writeback& wb, unsigned line_bytes,
                                    unsigned sector_bytes, uint16_t src_sm);

} // namespace tlmgpu
