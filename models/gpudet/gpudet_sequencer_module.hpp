// GPUDet's sequencer as a stage in front of one L2 slice (gpudet.serial_overlap;
// models/gpudet/README.md "Overlapped serial mode"). A topology places it on
// the link from the crossbar to L2 slice i (examples/dab/*-gpudet.json):
// instance i must sit in front of slice i. The model for it is DAB's
// dab_reorder; unlike a flush packet, a serial atomic wants its answer, so
// the request itself is held and sent on, and L2's answer goes back up.
//
//   xbar ──► up_ ─┬─ anything not numbered ──────────────────────► down_ ──► L2 slice i
//                 └─ serial request (order_tag = its number) ──► SerialSequencer ──┘
//                    parked until every lower number went        released in number order
//
// at: early arrivals wait in the unit. lt and functional: the caller's
// thread waits inside b_transport until its turn (the SMs issue their
// granted atomics whenever their threads run), and in lt its request
// leaves no earlier than the one before it.
#pragma once

#include "models/gpudet/gpudet_spec.hpp"
#include "models/gpudet/serial_sequencer.hpp"
#include "tlmgpu/sim/path_stage.hpp"
#include "tlmgpu/sim/ports.hpp"

#include <string>

namespace tlmgpu {

class GpuDetSequencerModule : public PathStage {
public:
  GpuDetSequencerModule(sc_core::sc_module_name n, const StageContext& c, const GpuDetSpec& spec);
  tlm::tlm_target_socket<>& upstream() override { return up_.socket; }
  tlm::tlm_initiator_socket<>& downstream() override { return down_.socket; }

  uint32_t slice() const { return slice_; }
  std::string state() const;

private:
  bool numbered(Payload& t) const;
  void check_slice(Payload& t) const;
  void b_transport(Payload& t, sc_core::sc_time& d);
  void at_take();
  void at_release();
  void at_response(Payload& t);

  SimContext& ctx_;
  const GpuDetSpec& spec_;
  const uint32_t slice_;
  StatGroup stats_;
  SerialSequencer<Payload*> core_;
  TargetPort up_;
  InitiatorPort down_;
  sc_core::sc_event turn_;     // lt: a request went; the next may be due
  sc_core::sc_time last_left_; // lt: when the last released request left
  Counter &serial_, &parked_;
  Histogram& waiting_;
};

StageType gpudet_sequencer_stage_type();

} // namespace tlmgpu
