// Point expansion and naming: the matrix in a fixed order, and a directory
// name per point that a person can read and that stays the same between
// invocations (resuming depends on it). Kernel-free.
#include "src/sweep/sweep_spec.hpp"

#include "tlmgpu/config.hpp"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

namespace tlmgpu::sweep {
namespace fs = std::filesystem;
namespace {

// Linear in the names: the next suffix to try is remembered per base name
// (10^6 inputs with one base name would otherwise be quadratic).
std::vector<std::string> unique_names(const std::vector<std::string>& raw) {
  std::vector<std::string> out;
  std::unordered_set<std::string> used;
  std::unordered_map<std::string, int> next;
  for (const std::string& s : raw) {
    const std::string base = sanitize(s);
    std::string n = base;
    for (int& i = next.try_emplace(base, 2).first->second; used.count(n); ++i)
      n = base + "-" + std::to_string(i);
    used.insert(n);
    out.push_back(n);
  }
  return out;
}

} // namespace

bool has_scheme(const std::string& s) {
  const auto colon = s.find(':');
  if (colon == std::string::npos || colon < 2) return false;
  for (std::size_t i = 0; i < colon; ++i)
    if (s[i] < 'a' || s[i] > 'z') return false;
  return true;
}

std::string sanitize(const std::string& label) {
  std::string out;
  for (char c : label) {
    const bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                      c == '.' || c == '_' || c == '+' || c == '-';
    if (keep)
      out += c;
    else if (out.empty() || out.back() != '_')
      out += '_';
  }
  if (out.empty() || out == "." || out == "..") out = "_" + out;
  return out;
}

std::string input_name(const std::string& input) {
  if (input.empty()) return "";
  if (input.rfind("gen:", 0) == 0) {
    std::string out;
    for (char c : input.substr(4))
      if (c == '?' || c == '&')
        out += '-';
      else if (c != '=')
        out += c;
    return sanitize(out);
  }
  const bool scheme = has_scheme(input) && input != "gen";
  const std::string rest = scheme ? input.substr(input.find(':') + 1) : input;
  const std::string stem = fs::path(rest).stem().string();
  return sanitize(scheme ? input.substr(0, input.find(':')) + "-" + stem : stem);
}

PointSpace::PointSpace(const SweepSpec& s) : spec_(s) {
  std::vector<std::string> plat_labels, config_labels, workload_labels;
  for (const std::string& p : s.platforms)
    plat_labels.push_back(p.find('/') != std::string::npos || fs::path(p).extension() == ".json"
                              ? fs::path(p).stem().string()
                              : p);
  for (const SweepConfig& c : s.configs)
    config_labels.push_back(c.label);
  for (const SweepWorkload& w : s.workloads) {
    workload_labels.push_back(w.label);
    std::vector<std::string> raw;
    for (const std::string& in : w.inputs)
      raw.push_back(input_name(in));
    input_dirs_.push_back(unique_names(raw));
  }
  plat_dirs_ = unique_names(plat_labels);
  config_dirs_ = unique_names(config_labels);
  workload_dirs_ = unique_names(workload_labels);
  // Sizes multiply; a spec past 2^63 points is refused rather than wrapped.
  const auto mul = [&](std::size_t a, std::size_t b) {
    std::size_t r = 0;
    if (__builtin_mul_overflow(a, b, &r) || r > (std::size_t(1) << 63))
      throw ConfigError(s.file + ": the matrix has more than 2^63 points");
    return r;
  };
  for (const SweepWorkload& w : s.workloads) {
    first_.push_back(block_);
    block_ += mul(w.inputs.size(), s.seeds.size());
  }
  size_ = mul(mul(s.platforms.size(), s.configs.size()), block_);
}

Point PointSpace::at(std::size_t k) const {
  const SweepSpec& s = spec_;
  Point pt;
  pt.platform = k / (block_ * s.configs.size());
  pt.config = k / block_ % s.configs.size();
  const std::size_t r = k % block_;
  pt.workload = std::size_t(std::upper_bound(first_.begin(), first_.end(), r) - first_.begin()) - 1;
  const std::size_t in_wl = r - first_[pt.workload];
  pt.input = in_wl / s.seeds.size();
  pt.seed = s.seeds[in_wl % s.seeds.size()];
  const SweepConfig& cfg = s.configs[pt.config];
  const SweepWorkload& wl = s.workloads[pt.workload];
  pt.timing = cfg.timing.empty() ? s.timing : cfg.timing;
  pt.dir = plat_dirs_[pt.platform] + "/" + config_dirs_[pt.config] + "/" +
           workload_dirs_[pt.workload] + "/" +
           (wl.inputs[pt.input].empty() ? "" : input_dirs_[pt.workload][pt.input] + "/") + "s" +
           std::to_string(pt.seed);
  pt.args = {"run", "-p", s.platform_args[pt.platform]};
  for (const auto& [key, v] : cfg.sets)
    pt.args.insert(pt.args.end(), {"--set", key + "=" + v});
  pt.args.insert(pt.args.end(), {"-w", wl.workload});
  for (const auto& [key, v] : wl.args)
    pt.args.insert(pt.args.end(), {"--arg", key + "=" + v});
  for (const auto& [key, v] : cfg.args)
    pt.args.insert(pt.args.end(), {"--arg", key + "=" + v});
  if (!wl.inputs[pt.input].empty())
    pt.args.insert(pt.args.end(), {"--input", wl.resolved_inputs[pt.input]});
  pt.args.insert(pt.args.end(), {"--seed", std::to_string(pt.seed), "--timing", pt.timing});
  return pt;
}

std::vector<Point> expand(const SweepSpec& s) {
  const PointSpace space(s);
  std::vector<Point> points;
  points.reserve(space.size());
  for (std::size_t k = 0; k < space.size(); ++k)
    points.push_back(space.at(k));
  return points;
}

} // namespace tlmgpu::sweep
