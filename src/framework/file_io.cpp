#include "tlmgpu/file_io.hpp"

#include <fstream>
#include <stdexcept>
#include <system_error>

namespace tlmgpu {

void write_file_atomic(const std::filesystem::path& path, const std::string& text) {
  const std::filesystem::path tmp = path.string() + ".tmp";
  {
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    if (!f) throw std::runtime_error("cannot write " + tmp.string());
    f << text;
    if (!f.flush()) throw std::runtime_error("cannot write " + tmp.string());
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) throw std::runtime_error("cannot write " + path.string() + ": " + ec.message());
}

} // namespace tlmgpu
