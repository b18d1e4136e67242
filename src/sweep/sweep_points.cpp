// Point expansion and naming: the matrix in a fixed order, and a directory
// name per point that a person can read and that stays the same between
// invocations (resuming depends on it). Kernel-free.
#include "src/sweep/sweep_spec.hpp"

#include <set>

namespace tlmgpu::sweep {
namespace fs = std::filesystem;
namespace {

std::vector<std::string> unique_names(const std::vector<std::string>& raw) {
  std::vector<std::string> out;
  std::set<std::string> used;
  for (const std::string& s : raw) {
    std::string n = sanitize(s);
    for (int i = 2; used.count(n); ++i)
      n = sanitize(s) + "-" + std::to_string(i);
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

std::vector<Point> expand(const SweepSpec& s) {
  std::vector<std::string> plat_labels, config_labels, workload_labels;
  for (const std::string& p : s.platforms)
    plat_labels.push_back(p.find('/') != std::string::npos || fs::path(p).extension() == ".json"
                              ? fs::path(p).stem().string()
                              : p);
  for (const SweepConfig& c : s.configs)
    config_labels.push_back(c.label);
  for (const SweepWorkload& w : s.workloads)
    workload_labels.push_back(w.label);
  const auto plat_dirs = unique_names(plat_labels), config_dirs = unique_names(config_labels),
             workload_dirs = unique_names(workload_labels);

  std::vector<Point> points;
  for (std::size_t p = 0; p < s.platforms.size(); ++p)
    for (std::size_t c = 0; c < s.configs.size(); ++c)
      for (std::size_t w = 0; w < s.workloads.size(); ++w) {
        const SweepWorkload& wl = s.workloads[w];
        std::vector<std::string> raw;
        for (const std::string& in : wl.inputs)
          raw.push_back(input_name(in));
        const auto input_dirs = unique_names(raw);
        for (std::size_t i = 0; i < wl.inputs.size(); ++i)
          for (uint64_t seed : s.seeds) {
            Point pt;
            pt.platform = p, pt.config = c, pt.workload = w, pt.input = i, pt.seed = seed;
            const SweepConfig& cfg = s.configs[c];
            pt.timing = cfg.timing.empty() ? s.timing : cfg.timing;
            pt.dir = plat_dirs[p] + "/" + config_dirs[c] + "/" + workload_dirs[w] + "/" +
                     (wl.inputs[i].empty() ? "" : input_dirs[i] + "/") + "s" + std::to_string(seed);
            pt.args = {"run", "-p", s.platform_args[p]};
            for (const auto& [k, v] : cfg.sets)
              pt.args.insert(pt.args.end(), {"--set", k + "=" + v});
            pt.args.insert(pt.args.end(), {"-w", wl.workload});
            for (const auto& [k, v] : wl.args)
              pt.args.insert(pt.args.end(), {"--arg", k + "=" + v});
            if (!wl.inputs[i].empty())
              pt.args.insert(pt.args.end(), {"--input", wl.resolved_inputs[i]});
            pt.args.insert(pt.args.end(), {"--seed", std::to_string(seed), "--timing", pt.timing});
            points.push_back(std::move(pt));
          }
      }
  return points;
}

} // namespace tlmgpu::sweep
