// One GPU built from its platform's topology (include/tlmgpu/topology.hpp;
// the default one below) by the builder (include/tlmgpu/sim/builder.hpp):
//
//   sm_0..sm_N-1 (l1) ==> xbar ==> l2_0..l2_S-1 ==> dram_0..dram_C-1
//
// GpuModule adds what is not a block: the CTA dispatcher, the kernel
// boundary and the host's debug access. It finds its SMs and L2 slices by
// block type, whatever the topology calls them.
#pragma once

#include "models/dram/dram_module.hpp"
#include "models/l2/l2_module.hpp"
#include "models/sm/atomic_profile.hpp"
#include "models/sm/cta_dispatcher.hpp"
#include "models/sm/sm_module.hpp"
#include "models/xbar/xbar_module.hpp"
#include "tlmgpu/device_memory.hpp"
#include "tlmgpu/sim/builder.hpp"

#include <memory>
#include <vector>

namespace tlmgpu {

class TraceWriter;

class GpuModule : public sc_core::sc_module {
public:
  GpuModule(sc_core::sc_module_name n, SimContext& ctx);
  ~GpuModule() override;

  StatGroup stats;
  std::unique_ptr<AtomicProfile> atomic_profile; // gpu.atomics, when sim.atomic_profile
  std::unique_ptr<BuiltTopology> built;          // owns every block's modules
  std::vector<SmModule*> sms; // blocks of type sm, in build order (index = SM id)
  std::vector<L2Module*> l2;  // blocks of type l2 (index = address-map slice)

  // Host-side access to device memory (through L2, which holds the newest
  // data): `n` may span lines; used by checkers and, later, memcpy.
  void debug_read(Addr a, uint8_t* dst, size_t n);
  void debug_write(Addr a, const uint8_t* src, size_t n);
  // Kernel boundary for every SM's L1 (write back, then invalidate). Returns
  // the SM cycle the last write-back or release reaches L2 (now if none).
  Cycle flush_l1s();

  // Kernels (called from the host's thread). launch() validates the launch
  // (throws SimError naming the limit), places the first CTAs and returns;
  // synchronize() waits until every CTA retired, then performs the kernel
  // boundary (L1s written back and invalidated) and closes the stats epoch.
  DeviceMemory device_memory;
  void launch(KernelLaunch k);
  void synchronize();
  // What waits on what, for deadlock reports: the busy SMs' warps (at most a
  // few lines) and every port below the GPU that holds a request.
  std::string waits() const;
  uint64_t kernels_run() const { return kernels_run_; }
  // Puts this GPU into a trace: its process and kernel track, a probe on
  // every SM's issue and on every port below it (tlmgpu/sim/trace.hpp).
  void attach_trace(TraceWriter& tr);
  // Puts an observer on every SM's issue (InstrProbe::issued) and tells it
  // of each launch (kernel_begin); e.g. the race checker (models/race).
  void attach_probe(InstrProbe& p);

private:
  std::vector<InstrProbe*> probes_; // attach_probe
  void choose_functional_memory();  // sim.functional_memory
  void debug(tlm::tlm_command cmd, Addr a, uint8_t* p, size_t n);
  void dispatch();
  void cta_done(uint16_t sm, Cycle at);
  void progress(bool final);
  // The deadlock watchdog (gpu_watchdog.cpp): called between slices of the
  // simulation (tlmgpu/sim/watch.hpp); while a kernel runs, it checks that
  // SMs issue or ports move requests at least once every
  // sim.watchdog_cycles, and otherwise stops the run with waits().
  void watchdog_check();
  uint64_t progress_mark() const;
  uint64_t watch_mark_ = 0, watch_kernel_ = UINT64_MAX; // progress seen, in which kernel
  Cycle watch_since_ = 0;                               // core cycle it last moved
  uint64_t ctas_retired_ = 0;
  bool progress_shown_ = false;
  SimContext& ctx_;
  XbarModule* xbar_ = nullptr; // for the host's access to device windows
  KernelLaunch kernel_;
  std::unique_ptr<CtaDispatcher> dispatcher_;
  JitterStream cta_jitter_; // jitter.cta_order; off unless enabled
  bool running_ = false;
  sc_core::sc_event kernel_done_;
  sc_core::sc_time kernel_start_;
  Cycle last_retire_ = 0; // SM cycle the kernel's last CTA retired (lt: that SM's local time)
  Cycle released_ = 0;    // lt: SM cycle the last kernel-end release was answered
  uint64_t kernels_run_ = 0;
  Counter* kernel_cycles_ = nullptr;
  Counter* kernels_ = nullptr;
};

} // namespace tlmgpu
