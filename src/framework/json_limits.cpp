#include "tlmgpu/json_limits.hpp"

#include <fstream>
#include <sstream>

namespace tlmgpu {

void throw_json_too_deep(const std::string& shown) {
  throw ConfigError((shown.empty() ? "" : shown + ": ") + "JSON nested deeper than " +
                    std::to_string(kMaxJsonDepth) + " levels (the limit)");
}

bool read_text_file(const std::string& path, std::string& text) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return false;
  std::ostringstream s;
  s << f.rdbuf();
  if (f.bad()) return false;
  text = std::move(s).str();
  return true;
}

} // namespace tlmgpu
