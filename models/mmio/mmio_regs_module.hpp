// The register block behind a device window (address_map.device_windows):
//
//   xbar.dev[k] ──► up (TargetPort) ──► MmioRegsCore (real bytes) ── answer after mmio.latency
//
// Instance k of the block serves window k. The smallest non-memory target:
// what a unit's command registers (the SCU's, an IRU's) start from.
#pragma once

#include "models/mmio/mmio_regs_core.hpp"
#include "tlmgpu/sim/clock.hpp"
#include "tlmgpu/sim/context.hpp"
#include "tlmgpu/sim/ports.hpp"

namespace tlmgpu {

class MmioRegsModule : public sc_core::sc_module {
public:
  // Serves the `bytes` of its device window starting at `base`.
  MmioRegsModule(sc_core::sc_module_name n, SimContext& ctx, const MmioSpec& spec, Addr base,
                 uint32_t bytes, StatGroup& parent);
  TargetPort up;
  MmioRegsCore& core() { return core_; }

private:
  void serve(Payload& t);
  void serve_queued(); // at
  SimContext& ctx_;
  const MmioSpec& spec_;
  Clock clk_;
  MmioRegsCore core_;
  StatGroup stats_;
};

} // namespace tlmgpu
