// A block written outside the tlmgpu tree: a stage of the SM's memory path
// (between the LD/ST unit and the L1) that counts the requests crossing it
// and the 32 B sectors they ask for, so sectors_per_request shows how well
// the SM's coalescer packed the warps' accesses. It forwards every call
// unchanged, in every timing mode (PassThroughStage does the forwarding).
//
//   SM LD/ST unit ──► request_counter ──► L1 ──► xbar ──► L2 ──► DRAM
#pragma once

#include "tlmgpu/sim/path_stage.hpp"

namespace custom {

class RequestCounter : public tlmgpu::PassThroughStage {
public:
  RequestCounter(sc_core::sc_module_name n, const tlmgpu::StageContext& c);

private:
  void on_request(tlm::tlm_generic_payload& t) override;

  // Under the SM's group and named like the module, so the stats path is
  // gpu.sm_<i>.request_counter, as the built-in stages' are.
  tlmgpu::StatGroup stats_;
  tlmgpu::Counter &requests_, &sectors_, &fences_;
};

// The registry entry: `sm.stages = request_counter` puts it into every SM's
// path. main.cpp registers it before the command line runs.
tlmgpu::StageType request_counter_stage_type();

} // namespace custom
