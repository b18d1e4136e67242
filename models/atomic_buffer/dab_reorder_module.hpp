// DAB's reorder unit as a stage in front of one L2 sub-partition (paper
// §IV-D, Fig. 8; notes seed-001 §3.5.2, P10-P12). A topology places it on
// the link from the crossbar to L2 slice i (examples/dab/): instance i must
// sit in front of slice i.
//
//   xbar ──► up_ ─┬─ untagged request ───────────────────────► down_ ──► L2 slice i
//                 └─ flush packet (order_tag) ──► ReorderUnitCore ──┘
//                    accepted at once (parked if early),   released in round-robin
//                    answered upstream                     SM order, one request each
//
// Pre-flush counts come from DabFlushControl before any packet of the epoch
// is sent. With dab.reorder false (DAB-NR) packets go on in arrival order.
#pragma once

#include "models/atomic_buffer/dab_flush_module.hpp"
#include "models/atomic_buffer/reorder_unit_core.hpp"
#include "tlmgpu/sim/clock.hpp"
#include "tlmgpu/sim/path_stage.hpp"
#include "tlmgpu/sim/ports.hpp"

#include <map>
#include <vector>

namespace tlmgpu {

class DabReorderModule : public PathStage {
public:
  // `sms`: the GPU's SMs (each sends a pre-flush count every epoch).
  DabReorderModule(sc_core::sc_module_name n, const StageContext& c, const AtomicBufferSpec& spec,
                   uint32_t sms);
  tlm::tlm_target_socket<>& upstream() override { return up_.socket; }
  tlm::tlm_initiator_socket<>& downstream() override { return down_.socket; }

  uint32_t partition() const { return partition_; }
  // Every SM's packet count to this slice for `epoch` (index = SM).
  void preflush(uint64_t epoch, const std::vector<uint32_t>& counts);
  // Every packet of `epoch` was released and L2 answered it.
  bool applied(uint64_t epoch) const {
    return core_.epoch_complete(epoch) && !in_flight_.contains(epoch);
  }
  // lt: the latest time a packet was applied (start of the next epoch's wait).
  const sc_core::sc_time& last_applied() const { return last_applied_; }
  std::string state() const;

private:
  bool tagged(Payload& t) const { return access_of(t).order_tag != 0; }
  void b_transport(Payload& t, sc_core::sc_time& d);
  void release(const sc_core::sc_time& d); // send every packet whose turn has come
  void at_take();
  void at_response(Payload& t);

  SimContext& ctx_;
  const uint32_t partition_;
  Clock clk_;
  StatGroup stats_;
  ReorderUnitCore core_;
  DabFlushControl& control_;
  TargetPort up_;
  InitiatorPort down_;
  std::map<uint64_t, uint32_t> in_flight_; // at: per epoch, released packets L2 has not answered
  sc_core::sc_time last_applied_;
  Histogram& parked_max_;
};

StageType dab_reorder_stage_type();

} // namespace tlmgpu
