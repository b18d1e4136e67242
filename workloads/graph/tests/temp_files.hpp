// Test helper: a private temporary directory for hand-written input files,
// removed when the test ends, and the path of the shared real data.
#pragma once

#include <atomic>
#include <filesystem>
#include <fstream>
#include <string>

#include <unistd.h>

namespace tlmgpu::test {

inline std::string shared_data(const std::string& file) {
  return std::string(TLMGPU_SOURCE_DIR) + "/../shared/data/" + file;
}

class TempDir {
public:
  TempDir() {
    static std::atomic<unsigned> counter{0};
    // pid + counter: parallel test processes (ctest -j) must not share a directory.
    dir_ = std::filesystem::temp_directory_path() /
           ("tlmgpu_test_" + std::to_string(::getpid()) + "_" + std::to_string(counter++));
    std::filesystem::create_directories(dir_);
  }
  ~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(dir_, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  // Writes `content` byte for byte (binary mode: "\r\n" stays as written).
  std::string write(const std::string& name, const std::string& content) const {
    const std::string path = (dir_ / name).string();
    std::ofstream(path, std::ios::binary) << content;
    return path;
  }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }

private:
  std::filesystem::path dir_;
};

} // namespace tlmgpu::test
