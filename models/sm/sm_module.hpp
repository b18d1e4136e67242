// Streaming multiprocessor. In this issue it is the shell that owns the SM's
// memory-side blocks (the L1) so names match the hardware ("gpu.sm_3.l1");
// the SM issue adds warps, schedulers, the coalescer and shared memory.
#pragma once

#include "models/l1/l1_module.hpp"

#include <memory>

namespace tlmgpu {

class SmModule : public sc_core::sc_module {
public:
  SmModule(sc_core::sc_module_name n, SimContext& ctx, uint16_t id, StatGroup& parent)
      : sc_module(n), id(id), stats_(parent, basename()),
        l1("l1", ctx, ctx.platform.l1, id, ctx.platform.sm.clock_mhz, stats_) {}
  const uint16_t id;

private:
  StatGroup stats_; // declared before l1: its group nests under this one

public:
  L1Module l1;
  // Where the LD/ST unit (or a test initiator) sends per-line requests.
  tlm::tlm_target_socket<>& lsu() {
    lsu_bound_ = true;
    return l1.port.socket;
  }

private:
  // An SM nobody drives still needs its socket bound for elaboration to pass.
  void before_end_of_elaboration() override {
    if (lsu_bound_) return;
    idle_lsu_ = std::make_unique<tlm_utils::simple_initiator_socket<SmModule>>("idle_lsu");
    idle_lsu_->bind(l1.port.socket);
  }
  bool lsu_bound_ = false;
  std::unique_ptr<tlm_utils::simple_initiator_socket<SmModule>> idle_lsu_;
};

} // namespace tlmgpu
