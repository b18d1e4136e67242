// run_node: several GPUs in one simulation (include/tlmgpu/node.hpp). Each
// GPU is a device_<i> module holding its GpuModule and its workload's host;
// each has its own memory, address map, stats subtree and kernel epochs
// (SimContext), and shares the run's timing mode, seed and payload pool.
#include "tlmgpu/app/run.hpp"
#include "tlmgpu/app/summary.hpp"
#include "tlmgpu/config.hpp"
#include "tlmgpu/metrics.hpp"

#include "models/gpu/gpu_blocks.hpp"
#include "models/gpu/gpu_module.hpp"
#include "run_files.hpp"
#include "tlmgpu/sim/path_stage.hpp"

#include <chrono>
#include <sstream>

using namespace sc_core;

namespace tlmgpu {
namespace {

// One GPU of the node: built inside this module's constructor, so its
// blocks and its workload's host are named device_<i>.gpu, device_<i>.host.
class DeviceModule : public sc_module {
public:
  DeviceModule(sc_module_name n, SimContext& ctx, Workload& w) : sc_module(n), gpu("gpu", ctx) {
    w.elaborate(ctx, gpu);
  }
  GpuModule gpu;
};

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream in(s);
  for (std::string item; std::getline(in, item, ',');)
    out.push_back(item);
  return out;
}

// The --args of GPU `i`: "gpu<i>.k=v" for it alone, plain "k=v" for every GPU.
std::map<std::string, std::string> args_of(const std::map<std::string, std::string>& all, size_t i,
                                           size_t gpus) {
  std::map<std::string, std::string> out;
  for (const auto& [k, v] : all) {
    const auto dot = k.find('.');
    if (k.rfind("gpu", 0) != 0 || dot == std::string::npos) {
      out[k] = v;
      continue;
    }
    const std::string idx = k.substr(3, dot - 3);
    if (idx.empty() || idx.find_first_not_of("0123456789") != std::string::npos) {
      out[k] = v;
      continue;
    }
    if (std::stoul(idx) >= gpus)
      throw ConfigError("--arg " + k + ": the node has GPUs 0.." + std::to_string(gpus - 1));
    if (std::stoul(idx) == i) out[k.substr(dot + 1)] = v;
  }
  return out;
}

} // namespace

