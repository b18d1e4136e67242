// One graph reader (TLMGPU_FUZZ_READER picks which, fuzz/CMakeLists.txt)
// against arbitrary bytes: fuzz_targets.hpp, graph_file.
#include "fuzz_input.hpp"
#include "fuzz_targets.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string path = tlmgpu::fuzz::write_input(data, size, TLMGPU_FUZZ_SUFFIX);
  // The first byte's low bit picks the build policy, so symmetrize/dedup run too.
  tlmgpu::fuzz::graph_file(&tlmgpu::graph::TLMGPU_FUZZ_READER, path, size > 0 && (data[0] & 1));
  return 0;
}
