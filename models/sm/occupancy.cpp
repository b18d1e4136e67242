#include "models/sm/occupancy.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>

namespace tlmgpu {

namespace {

constexpr uint32_t kUnlimited = std::numeric_limits<uint32_t>::max();

uint32_t warps_of(const SmSpec& sm, const KernelShape& k) {
  return uint32_t((uint64_t(k.threads_per_block) + sm.warp_size - 1) / sm.warp_size);
}

// Registers one block holds: whole warps, registers rounded up to 4 per thread.
uint64_t block_registers(const SmSpec& sm, const KernelShape& k) {
  const uint64_t padded_threads = uint64_t(warps_of(sm, k)) * sm.warp_size;
  return padded_threads * ((uint64_t(k.regs_per_thread) + 3) & ~uint64_t(3));
}

std::string block(const KernelShape& k) {
  return "block of " + std::to_string(k.threads_per_block) + " threads";
}

} // namespace

std::string_view to_string(OccupancyLimit l) {
  switch (l) {
  case OccupancyLimit::Threads:
    return "threads";
  case OccupancyLimit::Warps:
    return "warps";
  case OccupancyLimit::Ctas:
    return "ctas";
  case OccupancyLimit::Registers:
    return "registers";
  case OccupancyLimit::SharedMemory:
    return "shared_memory";
  }
  return "?";
}

void check_launchable(const SmSpec& sm, const KernelShape& k, uint32_t shared_mem_bytes_available) {
  auto fail = [](const std::string& m) { throw std::invalid_argument(m); };
  if (k.threads_per_block == 0) fail("block of 0 threads: a launch needs at least one thread");
  if (k.threads_per_block > sm.max_threads_per_block)
    fail(block(k) +
         " exceeds sm.max_threads_per_block = " + std::to_string(sm.max_threads_per_block));
  const uint32_t warps = warps_of(sm, k);
  if (uint64_t(warps) * sm.warp_size > sm.max_threads)
    fail(block(k) + " (" + std::to_string(warps) + " warps of " + std::to_string(sm.warp_size) +
         ") exceeds sm.max_threads = " + std::to_string(sm.max_threads));
  if (warps > sm.max_warps)
    fail(block(k) + " needs " + std::to_string(warps) +
         " warps, exceeds sm.max_warps = " + std::to_string(sm.max_warps));
  const uint64_t regs = block_registers(sm, k);
  if (regs > sm.registers)
    fail(block(k) + " with " + std::to_string(k.regs_per_thread) + " registers per thread needs " +
         std::to_string(regs) +
         " registers, exceeds sm.registers = " + std::to_string(sm.registers));
  if (k.shared_per_block > sm.max_shared_per_block)
    fail("block uses " + std::to_string(k.shared_per_block) +
         " bytes of shared memory, exceeds sm.max_shared_per_block = " +
         std::to_string(sm.max_shared_per_block));
  if (k.shared_per_block > shared_mem_bytes_available)
    fail("block uses " + std::to_string(k.shared_per_block) +
         " bytes of shared memory, exceeds the " + std::to_string(shared_mem_bytes_available) +
         " bytes of shared memory the SM has");
}

OccupancyResult occupancy(const SmSpec& sm, const KernelShape& k, uint32_t shared_mem_bytes) {
  check_launchable(sm, k, shared_mem_bytes);
  OccupancyResult r;
  r.warps_per_cta = warps_of(sm, k);
  r.by_threads = uint32_t(sm.max_threads / (uint64_t(r.warps_per_cta) * sm.warp_size));
  r.by_warps = sm.max_warps / r.warps_per_cta;
  r.by_ctas = sm.max_ctas;
  r.by_registers = k.regs_per_thread ? uint32_t(sm.registers / block_registers(sm, k)) : kUnlimited;
  r.by_shared = k.shared_per_block ? shared_mem_bytes / k.shared_per_block : kUnlimited;
  const std::pair<uint32_t, OccupancyLimit> limits[] = {
      {r.by_threads, OccupancyLimit::Threads},
      {r.by_warps, OccupancyLimit::Warps},
      {r.by_ctas, OccupancyLimit::Ctas},
      {r.by_registers, OccupancyLimit::Registers},
      {r.by_shared, OccupancyLimit::SharedMemory}};
  r.ctas_per_sm = kUnlimited;
  for (const auto& [n, which] : limits)
    if (n < r.ctas_per_sm) r.ctas_per_sm = n, r.limit = which;
  return r;
}

} // namespace tlmgpu
