#include "tlmgpu/kernel_records.hpp"

#include <sstream>

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

void KernelRecords::write_into(std::ostream& out, nlohmann::json doc) const {
  // A placeholder no real value can equal; its dumped form is replaced by
  // the array, written kernel by kernel at the array's nesting (depth 1).
  static const std::string kMark = "\x01tlmgpu-kernels\x01";
  doc["kernels"] = kMark;
  const std::string text = doc.dump(2);
  const std::string mark = nlohmann::json(kMark).dump();
  const size_t at_mark = text.find(mark);
  if (at_mark == std::string::npos) { // cannot happen: the key was just set
    out << text;
    return;
  }
  out.write(text.data(), std::streamsize(at_mark));
  if (kernels_.empty()) {
    out << "[]";
  } else {
    out << "[\n";
    for (size_t i = 0; i < kernels_.size(); ++i) {
      std::istringstream lines(at(i).dump(2));
      std::string line;
      bool first = true;
      while (std::getline(lines, line)) {
        if (!first) out << '\n';
        out << "    " << line;
        first = false;
      }
      out << (i + 1 < kernels_.size() ? ",\n" : "\n");
    }
    out << "  ]";
  }
  const size_t rest = at_mark + mark.size();
  out.write(text.data() + rest, std::streamsize(text.size() - rest));
}

} // namespace tlmgpu
