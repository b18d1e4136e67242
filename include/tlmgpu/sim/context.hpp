// The run context (one per process: SystemC elaborates once per process)
// and the device context (one per GPU of the run) that every module gets.
#pragma once

#include "tlmgpu/address_map.hpp"
#include "tlmgpu/backing_store.hpp"
#include "tlmgpu/file_io.hpp"
#include "tlmgpu/hash.hpp"
#include "tlmgpu/jitter.hpp"
#include "tlmgpu/kernel_records.hpp"
#include "tlmgpu/metrics.hpp"
#include "tlmgpu/platform.hpp"
#include "tlmgpu/sim/payload.hpp"
#include "tlmgpu/stats.hpp"
#include "tlmgpu/types.hpp"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace tlmgpu {

class TraceWriter;

// An error found while simulating (bad device address, failed check, ...):
// reported as one line by the CLI, never as a SystemC backtrace.
struct SimError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// What one simulation (one process) shares across its devices: the timing
// mode, the seed and RNG, the payload pool and the root of the stats tree.
class RunContext {
public:
  RunContext(TimingMode mode, uint64_t seed) : mode(mode), seed(seed), rng(seed) {}
  const TimingMode mode;
  const uint64_t seed;
  std::mt19937_64 rng;
  PayloadPool pool;
  StatGroup stats;              // root
  TraceWriter* trace = nullptr; // --trace (tlmgpu/sim/trace.hpp); null: off
  // Per-kernel sections keep only the flat metrics in memory, so a run's
  // memory does not grow with its launches. `kernel_log` (--kernel-stats
  // full) receives each kernel's whole stats tree as it ends (the runner
  // streams it to kernels.jsonl); `keep_kernel_stats` keeps the trees in
  // SimContext::kernels instead (in-process tests and embedders).
  std::function<void(const nlohmann::json&)> kernel_log;
  bool keep_kernel_stats = false;
};

// One device (GPU) of a run: its platform, address map, DRAM backing store
// (real bytes), its stats subtree, per-kernel sections and the state its
// blocks share. Every module of the device gets this; run-wide things are
// reachable as `run` (and forwarded: mode, seed, pool).
class SimContext {
  std::unique_ptr<RunContext> owned_run_; // a one-device run owns its RunContext

public:
  // A run of one device: stats hang from the root (stats.json as ever).
  SimContext(const PlatformSpec& p, TimingMode mode, uint64_t seed)
      : owned_run_(std::make_unique<RunContext>(mode, seed)), run(*owned_run_), platform(p),
        mode(mode), seed(seed), net(network_format(p)), jitter(p.jitter),
        lt_busy_quantum(p.sim.lt_busy_quantum), lt_busy_requests(p.sim.lt_busy_requests),
        address_map(map_of(p)), pool(run.pool), stats(run.stats) {}
  // Device `device` of a node: its stats go under `device_stats` (a group of
  // the run's root), its kernels' epochs open and close there only.
  SimContext(RunContext& r, const PlatformSpec& p, uint32_t device, StatGroup& device_stats)
      : run(r), platform(p), mode(r.mode), seed(r.seed), device(device), net(network_format(p)),
        jitter(p.jitter), lt_busy_quantum(p.sim.lt_busy_quantum),
        lt_busy_requests(p.sim.lt_busy_requests), address_map(map_of(p)), pool(r.pool),
        stats(device_stats) {}

