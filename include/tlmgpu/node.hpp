// A node: several GPUs in one simulation, each a full platform with its own
// memory (issue 12 item 4). A node file names the GPUs' platform files:
//
//   { "name": "tiny-x2", "description": "...",
//     "node": { "gpus": [ { "platform": "tiny.json", "count": 2 } ] } }
//
// Platform paths are relative to the node file; --set applies to every GPU.
// Links between GPUs and a host fabric come with the multi-GPU issue; today
// the host drives each GPU through its own stream, copies untimed.
#pragma once

#include "tlmgpu/platform.hpp"

#include <string>
#include <vector>

namespace tlmgpu {

struct NodeSpec {
  std::string name, description;
  std::vector<PlatformSpec> gpus;     // device i
  std::vector<std::string> gpu_files; // the platform file of device i
};

// True when `path` is a JSON object with a top-level "node" key (anything
// else, including unreadable files, is left to load_platform to report).
bool is_node_file(const std::string& path);
// Reads and checks a node file; ConfigError naming the file and key.
NodeSpec load_node(const std::string& path, const std::vector<std::string>& sets = {});

} // namespace tlmgpu
