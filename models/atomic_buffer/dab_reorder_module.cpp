// DAB's reorder unit stage (dab_reorder_module.hpp).
#include "models/atomic_buffer/dab_reorder_module.hpp"
#include "tlmgpu/invariant.hpp"

#include <sstream>

using namespace sc_core;

namespace tlmgpu {

DabReorderModule::DabReorderModule(sc_module_name n, const StageContext& c,
                                   const AtomicBufferSpec& spec, uint32_t sms)
    : PathStage(n), ctx_(c.ctx), partition_(c.sm), clk_(c.sm_clock_mhz),
      stats_(c.sm_stats, basename()), core_(spec, c.sm, sms, 1, stats_),
      control_(DabFlushControl::of(c, spec)),
      up_("up", 1u << 20,
          TargetPort::Hooks{[this](Payload& t, sc_time& d) { b_transport(t, d); },
                            [this](Payload& t) { return down_.debug(t); }, [this] { at_take(); }}),
      down_("down", 1u << 20, [this](Payload& t) { at_response(t); }),
      parked_max_(stats_.histogram("waiting_at_preflush", "packets",
                                   "packets waiting in the unit when an epoch's pre-flush "
                                   "counts arrived",
                                   16, 16)) {
  control_.attach(this, partition_);
}

void DabReorderModule::preflush(uint64_t epoch, const std::vector<uint32_t>& counts) {
  parked_max_.sample(core_.waiting());
  for (uint32_t sm = 0; sm < counts.size(); ++sm)
    core_.preflush(epoch, sm, std::span<const uint32_t>(&counts[sm], 1));
  release(SC_ZERO_TIME); // at: packets that came early may go now
}

void DabReorderModule::release(const sc_time& d) {
  while (std::optional<FlushPacket> f = core_.next()) {
    GpuPayload* p = ctx_.pool.allocate();
    flush_packet_to_payload(*p, *f, ctx_.net.line_bytes);
    p->access().txn_id = ctx_.pool.next_txn_id();
    if (ctx_.at()) {
      ++in_flight_[f->epoch];
      down_.send(*p);
      continue;
    }
    sc_time when = d;
    down_.b_transport(*p, when);
    p->release();
    last_applied_ = std::max(last_applied_, sc_time_stamp() + when);
  }
}

void DabReorderModule::b_transport(Payload& t, sc_time& d) {
  if (!tagged(t)) return down_.b_transport(t, d);
  auto& p = static_cast<GpuPayload&>(t);
  core_.arrive(flush_packet_of(p, partition_));
  release(d); // this packet and any parked ones whose turn follows
  t.set_response_status(tlm::TLM_OK_RESPONSE);
}

void DabReorderModule::at_take() {
  while (up_.has_request()) {
    Payload& t = up_.front();
    up_.pop();
    if (!tagged(t)) {
      down_.send(t);
      continue;
    }
    core_.arrive(flush_packet_of(static_cast<GpuPayload&>(t), partition_));
    t.set_response_status(tlm::TLM_OK_RESPONSE);
    up_.respond(t, clk_.cycles(1)); // accepted into the flush buffer
    release(SC_ZERO_TIME);
  }
}

void DabReorderModule::at_response(Payload& t) {
  if (!tagged(t)) return up_.respond(t, SC_ZERO_TIME);
  auto& p = static_cast<GpuPayload&>(t); // a released packet, applied at L2
  const auto it = in_flight_.find(p.access().order_tag >> 32);
  TLMGPU_CHECK(it != in_flight_.end());
  if (--it->second == 0) in_flight_.erase(it);
  p.release();
  control_.unit_applied();
}

std::string DabReorderModule::state() const {
  std::ostringstream os;
  os << name() << ": " << core_.waiting() << " packets waiting";
  if (auto a = core_.awaited())
    os << ", for source (SM or CTA group) " << a->first << " packet " << a->second;
  return os.str();
}

} // namespace tlmgpu
