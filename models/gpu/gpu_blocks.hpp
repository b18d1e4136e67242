// The GPU's block types for the builder (include/tlmgpu/sim/builder.hpp):
// sm, xbar, l2 and dram, each with its ports and factory, and the built-in
// memory-path stages (probe, lab).
#pragma once

namespace tlmgpu {

// Idempotent; called before a GPU is built and by the CLI's list/describe.
void register_gpu_blocks();

} // namespace tlmgpu
