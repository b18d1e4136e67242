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

void KernelRecords::write_into(std::string& out, const nlohmann::json& doc) const {
  // doc's members and "kernels" in key order (an object's map order), each
  // written at depth 2 as nlohmann nests them; doc itself is not touched
  // (a copy of a titanv stats tree cost as much as writing it).
  static const nlohmann::json::object_t none;
  const auto& members = doc.is_null() ? none : doc.get_ref<const nlohmann::json::object_t&>();
  const std::string key = "kernels";
  bool first = true;
  const auto begin_member = [&](const std::string& name) {
    out += first ? "{\n  " : ",\n  ";
    first = false;
    append_json_string(out, name);
    out += ": ";
  };
  const auto kernels_member = [&] {
    begin_member(key);
    if (kernels_.empty()) {
      out += "[]";
      return;
    }
    out += "[\n";
    for (size_t i = 0; i < kernels_.size(); ++i) { // one kernel's JSON at a time
      out += i ? ",\n    " : "    ";
      append_json(out, at(i), 2, 4);
    }
    out += "\n  ]";
  };
  bool placed = false;
  for (const auto& [name, value] : members) {
    if (!placed && name >= key) {
      kernels_member();
      placed = true;
      if (name == key) continue; // replaced, as doc["kernels"] = ... would
    }
    begin_member(name);
    append_json(out, value, 2, 2);
  }
  if (!placed) kernels_member();
  out += "\n}";
}

} // namespace tlmgpu
