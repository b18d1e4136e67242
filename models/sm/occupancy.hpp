// How many CTAs of a kernel fit on one SM at once, and which resource binds.
// Follows GPGPU-Sim's shader_core_config::max_cta (the simulator behind the
// LAB and DAB numbers): a block is padded to whole warps, and registers per
// thread are rounded up to a multiple of 4 before the register limit.
#pragma once

#include "models/sm/sm_spec.hpp"

#include <cstdint>
#include <string_view>

namespace tlmgpu {

struct KernelShape {
  uint32_t threads_per_block = 0;
  uint32_t regs_per_thread = 0;  // 0: registers do not limit
  uint32_t shared_per_block = 0; // static + dynamic shared memory, bytes
};

enum class OccupancyLimit : uint8_t { Threads, Warps, Ctas, Registers, SharedMemory };
std::string_view to_string(OccupancyLimit l);

struct OccupancyResult {
  uint32_t ctas_per_sm = 0;
  // The binding limit; on a tie, the first in OccupancyLimit order.
  OccupancyLimit limit = OccupancyLimit::Threads;
  uint32_t warps_per_cta = 0;
  // CTAs each resource alone would allow (UINT32_MAX when it does not limit).
  uint32_t by_threads = 0, by_warps = 0, by_ctas = 0, by_registers = 0, by_shared = 0;
};

// Throws std::invalid_argument (via check_launchable) if not even one CTA fits.
// shared_mem_bytes: the SM's shared memory as configured (shared_mem.bytes,
// less any carve-out a mechanism takes).
OccupancyResult occupancy(const SmSpec& sm, const KernelShape& k, uint32_t shared_mem_bytes);

// Throws std::invalid_argument with a message naming the parameter for a
// launch that can never run: no threads, more threads than a block may have,
// a block larger than the SM's threads/warps/registers, shared memory over the
// per-block limit or over what the SM has.
void check_launchable(const SmSpec& sm, const KernelShape& k, uint32_t shared_mem_bytes_available);

} // namespace tlmgpu
