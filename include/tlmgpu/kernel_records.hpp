// The per-kernel sections of a run (stats.json "kernels": name, cycles,
// metrics), kept compact so that a run's memory does not grow with its
// launches by more than about a kilobyte each: the metric names, the same
// for every kernel (compute_metrics), are stored once and each kernel keeps
// a vector of values. A JSON object per kernel took about 6 KB.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace tlmgpu {

class KernelRecords {
public:
  // `stats`: the kernel's whole stats tree, kept only when not null (for
  // in-process readers; the CLI streams trees to kernels.jsonl instead).
  void add(const std::string& name, uint64_t cycles, const nlohmann::json& metrics,
           nlohmann::json stats = nullptr);
  size_t size() const { return kernels_.size(); }
  bool empty() const { return kernels_.empty(); }
  nlohmann::json at(size_t i) const; // {"cycles", "metrics", "name"[, "stats"]}
  nlohmann::json to_json() const;    // the whole array

  // Appends to_json() as tlmgpu/json_text.hpp's append_json would, but one
  // kernel's JSON at a time (a run of 10,000 launches never holds them all
  // as JSON): stats.json's "kernels", spliced in (JsonSplice).
  void append_json(std::string& out, int indent, unsigned depth) const;

private:
  struct Kernel {
    std::string name;
    uint64_t cycles;
    // In names_ order; JSON values keep each number's type (16 bytes each,
    // no allocation); empty when odd_ holds the kernel's metrics.
    std::vector<nlohmann::json> values;
  };
  std::vector<std::string> names_; // metric names, from the first kernel
  std::vector<Kernel> kernels_;
  std::map<size_t, nlohmann::json> odd_;   // metrics whose names differ from names_ (never so far)
  std::map<size_t, nlohmann::json> trees_; // kept stats trees
};

} // namespace tlmgpu
