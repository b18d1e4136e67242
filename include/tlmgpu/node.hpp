// A node: several GPUs in one simulation, each a full platform with its own
// memory (issue 12 item 4). A node file names the GPUs' platform files:
//
//   { "name": "tiny-x2", "description": "...",
//     "node": { "gpus": [ { "platform": "tiny.json", "count": 2 } ] } }
//
// Platform paths are relative to the node file; --set applies to every GPU.
// Without more, the host drives each GPU through its own stream, copies
// untimed, each GPU running its own workload.
//
// A runtime node (seed-004, the LC-MEMENTO platform) adds "fabric" (points,
// host memories and links), and optionally "host", "runtime", "gpu_time",
// "uvm" and "gpu_model" parameter groups: its GPUs then run one
// task-runtime program together (models/node, models/runtime,
// workloads/node_apps), each GPU the kernel-time model or, with
// gpu_model.kind = full, the full GPU model of its platform (gpu_model.platform
// replaces the gpus[] platforms). A node file may "extends" another (objects
// merge key by key, arrays are replaced); --set keys under host., runtime.,
// gpu_time., uvm., gpu_model. and fabric.chunk_bytes go to the node, the
// others to every GPU's platform.
#pragma once

#include "models/node/node_spec.hpp"
#include "tlmgpu/platform.hpp"

#include <nlohmann/json_fwd.hpp>

#include <string>
#include <vector>

namespace tlmgpu {

struct NodeSpec {
  std::string name, description;
  std::vector<PlatformSpec> gpus;     // device i
  std::vector<std::string> gpu_files; // the platform file of device i
  bool runtime_node = false;          // has a fabric: runs a task-runtime program
  NodeRuntimeSpec runtime;            // runtime nodes only
};

// The node parameters with their values, nested by group, plus the fabric.
nlohmann::json effective_node_config(const NodeRuntimeSpec& spec);

// True when `path` is a JSON object with a top-level "node" key (anything
// else, including unreadable files, is left to load_platform to report).
bool is_node_file(const std::string& path);
// Reads and checks a node file; ConfigError naming the file and key.
NodeSpec load_node(const std::string& path, const std::vector<std::string>& sets = {});

} // namespace tlmgpu
