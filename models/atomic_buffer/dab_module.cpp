// DAB's atomic buffer stage (dab_module.hpp).
#include "models/atomic_buffer/dab_module.hpp"
#include "tlmgpu/invariant.hpp"

#include <algorithm>
#include <stdexcept>

using namespace sc_core;

namespace tlmgpu {

DabModule::DabModule(sc_module_name n, const StageContext& c, const AtomicBufferSpec& spec,
                     uint32_t schedulers, uint32_t warp_slots, uint32_t sms, uint32_t groups)
    : PathStage(n), ctx_(c.ctx), spec_(spec), sm_(c.sm), clk_(c.sm_clock_mhz),
      stats_(c.sm_stats, basename()), grouped_(spec.grouped()), sms_(sms), groups_(groups),
      sources_(sources()), cores_(make_cores(schedulers, warp_slots)),
      control_(DabFlushControl::of(c, spec)),
      up_("up", 1u << 20,
          TargetPort::Hooks{[this](Payload& t, sc_time& d) { b_transport(t, d); },
                            [this](Payload& t) { return down_.debug(t); }, [this] { at_take(); }}),
      down_("down", 1u << 20, [this](Payload& t) { at_response(t); }),
      packets_(stats_.counter("flush_packets", "requests",
                              "flush transactions this SM sent to L2 (after coalescing)")),
      flushes_(stats_.counter("flushes", "flushes", "GPU-wide flushes this SM took part in")) {
  for (auto& core : cores_)
    core->changed = [this] {
      open();
      control_.poke();
    };
  control_.attach(this);
}

std::vector<uint32_t> DabModule::sources() const {
  if (!grouped_) return {sm_};
  std::vector<uint32_t> s;
  for (uint32_t g = sm_; g < groups_; g += sms_)
    s.push_back(g);
  return s;
}

// In the initialiser list, before this stage's own counters: the buffers'
// stats are declared first (stats.json keeps that order).
std::vector<std::unique_ptr<DabGateCore>> DabModule::make_cores(uint32_t schedulers,
                                                                uint32_t warp_slots) {
  std::vector<std::unique_ptr<DabGateCore>> cores;
  if (!grouped_) {
    cores.push_back(std::make_unique<DabGateCore>(spec_, sm_, schedulers, warp_slots, stats_));
    return cores;
  }
  for (uint32_t g : sources_)
    cores.push_back(
        std::make_unique<DabGateCore>(spec_, g, spec_.group_buffers, warp_slots, stats_));
  if (cores.empty()) // an SM beyond the groups runs no CTA: a core that stays DONE, not a source
    cores.push_back(
        std::make_unique<DabGateCore>(spec_, sm_, spec_.group_buffers, warp_slots, stats_));
  return cores;
}

void DabModule::kernel_begins(const GateLaunch& l) {
  if (!grouped_) return cores_[0]->kernel_begins(l);
  // Every group this SM hosts runs its first batch at once (the SM takes its
  // CTAs in ascending order, group after group), or a group FULL and
  // waiting for a flush could keep a group that has not started from its
  // slots while the flush waits for that group.
  uint64_t need = 0;
  for (size_t i = 0; i < sources_.size(); ++i) {
    const uint32_t g = sources_[i];
    cores_[i]->kernel_begins(
        GateLaunch{l.grid_ctas, l.warps_per_cta, spec_.group_ctas, groups_, g});
    const uint64_t ctas = g < l.grid_ctas ? (l.grid_ctas - g + groups_ - 1) / groups_ : 0;
    need += std::min<uint64_t>(spec_.group_ctas, ctas);
  }
  if (need > l.ctas_per_sm)
    throw SimError(std::string(name()) + ": dab.keying = group: the " +
                   std::to_string(sources_.size()) + " CTA groups of this SM need " +
                   std::to_string(need) + " CTAs resident at once (dab.group_ctas = " +
                   std::to_string(spec_.group_ctas) + " each), but only " +
                   std::to_string(l.ctas_per_sm) + " fit; lower dab.group_ctas or sm.cta_groups");
}

bool DabModule::ready() const {
  return std::all_of(cores_.begin(), cores_.end(), [](auto& c) { return c->ready(); });
}
bool DabModule::empty() const {
  return std::all_of(cores_.begin(), cores_.end(), [](auto& c) { return c->empty(); });
}
bool DabModule::settled() const {
  return std::all_of(cores_.begin(), cores_.end(), [](auto& c) { return c->settled(); });
}

std::string DabModule::state() const {
  if (!grouped_) return cores_[0]->state();
  std::string s;
  for (size_t i = 0; i < sources_.size(); ++i)
    s += (i ? "; group " : "group ") + std::to_string(sources_[i]) + ": " + cores_[i]->state();
  return s;
}

IssueGate::Verdict DabModule::check(const GateWarp& w, const WarpInstr& in, bool commit) {
  try {
    return core_of(w).check(w, in, commit);
  } catch (const std::invalid_argument& e) { // a red the buffer cannot hold (misaligned, ...)
    throw SimError(std::string(name()) + ": " + e.what());
  }
}

void DabModule::drain(uint64_t epoch, std::vector<std::vector<uint32_t>>& counts) {
  outbox_.clear();
  next_out_ = 0;
  const uint32_t slices = ctx_.address_map.slices();
  for (size_t i = 0; i < sources_.size(); ++i) { // in ascending order
    std::vector<FlushPacket> packets = cores_[i]->drain(epoch);
    if (packets.empty()) continue;
    split_for_requests(packets);
    const uint32_t src = sources_[i];
    counts.at(src) = number_flush_stream(packets, epoch, src, slices,
                                         [this](Addr a) { return ctx_.address_map.slice_of(a); });
    for (FlushPacket& f : packets)
      f.port = sm_;
    outbox_.insert(outbox_.end(), std::make_move_iterator(packets.begin()),
                   std::make_move_iterator(packets.end()));
  }
  if (!outbox_.empty()) ++flushes_;
  packets_ += outbox_.size();
}

DabModule::Injection DabModule::inject(const sc_time& start) {
  if (outbox_.empty()) return {start, start};
  if (ctx_.at()) {
    set_injecting(true);
    if (!inject_pending_) {
      inject_pending_ = true;
      timer_.schedule(start, [this] { at_inject(); });
    }
    return {start, start};
  }
  // functional and lt: one packet per SM cycle, each on the blocking path;
  // the buffers stay closed until the control's time reaches the last one's
  // departure (injection_done).
  set_injecting(true);
  Injection r{start, start};
  for (size_t i = 0; i < outbox_.size(); ++i) {
    GpuPayload* p = ctx_.pool.allocate();
    flush_packet_to_payload(*p, outbox_[i], ctx_.net.line_bytes);
    p->access().txn_id = ctx_.pool.next_txn_id();
    sc_time d = ctx_.timed() ? start + clk_.cycles(i) : SC_ZERO_TIME;
    down_.b_transport(*p, d);
    p->release();
    r.applied = std::max(r.applied, d);
  }
  if (ctx_.timed()) r.out = start + clk_.cycles(outbox_.size());
  outbox_.clear();
  return r;
}

// at: one packet per SM cycle while the path towards the L1 takes it; the
// buffers accept reds again once the last one is out (P13).
void DabModule::at_inject() {
  inject_pending_ = false;
  if (next_out_ < outbox_.size() && down_.can_send()) {
    GpuPayload* p = ctx_.pool.allocate();
    flush_packet_to_payload(*p, outbox_[next_out_], ctx_.net.line_bytes);
    p->access().txn_id = ctx_.pool.next_txn_id();
    ++in_flight_[outbox_[next_out_++].epoch];
    down_.send(*p);
  }
  if (next_out_ < outbox_.size()) {
    inject_pending_ = true;
    timer_.schedule(clk_.cycles(1), [this] { at_inject(); });
    return;
  }
  outbox_.clear();
  next_out_ = 0;
  set_injecting(false);
  // Out (what NR-OF waits for), perhaps all answered (what an epoch waits for).
  if (spec_.allow_overlap || in_flight_.empty()) control_.sm_acked();
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
    const auto it = in_flight_.find(p.access().order_tag >> 32);
    TLMGPU_CHECK(it != in_flight_.end());
    if (--it->second == 0) {
      in_flight_.erase(it);
      // An epoch still being injected is not answered yet (overlap: an
      // older one may be).
      if (outbox_.empty() || spec_.allow_overlap) control_.sm_acked();
    }
    p.release();
    return;
  }
  up_.respond(t, SC_ZERO_TIME);
}

} // namespace tlmgpu
