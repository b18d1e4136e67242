// A node app is what `tlmgpu run -p <runtime node> -w NAME` runs: a program
// for the task runtime (models/runtime) that creates DataBlocks and tasks
// from the host's driver thread, and after the simulation checks its result
// against a CPU reference (README.md).
#pragma once

#include "models/node/node_host_module.hpp"
#include "workloads/workload.hpp"

#include <nlohmann/json.hpp>

#include <functional>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

namespace tlmgpu {

class NodeApp {
public:
  virtual ~NodeApp() = default;
  virtual void program(NodeDriver& d) = 0;
  // "" on success, else the first mismatch; a short summary to `out`.
  virtual std::string check(rt::Runtime& rt, std::ostream& out) = 0;
  // The app's own results (bandwidth, GUPS, levels) for stats.json.
  virtual nlohmann::json metrics() const { return nlohmann::json::object(); }
  // "" when every GPU task has a real kernel (TaskSpec::kernel) and real
  // data, so the node's GPUs may be the full GPU model; else why not.
  virtual std::string full_gpu_refusal() const {
    return "it has no real kernels yet (only the kernel-time model runs it)";
  }
};

struct NodeAppEntry {
  WorkloadInfo info;
  std::function<std::unique_ptr<NodeApp>(const WorkloadArgs&)> make;
};

const std::vector<NodeAppEntry>& node_app_registry();
const NodeAppEntry& find_node_app(const std::string& name); // ConfigError with suggestion

// The registered apps (each file's factory).
NodeAppEntry stream_tasks_entry();
NodeAppEntry bfs_tasks_entry();
NodeAppEntry gups_tasks_entry();
NodeAppEntry lc_semantics_entry();

} // namespace tlmgpu
