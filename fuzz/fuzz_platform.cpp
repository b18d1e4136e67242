// The platform reader against arbitrary bytes: fuzz_targets.hpp, platform_file.
#include "fuzz_input.hpp"
#include "fuzz_targets.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  tlmgpu::fuzz::platform_file(tlmgpu::fuzz::write_input(data, size, ".json"));
  return 0;
}
