// The boundary between the command line and the simulator: what a run needs,
// and the registry of workloads `tlmgpu list` shows.
#pragma once

#include "tlmgpu/node.hpp"
#include "tlmgpu/platform.hpp"
#include "tlmgpu/sim/trace.hpp"
#include "tlmgpu/types.hpp"
#include "workloads/workload.hpp"

#include <cstdint>
#include <map>
#include <ostream>
#include <string>
#include <vector>

namespace tlmgpu {

struct RunOptions {
  PlatformSpec platform;                   // already loaded and validated
  std::string platform_path;               // for the record in config.json
  std::string workload;                    // registry name
  std::map<std::string, std::string> args; // --arg k=v
  TimingMode timing = TimingMode::LT;
  uint64_t seed = 1;
  std::string out_dir = "out";
  bool quiet = false; // no human summary on stdout
  // A node platform (tlmgpu/node.hpp): several GPUs; `platform` is unused.
  // `workload` is one name for every GPU or one per GPU ("histogram,stream");
  // an --arg "gpu<i>.k=v" goes to GPU i only, a plain one to every GPU.
  NodeSpec node;
  // --trace FILE (path empty: off), --trace-window, --trace-sample; the
  // clock is filled in from device 0's platform.
  TraceOptions trace;
  // --kernel-stats: per-kernel sections of stats.json hold the flat metrics
  // (Metrics); Full also streams each kernel's whole stats tree to
  // kernels.jsonl in out_dir, one JSON line per kernel as it ends.
  enum class KernelStats { Metrics, Full } kernel_stats = KernelStats::Metrics;
  // --check-races (models/race): report heterogeneous races; any fails the
  // run's check. functional and lt only.
  bool check_races = false;
};

// Runs one simulation to completion in this process (SystemC elaborates once
// per process). Writes stats.json, config.json and the rest into
// opts.out_dir all at once, with their manifest.json (tlmgpu/result_dir.hpp),
// prints a short summary to `out`. Returns 0 when the workload's check
// passed, 1 when it failed. Throws ConfigError for bad workload
// name/arguments (before any simulation), OutputError for an unusable
// out_dir (also before) or a failed write, and tlmgpu::SimError for errors
// found while simulating; then out_dir is left as it was.
int run_simulation(const RunOptions& opts, std::ostream& out);
// The same for a node (opts.node.gpus not empty; run_simulation calls it):
// stats.json gets one "devices" entry per GPU and the stats tree one
// "device_<i>" group per GPU (src/app/run_node.cpp).
int run_node(const RunOptions& opts, std::ostream& out);
// A runtime node (a node file with a fabric): one task-runtime program over
// its GPUs (src/app/run_runtime_node.cpp, workloads/node_apps).
int run_runtime_node(const RunOptions& opts, std::ostream& out);

} // namespace tlmgpu
