// `tlmgpu report`'s results reader against arbitrary bytes: fuzz_targets.hpp,
// results_text.
#include "fuzz_targets.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  tlmgpu::fuzz::results_text(std::string(reinterpret_cast<const char*>(data), size));
  return 0;
}