  RunContext& run;
  const PlatformSpec platform;
  const TimingMode mode;
  const uint64_t seed;
  const uint32_t device = 0;
  // Blocks read only their own spec (handed by the builder's factory) and
  // this; `platform` is for the builder, the runner and workloads.
  const NetworkFormat net;
  // Non-determinism injection (tlmgpu/jitter.hpp): which sources are on,
  // read by the blocks that have them like `net`. A source's stream comes
  // from jitter_stream(), keyed by the block's full name and the source's.
  const JitterSpec jitter;
  // LT initiators whose accesses wait at busy resources sync with the
  // kernel this many cycles ahead of it (sim.lt_busy_quantum; 0: never), or
  // once they sent this many line requests since their last sync
  // (sim.lt_busy_requests; 0: never).
  const uint32_t lt_busy_quantum, lt_busy_requests;
  JitterStream jitter_stream(std::string_view block, std::string_view source) const {
    return JitterStream(seed, "device " + std::to_string(device) + "/" + std::string(block) + "/" +
                                  std::string(source));
  }
  AddressMap address_map;
  BackingStore memory;
  PayloadPool& pool;
  StatGroup& stats; // this device's stats (the root for a one-device run)
  // Workloads write their result files (histogram.txt, ...) into out_dir,
  // the run's staging directory (tlmgpu/result_dir.hpp), with a FileWriter
  // from result_file(); result_dir is where they are once the run is
  // complete, the name to use in messages (out_dir when empty).
  std::string out_dir, result_dir;
  FileWriter result_file(const std::string& name) const {
    return FileWriter(std::filesystem::path(out_dir) / name, result_path(name));
  }
  std::filesystem::path result_path(const std::string& name) const {
    return std::filesystem::path(result_dir.empty() ? out_dir : result_dir) / name;
  }
  // Every buffer the host program copied back (HostModule::copy_from_device):
  // stats.json's output_hash, the run's fingerprint for determinism checks.
  OutputHash outputs;

  // Per-kernel sections (stats.json "kernels": name, cycles, metrics): each
  // kernel end takes the epoch view of this device's stats, then closes
  // its epoch. The whole tree goes to RunContext::kernel_log, if any.
  KernelRecords kernels;
  void end_kernel(const std::string& name, uint64_t cycles) {
    // The metrics need only the values: unless the whole tree is wanted
    // (logged or kept), the kept tree's values are rewritten in place.
    const bool whole = run.kernel_log || run.keep_kernel_stats;
    nlohmann::json fresh;
    if (whole) stats.dump(fresh, StatView::Epoch, false);
    const nlohmann::json& tree = whole ? fresh : epoch_stats_.refresh(stats, StatView::Epoch);
    nlohmann::json metrics = compute_metrics(gpu_section(tree), double(cycles), platform,
                                             double(cycles) / (platform.sm.clock_mhz * 1e6));
    if (run.kernel_log) {
      nlohmann::json line = {{"device", device}, {"name", name}, {"cycles", cycles}};
      line["metrics"] = metrics;
      // The tree is copied only when it is also kept in memory.
      line["stats"] = run.keep_kernel_stats ? fresh : std::move(fresh);
      run.kernel_log(line);
    }
    kernels.add(name, cycles, metrics,
                run.keep_kernel_stats ? std::move(fresh) : nlohmann::json(nullptr));
    stats.close_epoch();
  }

  bool timed() const { return mode != TimingMode::Functional; }
  bool at() const { return mode == TimingMode::AT; }

  // State that every block of one kind shares in this device (the LAB
  // stages' GPU-wide golden memory and kernel-end count): built by the first
  // block that asks, `make()` returning a std::unique_ptr<T>; owned here, so
  // no module above has to know the kind.
  template <class T, class Make>
  T& shared(const std::string& key, Make make) {
    std::shared_ptr<void>& slot = shared_[key];
    if (!slot) slot = std::shared_ptr<T>(make());
    return *static_cast<T*>(slot.get());
  }

  // Work a kernel must finish that is nobody's request (DAB's last flush,
  // applied after every SM's kernel-end release): the block that owns it
  // registers a busy test and the event that signals a change; the kernel
  // end (GpuModule::synchronize) waits until none is busy.
  struct KernelEndWait {
    std::function<bool()> busy;
    const sc_core::sc_event* changed;
  };
  std::vector<KernelEndWait> kernel_end_waits;

private:
  static AddressMap map_of(const PlatformSpec& p) {
    return AddressMap(p.address_map, p.dram.channels, p.l2.sub_partitions, p.dram.banks,
                      p.dram.row_bytes);
  }
  std::map<std::string, std::shared_ptr<void>> shared_;
  StatTree epoch_stats_; // end_kernel's values-only tree, kept between launches
};

// Sets the kernel time resolution (1 fs, so clock periods are exact) once
// before any sc_time exists.
void init_kernel_time();
// Everything before elaboration: time resolution, report actions (throw, so
// errors come back as one SimError line), the LT quantum, no banner.
void prepare_kernel(const PlatformSpec& p);
// sc_start() to the end; SystemC reports become SimError.
void simulate();

} // namespace tlmgpu
