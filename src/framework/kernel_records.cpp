#include "tlmgpu/kernel_records.hpp"
#include "tlmgpu/json_text.hpp"

namespace tlmgpu {

void KernelRecords::add(const std::string& name, uint64_t cycles, const nlohmann::json& metrics,
                        nlohmann::json stats) {
  if (kernels_.empty() && names_.empty())
    for (const auto& [k, v] : metrics.items())
      names_.push_back(k);
  Kernel k{name, cycles, {}};
  bool same = metrics.is_object() && metrics.size() == names_.size();
  if (same) {
    k.values.reserve(names_.size());
    size_t i = 0;
    for (const auto& [key, v] : metrics.items()) { // sorted keys, as names_
      if (key != names_[i++]) {
        same = false;
        break;
      }
      k.values.push_back(v);
    }
  }
  if (!same) {
    k.values.clear();
    odd_[kernels_.size()] = metrics;
  }
  if (!stats.is_null()) trees_[kernels_.size()] = std::move(stats);
  kernels_.push_back(std::move(k));
}

nlohmann::json KernelRecords::at(size_t i) const {
  const Kernel& k = kernels_.at(i);
  nlohmann::json j;
  j["name"] = k.name;
  j["cycles"] = k.cycles;
  if (auto it = odd_.find(i); it != odd_.end()) {
    j["metrics"] = it->second;
  } else {
    nlohmann::json& m = j["metrics"] = nlohmann::json::object();
    for (size_t n = 0; n < names_.size(); ++n)
      m[names_[n]] = k.values[n];
  }
  if (auto it = trees_.find(i); it != trees_.end()) j["stats"] = it->second;
  return j;
}

nlohmann::json KernelRecords::to_json() const {
  nlohmann::json a = nlohmann::json::array();
  for (size_t i = 0; i < kernels_.size(); ++i)
    a.push_back(at(i));
  return a;
}

void KernelRecords::append_json(std::string& out, int indent, unsigned depth) const {
  JsonNest a(out, '[', indent, depth);
  for (size_t i = 0; i < kernels_.size(); ++i) { // one kernel's JSON at a time
    a.element();
    tlmgpu::append_json(out, at(i), indent, a.inner());
  }
  a.close();
}

} // namespace tlmgpu
