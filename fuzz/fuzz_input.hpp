// Shared by the libFuzzer harnesses: the readers under test take a path, so
// each input is written to one file per process (in /dev/shm when it exists:
// no disk traffic at tens of thousands of inputs a second).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <unistd.h>

namespace tlmgpu::fuzz {

inline std::string write_input(const uint8_t* data, size_t size, const std::string& suffix) {
  static const std::string dir = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
  const std::string path = dir + "/tlmgpu-fuzz-" + std::to_string(getpid()) + suffix;
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (!f || std::fwrite(data, 1, size, f) != size || std::fclose(f) != 0) std::abort();
  return path;
}

} // namespace tlmgpu::fuzz
