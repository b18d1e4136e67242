#include "models/sm/sram_split.hpp"

#include "tlmgpu/params.hpp"

#include <array>
#include <string>

namespace tlmgpu {

namespace {
std::string str(int64_t v) {
  return std::to_string(v);
}
} // namespace

SramSplit sram_split(const L1Spec& l1, const SramClaim& claim, uint32_t smem_used_bytes,
                     uint32_t unified_bytes) {
  constexpr uint32_t KB = 1024;
  SramSplit out;
  out.claimed_bytes = claim.bytes;
  int64_t cache = 0; // L1 + LAB bytes before the baselines' adjustments
  if (l1.carveout == "fixed") {
    if (l1.bytes > unified_bytes)
      throw ConfigError("l1.bytes (" + str(l1.bytes) + ") exceeds sm.unified_sram_bytes (" +
                        str(unified_bytes) + ")");
    out.smem_bytes = unified_bytes - l1.bytes;
    if (smem_used_bytes > out.smem_bytes)
      throw ConfigError("shared memory used by the resident CTAs (" + str(smem_used_bytes) +
                        " B) exceeds what l1.carveout = fixed leaves (" + str(out.smem_bytes) +
                        " B = sm.unified_sram_bytes - l1.bytes)");
    cache = l1.bytes;
  } else {
    constexpr std::array<uint32_t, 6> kSteps{0, 8 * KB, 16 * KB, 32 * KB, 64 * KB, 96 * KB};
    bool found = false;
    for (uint32_t step : kSteps)
      if (smem_used_bytes <= step && step <= unified_bytes) {
        out.smem_bytes = step;
        found = true;
        break;
      }
    if (!found)
      throw ConfigError("shared memory used by the resident CTAs (" + str(smem_used_bytes) +
                        " B) exceeds the largest Volta carve-out that fits "
                        "sm.unified_sram_bytes (" +
                        str(unified_bytes) + " B)");
    cache = unified_bytes - out.smem_bytes;
  }
  // Cache*2, Cache-8KB, Cache+8KB: hypothetical L1 sizes, not bound by the SRAM.
  cache = cache * l1.size_factor + l1.carveout_adjust_bytes;
  if (cache < 0)
    throw ConfigError("l1.carveout_adjust_bytes (" + str(l1.carveout_adjust_bytes) +
                      ") leaves a negative L1 size");
  if (out.claimed_bytes > cache)
    throw ConfigError(claim.what + " does not fit in the L1's " + str(cache) +
                      " B (l1.carveout = " + l1.carveout + ", shared memory " +
                      str(out.smem_bytes) + " B)");
  const uint64_t way_bytes = uint64_t(l1.sets) * l1.line_bytes;
  out.l1_ways = way_bytes == 0 ? 0 : uint32_t((cache - out.claimed_bytes) / way_bytes);
  out.l1_bytes = uint32_t(out.l1_ways * way_bytes);
  return out;
}

} // namespace tlmgpu
