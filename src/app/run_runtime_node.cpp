// run_runtime_node: a multi-GPU node running one task-runtime program
// (seed-004; models/node, models/runtime, workloads/node_apps). The GPUs
// are the calibrated kernel-time model, or with gpu_model.kind = full the
// full GPU model (one per GPU the runtime uses); the timing mode picks the
// fabric's granularity (lt: a copy reserves its path once; at: in chunks,
// so copies sharing a link interleave; functional: as lt) and the full
// GPU models' timing.
#include "run_files.hpp"
#include "tlmgpu/app/run.hpp"
#include "tlmgpu/config.hpp"
#include "tlmgpu/sim/clock.hpp"

#include "models/gpu/gpu_blocks.hpp"
#include "models/node/node_module.hpp"
#include "tlmgpu/memory_budget.hpp"
#include "tlmgpu/sim/path_stage.hpp"
#include "workloads/node_apps/node_app.hpp"

#include <algorithm>
#include <chrono>
#include <sstream>

using namespace sc_core;

namespace tlmgpu {
namespace {

// gpu_model.kind = full: the program has real kernels, the GPU platform
// builds, and the GPUs' device memory fits the memory budget.
void check_full_gpus(const NodeSpec& node, const std::string& workload, const NodeApp& app) {
  const std::string refusal = app.full_gpu_refusal();
  if (!refusal.empty())
    throw ConfigError("gpu_model.kind = full: -w " + workload + " cannot run on the full GPU " +
                      "model: " + refusal);
  register_gpu_blocks();
  const uint32_t all = uint32_t(node.gpus.size());
  const uint32_t used = node.runtime.runtime.gpus ? std::min(node.runtime.runtime.gpus, all) : all;
  for (size_t g = 0; g < used; ++g) {
    check_platform_memory(node.gpus[g], node.gpu_files[g]);
    try {
      path_stages(node.gpus[g]);
    } catch (const ConfigError& e) {
      throw ConfigError(node.gpu_files[g] + ": " + e.what());
    }
  }
  const uint64_t mib = node.runtime.gpu_model.memory_mib;
  check_memory(sat_mul(uint64_t(used), mib << 20),
               "gpu_model.kind = full: " + std::to_string(used) + " GPUs with " +
                   std::to_string(mib) + " MiB of device memory each (gpu_model.memory_mib)");
}

} // namespace

int run_runtime_node(const RunOptions& o, std::ostream& out) {
  ResultDir dir(o.out_dir);
  const NodeSpec& node = o.node;
  const NodeAppEntry& entry = find_node_app(o.workload);
  WorkloadArgs args(entry.info, o.args);
  std::unique_ptr<NodeApp> app = entry.make(args);

  const bool full = node.runtime.gpu_model.kind == "full";
  if (full) check_full_gpus(node, o.workload, *app);

  prepare_kernel(node.gpus[0]);
  RunContext run(o.timing, o.seed);
  NodeModule module("node", node.runtime, node.gpus, run, o.timing != TimingMode::AT);
  module.host().program = [&app](NodeDriver& d) { app->program(d); };
  std::unique_ptr<TraceWriter> trace = open_trace(o, dir, node.gpus[0]);
  if (trace) module.attach_trace(*trace, node.name + " (runtime node)");

  const auto t0 = std::chrono::steady_clock::now();
  simulate();
  const double host_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (!module.runtime().impossible().empty())
    throw ConfigError(node.name + ": " + module.runtime().impossible());
  if (!module.host().finished())
    throw SimError("the node's program did not finish (deadlock: no event left; a task that "
                   "never fits a GPU, or a wait for a task that never runs)");

  std::ostringstream summary;
  const std::string error = app->check(module.runtime(), summary);
  const double seconds = sc_time_stamp().to_seconds();
  const Cycle cycles = Clock(node.gpus[0].sm.clock_mhz).at(sc_time_stamp());

  nlohmann::json stats;
  stats["tlmgpu_version"] = TLMGPU_VERSION;
  stats["platform"] = node.name;
  stats["workload"] = o.workload;
  stats["timing"] = std::string(to_string(o.timing));
  stats["seed"] = o.seed;
  stats["check"] = error.empty() ? "passed" : "failed";
  stats["simulated"] = {{"cycles", cycles}, {"seconds", seconds}};
  nlohmann::json metrics = app->metrics();
  metrics["simulated_us"] = seconds * 1e6;
  metrics["gpus"] = module.runtime().gpus();
  uint64_t gpu_kernels = 0;
  for (const auto& d : module.devices())
    gpu_kernels += d->gpu.kernels_run();
  if (full) { // only then, so kernel_time runs keep their stats.json
    metrics["gpu_model"] = node.gpus[0].name;
    metrics["gpu_kernels"] = gpu_kernels;
  }
  stats["metrics"] = metrics;
  write_json(dir, "stats.json", stats, {total_stats(run.stats)});
  if (trace) trace->finish();

  nlohmann::json config;
  config["tlmgpu_version"] = TLMGPU_VERSION;
  config["platform_file"] = o.platform_path;
  config["node"] = effective_node_config(node.runtime);
  config["node"]["name"] = node.name;
  config["node"]["gpus"] = node.gpus.size();
  config["workload"] = {{"name", o.workload}, {"args", args.values()}};
  config["timing"] = std::string(to_string(o.timing));
  config["seed"] = o.seed;
  write_json(dir, "config.json", config);
  write_host_json(dir, host_s, cycles);
  dir.commit();

  if (!o.quiet) {
    out << summary.str();
    out << "simulated: " << seconds * 1e3 << " ms on " << module.runtime().gpus() << " of "
        << node.gpus.size() << " GPUs";
    if (full) out << " (full GPU model " << node.gpus[0].name << ", " << gpu_kernels << " kernels)";
    out << "\n";
    print_run_footer(out, o, "GPU-0 core cycles", cycles, host_s,
                     node.name + ", " + std::to_string(module.runtime().gpus()) + " GPUs",
                     error.empty() ? "passed" : "FAILED: " + error);
  }
  return error.empty() ? 0 : 1;
}

} // namespace tlmgpu
