#include "models/atomic_buffer/atomic_buffer_spec.hpp"

#include "tlmgpu/types.hpp"

#include <bit>
#include <string>

namespace tlmgpu {

void AtomicBufferSpec::derive() {
  if (level != "none" && level != "warp" && level != "scheduler")
    throw ConfigError("dab.level: unknown value '" + level + "'");
  if (flush_granularity != "gpu" && flush_granularity != "cluster")
    throw ConfigError("dab.flush_granularity: unknown value '" + flush_granularity + "'");
  if (keying == "group" && level != "scheduler")
    throw ConfigError("dab.keying = group needs dab.level = scheduler (a group's buffers are "
                      "shared by its warps, w mod dab.group_buffers)");
  // All-or-nothing insertion (notes §3.1 [R]): a full warp of distinct
  // addresses must fit an empty buffer, or that warp could never issue.
  if (entries < kDabLanes)
    throw ConfigError("dab.entries (" + std::to_string(entries) +
                      ") must be at least the warp size (" + std::to_string(kDabLanes) +
                      "), or a warp of distinct addresses can never issue");
  if (!std::has_single_bit(sector_bytes) || sector_bytes < 8)
    throw ConfigError("dab.sector_bytes (" + std::to_string(sector_bytes) +
                      ") must be a power of two of at least 8 (one 64-bit word)");
  if (offset_flush && offset_index >= entries)
    throw ConfigError("dab.offset_index (" + std::to_string(offset_index) +
                      ") must be below dab.entries (" + std::to_string(entries) +
                      ") when dab.offset_flush is true");
  // The limit-study variants relax one another in the paper's order
  // (§3.10): NR, then NR-OF, then NR-CIF. Reordering overlapping or
  // cluster-independent flushes is what the paper calls intractable.
  if (allow_overlap && reorder)
    throw ConfigError("dab.allow_overlap (DAB-NR-OF) needs dab.reorder = false: the reorder "
                      "unit handles one flush epoch at a time");
  if (release_order == "source_major" && !reorder)
    throw ConfigError("dab.release_order = source_major needs dab.reorder = true (without "
                      "reordering packets are applied in arrival order)");
  if (flush_granularity == "cluster" && (reorder || !allow_overlap))
    throw ConfigError("dab.flush_granularity = cluster (DAB-NR-CIF) needs dab.reorder = false "
                      "and dab.allow_overlap = true");
}

uint32_t dab_bytes_per_sm(const AtomicBufferSpec& s, uint32_t warp_slots, uint32_t schedulers) {
  if (!s.enabled()) return 0;
  const uint32_t buffers = s.level == "warp" ? warp_slots : schedulers;
  return buffers * s.entries * kDabEntryBytes;
}

} // namespace tlmgpu
