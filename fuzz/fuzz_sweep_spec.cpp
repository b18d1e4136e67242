// The sweep-spec reader against arbitrary bytes: fuzz_targets.hpp, sweep_spec_text.
#include "fuzz_targets.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  tlmgpu::fuzz::sweep_spec_text(std::string(reinterpret_cast<const char*>(data), size));
  return 0;
}
