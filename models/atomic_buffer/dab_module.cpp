// DAB's atomic buffer stage (dab_module.hpp).
#include "models/atomic_buffer/dab_module.hpp"

#include <stdexcept>

using namespace sc_core;

namespace tlmgpu {

DabModule::DabModule(sc_module_name n, const StageContext& c, const AtomicBufferSpec& spec,
                     uint32_t schedulers, uint32_t warp_slots)
    : PathStage(n), ctx_(c.ctx), spec_(spec), sm_(c.sm), clk_(c.sm_clock_mhz),
      stats_(c.sm_stats, basename()), core_(spec, c.sm, schedulers, warp_slots, stats_),
      control_(DabFlushControl::of(c, spec)),
      up_("up", 1u << 20,
          TargetPort::Hooks{[this](Payload& t, sc_time& d) { b_transport(t, d); },
                            [this](Payload& t) { return down_.debug(t); }, [this] { at_take(); }}),
      down_("down", 1u << 20, [this](Payload& t) { at_response(t); }),
      packets_(stats_.counter("flush_packets", "requests",
                              "flush transactions this SM sent to L2 (after coalescing)")),
      flushes_(stats_.counter("flushes", "flushes", "GPU-wide flushes this SM took part in")) {
  core_.changed = [this] {
    open();
    control_.poke();
  };
  control_.attach(this);
}

IssueGate::Verdict DabModule::check(const GateWarp& w, const WarpInstr& in, bool commit) {
  try {
    return core_.check(w, in, commit);
  } catch (const std::invalid_argument& e) { // a red the buffer cannot hold (misaligned, ...)
    throw SimError(std::string(name()) + ": " + e.what());
  }
}

std::vector<uint32_t> DabModule::drain(uint64_t epoch) {
  std::vector<FlushPacket> packets = core_.drain(epoch);
  split_for_requests(packets);
  const uint32_t slices = ctx_.address_map.slices();
  std::vector<uint32_t> counts = number_flush_stream(
      packets, epoch, sm_, slices, [this](Addr a) { return ctx_.address_map.slice_of(a); });
  if (!packets.empty()) ++flushes_;
  packets_ += packets.size();
  outbox_ = std::move(packets);
  next_out_ = 0;
  return counts;
}

sc_time DabModule::inject(const sc_time& start) {
  if (outbox_.empty()) return start;
  if (ctx_.at()) {
    core_.set_injecting(true);
    if (!inject_pending_) {
      inject_pending_ = true;
      timer_.schedule(start, [this] { at_inject(); });
    }
    return start;
  }
  // functional and lt: one packet per SM cycle, each on the blocking path.
  sc_time last = start;
  for (size_t i = 0; i < outbox_.size(); ++i) {
    GpuPayload* p = ctx_.pool.allocate();
    flush_packet_to_payload(*p, outbox_[i], ctx_.net.line_bytes);
    p->access().txn_id = ctx_.pool.next_txn_id();
    sc_time d = ctx_.timed() ? start + clk_.cycles(i) : SC_ZERO_TIME;
    down_.b_transport(*p, d);
    p->release();
    last = std::max(last, d);
  }
  outbox_.clear();
  return last;
}

// at: one packet per SM cycle while the path towards the L1 takes it; the
// buffers accept reds again once the last one is out (P13).
void DabModule::at_inject() {
  inject_pending_ = false;
  if (next_out_ < outbox_.size() && down_.can_send()) {
    GpuPayload* p = ctx_.pool.allocate();
    flush_packet_to_payload(*p, outbox_[next_out_++], ctx_.net.line_bytes);
    p->access().txn_id = ctx_.pool.next_txn_id();
    ++in_flight_;
    down_.send(*p);
  }
  if (next_out_ < outbox_.size()) {
    inject_pending_ = true;
    timer_.schedule(clk_.cycles(1), [this] { at_inject(); });
    return;
  }
  outbox_.clear();
  next_out_ = 0;
  core_.set_injecting(false);
  if (acked()) control_.sm_acked();
}

void DabModule::at_take() {
  while (up_.has_request()) {
    Payload& t = up_.front();
    up_.pop();
    down_.send(t);
  }
}

void DabModule::at_response(Payload& t) {
  auto& p = static_cast<GpuPayload&>(t);
  if (p.access().order_tag != 0 && p.access().src_sm == sm_ &&
      p.access().kind == AccessKind::Red) { // one of this SM's flush packets
    p.release();
    --in_flight_;
    if (acked()) control_.sm_acked();
    return;
  }
  up_.respond(t, SC_ZERO_TIME);
}

} // namespace tlmgpu
