// A pass-through stage for an SM's memory path (sm.stages = probe): counts
// the requests that cross it by kind and forwards everything unchanged, in
// every timing mode. Useful to see what a stage above it (or the LD/ST unit)
// sends, and the smallest example of a stage (docs/writing-blocks.md).
//
//   upstream (from the LD/ST unit) ──count──► downstream (towards the L1)
//             ◄───────────── responses unchanged ─────────────
#pragma once

#include "tlmgpu/sim/path_stage.hpp"

namespace tlmgpu {

class ProbeModule : public PassThroughStage {
public:
  ProbeModule(sc_core::sc_module_name n, const StageContext& c);

private:
  void on_request(tlm::tlm_generic_payload& t) override;

  StatGroup stats_;
  Counter &requests_, &loads_, &stores_, &atomics_, &reds_, &other_;
};

StageType probe_stage_type();

} // namespace tlmgpu
