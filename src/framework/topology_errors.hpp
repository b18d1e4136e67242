// Error helpers shared by the topology reader's files (src/framework/topology*.cpp).
#pragma once

#include "tlmgpu/config.hpp"

#include <string>
#include <vector>

namespace tlmgpu::topology_detail {

[[noreturn]] inline void fail(const std::string& origin, const std::string& where,
                              const std::string& msg) {
  throw ConfigError((origin.empty() ? "" : origin + ": ") + where + ": " + msg);
}

inline std::string did_you_mean(const std::string& name, const std::vector<std::string>& options) {
  const std::string m = closest_match(name, options);
  return m.empty() ? "" : " (did you mean '" + m + "'?)";
}

inline std::string listing(const std::vector<std::string>& names) {
  std::string s;
  for (const std::string& n : names)
    s += (s.empty() ? "" : ", ") + n;
  return s;
}

} // namespace tlmgpu::topology_detail
