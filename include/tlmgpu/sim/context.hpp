// What every module of one simulation shares: the timing mode, the platform,
// the address map, the DRAM backing store (real bytes), the payload pool, the
// root of the stats tree and the seeded RNG. One per process (SystemC
// elaborates once per process).
#pragma once

#include "tlmgpu/address_map.hpp"
#include "tlmgpu/backing_store.hpp"
#include "tlmgpu/metrics.hpp"
#include "tlmgpu/platform.hpp"
#include "tlmgpu/sim/payload.hpp"
#include "tlmgpu/stats.hpp"
#include "tlmgpu/types.hpp"

#include <nlohmann/json.hpp>

#include <map>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>

namespace tlmgpu {

// An error found while simulating (bad device address, failed check, ...):
// reported as one line by the CLI, never as a SystemC backtrace.
struct SimError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class SimContext {
public:
  SimContext(const PlatformSpec& p, TimingMode mode, uint64_t seed)
      : platform(p), mode(mode), seed(seed), rng(seed),
        address_map(p.address_map, p.dram.channels, p.l2.sub_partitions, p.dram.banks,
                    p.dram.row_bytes) {}

  const PlatformSpec platform;
  const TimingMode mode;
  const uint64_t seed;
  std::mt19937_64 rng;
  AddressMap address_map;
  BackingStore memory;
  PayloadPool pool;
  StatGroup stats;     // root
  std::string out_dir; // where workloads write their result files

  // Per-kernel stats sections (stats.json "kernels"): each kernel end dumps
  // the epoch view of every stat, then closes the epoch.
  nlohmann::json kernels = nlohmann::json::array();
  void end_kernel(const std::string& name, uint64_t cycles) {
    nlohmann::json k;
    k["name"] = name;
    k["cycles"] = cycles;
    stats.dump(k["stats"], StatView::Epoch, false);
    k["metrics"] = compute_metrics(k["stats"].value("gpu", nlohmann::json::object()),
                                   double(cycles), platform);
    kernels.push_back(std::move(k));
    stats.close_epoch();
  }

  bool timed() const { return mode != TimingMode::Functional; }
  bool at() const { return mode == TimingMode::AT; }

  // State that every block of one kind shares in this simulation (the LAB
  // stages' GPU-wide golden memory and kernel-end count): built by the first
  // block that asks, `make()` returning a std::unique_ptr<T>; owned here, so
  // no module above has to know the kind.
  template <class T, class Make>
  T& shared(const std::string& key, Make make) {
    std::shared_ptr<void>& slot = shared_[key];
    if (!slot) slot = std::shared_ptr<T>(make());
    return *static_cast<T*>(slot.get());
  }

private:
  std::map<std::string, std::shared_ptr<void>> shared_;
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