int run_node(const RunOptions& o, std::ostream& out) {
  if (o.node.runtime_node) return run_runtime_node(o, out);
  ResultDir dir(o.out_dir);
  const NodeSpec& node = o.node;
  const size_t n = node.gpus.size();
  std::vector<std::string> names = split(o.workload);
  if (names.size() == 1) names.assign(n, names[0]);
  if (names.size() != n)
    throw ConfigError("-w " + o.workload + ": give one workload, or one per GPU (" +
                      std::to_string(n) + ", comma-separated)");
  std::vector<std::unique_ptr<Workload>> workloads;
  std::vector<nlohmann::json> arg_values;
  register_gpu_blocks();
  for (size_t i = 0; i < n; ++i) {
    const WorkloadEntry& entry = find_workload(names[i]);
    WorkloadArgs args(entry.info, args_of(o.args, i, n));
    arg_values.push_back(args.values());
    workloads.push_back(entry.make(args));
    check_platform_memory(node.gpus[i], node.gpu_files[i]);
    try {
      path_stages(node.gpus[i]);
    } catch (const ConfigError& e) {
      throw ConfigError(node.gpu_files[i] + ": " + e.what());
    }
  }

  prepare_kernel(node.gpus[0]); // the LT quantum in GPU 0's core cycles
  RunContext run(o.timing, o.seed);
  std::unique_ptr<TraceWriter> trace = open_trace(o, dir, node.gpus[0]);
  run.trace = trace.get();
  std::unique_ptr<KernelLog> kernel_log = open_kernel_log(o, dir, run);
  std::vector<std::unique_ptr<StatGroup>> groups;
  std::vector<std::unique_ptr<SimContext>> ctxs;
  std::vector<std::unique_ptr<DeviceModule>> devices;
  for (size_t i = 0; i < n; ++i) {
    const std::string name = "device_" + std::to_string(i);
    groups.push_back(std::make_unique<StatGroup>(run.stats, name));
    ctxs.push_back(std::make_unique<SimContext>(run, node.gpus[i], uint32_t(i), *groups[i]));
    ctxs[i]->out_dir = (dir.staging() / name).string();
    ctxs[i]->result_dir = (std::filesystem::path(o.out_dir) / name).string();
    std::filesystem::create_directory(ctxs[i]->out_dir);
    devices.push_back(std::make_unique<DeviceModule>(name.c_str(), *ctxs[i], *workloads[i]));
    if (trace) devices[i]->gpu.attach_trace(*trace);
  }

  const auto t0 = std::chrono::steady_clock::now();
  simulate();
  const double host_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  for (size_t i = 0; i < n; ++i)
    if (!workloads[i]->finished())
      throw SimError("device_" + std::to_string(i) +
                     ": simulation ended before the workload finished (deadlock: no event left)");

  nlohmann::json plain;
  run.stats.dump(plain, StatView::Total, false);
  nlohmann::json stats, devs = nlohmann::json::array();
  std::ostringstream summary;
  bool passed = true;
  // The node's output hash: the devices' hashes (8 bytes each, little
  // endian) in device order, hashed as one OutputHash buffer each.
  OutputHash node_hash;
  for (size_t i = 0; i < n; ++i) {
    const std::string name = "device_" + std::to_string(i);
    std::ostringstream s;
    const std::string error = workloads[i]->check(*ctxs[i], devices[i]->gpu, s);
    passed = passed && error.empty();
    const nlohmann::json& g = gpu_section(plain[name]);
    devs.push_back({{"device", i},
                    {"platform", node.gpus[i].name},
                    {"workload", names[i]},
                    {"check", error.empty() ? "passed" : "failed"},
                    {"output_hash", hash_hex(ctxs[i]->outputs.value())},
                    {"kernels", ctxs[i]->kernels.to_json()},
                    {"metrics", compute_metrics(g, run_cycles(g, node.gpus[i]), node.gpus[i],
                                                sc_time_stamp().to_seconds())}});
    add_area_metrics(devs.back()["metrics"], g, node.gpus[i]);
    summary << name << " (" << node.gpus[i].name << ", " << names[i] << "):\n" << s.str();
    for (size_t k = 0; k < ctxs[i]->kernels.size(); ++k)
      summary << summarize_kernel(ctxs[i]->kernels.at(k), node.gpus[i].sm.clock_mhz);
    summary << name << " check: " << (error.empty() ? "passed" : "FAILED: " + error) << "\n";
    unsigned char le[8];
    for (int b = 0; b < 8; ++b)
      le[b] = static_cast<unsigned char>(ctxs[i]->outputs.value() >> (8 * b));
    node_hash.add(le, 8);
  }
  const Cycle cycles = Clock(node.gpus[0].sm.clock_mhz).at(sc_time_stamp());
  stats["tlmgpu_version"] = TLMGPU_VERSION;
  stats["platform"] = node.name;
  stats["workload"] = o.workload;
  stats["timing"] = std::string(to_string(o.timing));
  stats["seed"] = o.seed;
  stats["check"] = passed ? "passed" : "failed";
  stats["output_hash"] = hash_hex(node_hash.value());
  stats["simulated"] = {{"cycles", cycles}, {"seconds", sc_time_stamp().to_seconds()}};
  stats["devices"] = std::move(devs);
  write_json(dir, "stats.json", stats, {total_stats(run.stats)});
  if (trace) trace->finish();
  if (kernel_log) kernel_log->finish();

  nlohmann::json config;
  config["tlmgpu_version"] = TLMGPU_VERSION;
  config["platform_file"] = o.platform_path;
  config["node"] = {{"name", node.name}, {"gpus", nlohmann::json::array()}};
  for (size_t i = 0; i < n; ++i)
    config["node"]["gpus"].push_back({{"platform_file", node.gpu_files[i]},
                                      {"platform", effective_config(node.gpus[i])},
                                      {"workload", {{"name", names[i]}, {"args", arg_values[i]}}}});
  config["timing"] = std::string(to_string(o.timing));
  config["seed"] = o.seed;
  write_json(dir, "config.json", config);
  write_host_json(dir, host_s, cycles);
  dir.commit();

  if (!o.quiet) {
    out << summary.str();
    print_run_footer(out, o, "GPU-0 core cycles", cycles, host_s,
                     node.name + ", " + std::to_string(n) + " GPUs", passed ? "passed" : "FAILED");
  }
  return passed ? 0 : 1;
}

} // namespace tlmgpu
