#include "models/lab/lab_spec.hpp"

#include "tlmgpu/types.hpp"

#include <array>
#include <string>

namespace tlmgpu {

namespace {

std::string str(uint64_t v) {
  return std::to_string(v);
}
bool pow2(uint64_t v) {
  return v != 0 && (v & (v - 1)) == 0;
}

} // namespace

void LabSpec::derive() {
  if (!pow2(line_bytes) || line_bytes > kMaxLineBytes)
    throw ConfigError("lab.line_bytes (" + str(line_bytes) +
                      ") must be a power of two <= " + str(kMaxLineBytes));
  if (!pow2(sector_bytes) || sector_bytes > line_bytes)
    throw ConfigError("lab.sector_bytes (" + str(sector_bytes) +
                      ") must be a power of two dividing lab.line_bytes (" + str(line_bytes) + ")");
  sectors_per_line = line_bytes / sector_bytes;
  if (sectors_per_line > 32)
    throw ConfigError("lab.line_bytes / lab.sector_bytes = " + str(sectors_per_line) +
                      " sectors per line; at most 32 are supported");
  sets = assoc = 0;
  if (infinite) {
    if (entries != 0)
      throw ConfigError("lab.entries (" + str(entries) +
                        ") must be 0 when lab.infinite is true (an infinite LAB has no size)");
    return;
  }
  if (entries == 0) return;
  assoc = (ways == 0 || ways == entries) ? entries : ways;
  if (entries % assoc != 0)
    throw ConfigError("lab.entries (" + str(entries) + ") must be a multiple of lab.ways (" +
                      str(ways) + "); use lab.ways = 0 for a fully associative LAB");
  sets = entries / assoc;
  // The set index is a bit field of the line address, as in the L1.
  if (!pow2(sets))
    throw ConfigError("lab.entries / lab.ways = " + str(entries) + " / " + str(assoc) + " = " +
                      str(sets) + " sets; must be a power of two");
}

uint32_t lab_bytes(const LabSpec& s) {
  return s.infinite ? 0 : s.entries * s.line_bytes;
}

SramSplit sram_split(const LabSpec& s, uint32_t smem_used_bytes, uint32_t unified_bytes) {
  constexpr uint32_t KB = 1024;
  SramSplit out;
  out.lab_bytes = lab_bytes(s);
  if (s.l1_split == "fixed_32k") {
    if (unified_bytes < 32 * KB)
      throw ConfigError("lab.l1_split = fixed_32k needs sm.unified_sram_bytes >= 32768 (got " +
                        str(unified_bytes) + ")");
    out.smem_bytes = unified_bytes - 32 * KB;
    if (smem_used_bytes > out.smem_bytes)
      throw ConfigError("shared memory used (" + str(smem_used_bytes) +
                        " B) exceeds the fixed_32k carve-out (" + str(out.smem_bytes) + " B)");
  } else if (s.l1_split == "volta_adaptive") {
    // CUDA Volta shared-memory capacities; GPGPU-Sim picks the smallest that
    // holds what the resident CTAs use (L1 steps 128/120/112/96/64/32 KB).
    constexpr std::array<uint32_t, 6> kSteps{0, 8 * KB, 16 * KB, 32 * KB, 64 * KB, 96 * KB};
    bool found = false;
    for (uint32_t step : kSteps)
      if (smem_used_bytes <= step && step <= unified_bytes) {
        out.smem_bytes = step;
        found = true;
        break;
      }
    if (!found)
      throw ConfigError(
          "shared memory used (" + str(smem_used_bytes) +
          " B) exceeds the largest Volta carve-out that fits sm.unified_sram_bytes (" +
          str(unified_bytes) + " B)");
  } else {
    throw ConfigError("lab.l1_split: unknown value '" + s.l1_split + "'");
  }
  const uint32_t l1 = unified_bytes - out.smem_bytes;
  if (out.lab_bytes > l1)
    throw ConfigError(
        "lab.entries x lab.line_bytes = " + str(s.entries) + " x " + str(s.line_bytes) + " = " +
        str(out.lab_bytes) + " B does not fit in the L1's " + str(l1) +
        " B (lab.l1_split = " + s.l1_split + ", shared memory " + str(out.smem_bytes) + " B)");
  out.l1_bytes = l1 - out.lab_bytes;
  return out;
}

uint32_t l1_bytes_left(const LabSpec& s, uint32_t smem_used_bytes, uint32_t unified_bytes) {
  return sram_split(s, smem_used_bytes, unified_bytes).l1_bytes;
}

} // namespace tlmgpu
