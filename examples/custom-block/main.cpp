// tlmgpu-custom: the whole tlmgpu command line (run, list, describe, sweep,
// report, ...) with one more block. Registration is explicit, before
// cli_main parses anything, for the reason the built-in blocks' is
// (models/gpu/gpu_blocks.cpp): a static registrar object in a static library
// would be dropped by the linker.
#include "request_counter.hpp"

#include "tlmgpu/app/cli.hpp"

int main(int argc, char** argv) {
  tlmgpu::register_stage(custom::request_counter_stage_type());
  return tlmgpu::cli_main(argc, argv);
}
