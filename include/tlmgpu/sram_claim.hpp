// Bytes of an SM's unified L1/shared SRAM that a memory-path stage takes from
// the L1 data cache (the LAB's lines), with the parameters that set them, so
// that a split that does not fit names them. Kernel-free.
#pragma once

#include <cstdint>
#include <string>

namespace tlmgpu {

struct SramClaim {
  uint32_t bytes = 0;
  std::string what; // e.g. "the LAB (lab.entries x lab.line_bytes = 64 x 128 = 8192 B)"
};

} // namespace tlmgpu
