// A pass-through stage for an SM's memory path (sm.stages = probe): counts
// the requests that cross it by kind and forwards everything unchanged, in
// every timing mode. Useful to see what a stage above it (or the LD/ST unit)
// sends, and the smallest example of a stage (docs/writing-blocks.md).
//
//   upstream (from the LD/ST unit) ──count──► downstream (towards the L1)
//             ◄───────────── responses unchanged ─────────────
#pragma once

#include "tlmgpu/sim/path_stage.hpp"

#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

namespace tlmgpu {

class ProbeModule : public PathStage {
public:
  ProbeModule(sc_core::sc_module_name n, const StageContext& c);
  tlm::tlm_target_socket<>& upstream() override { return up_; }
  tlm::tlm_initiator_socket<>& downstream() override { return down_; }

private:
  void count(tlm::tlm_generic_payload& t);
  void b_transport(tlm::tlm_generic_payload& t, sc_core::sc_time& d);
  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& t, tlm::tlm_phase& ph,
                                     sc_core::sc_time& d);
  tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& t, tlm::tlm_phase& ph,
                                     sc_core::sc_time& d);
  unsigned transport_dbg(tlm::tlm_generic_payload& t);

  tlm_utils::simple_target_socket<ProbeModule> up_;
  tlm_utils::simple_initiator_socket<ProbeModule> down_;
  StatGroup stats_;
  Counter &requests_, &loads_, &stores_, &atomics_, &reds_, &other_;
};

StageType probe_stage_type();

} // namespace tlmgpu
