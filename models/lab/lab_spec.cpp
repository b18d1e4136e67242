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

SramClaim lab_sram_claim(const LabSpec& s) {
  const uint32_t b = lab_bytes(s);
  return {b, "the LAB (lab.entries x lab.line_bytes = " + std::to_string(s.entries) + " x " +
                 std::to_string(s.line_bytes) + " = " + std::to_string(b) + " B)"};
}

} // namespace tlmgpu
