// GPUDet's per-SM stage (gpudet_module.hpp).
#include "models/gpudet/gpudet_module.hpp"

#include <stdexcept>

using namespace sc_core;

namespace tlmgpu {

GpuDetModule::GpuDetModule(sc_module_name n, const StageContext& c, const GpuDetSpec& spec,
                           uint32_t warp_slots)
    : PathStage(n), ctx_(c.ctx), spec_(spec), sm_(c.sm), clk_(c.sm_clock_mhz),
      stats_(c.sm_stats, basename()),
      core_(spec, warp_slots, c.ctx.net.line_bytes, c.ctx.net.sector_bytes, stats_),
      control_(GpuDetControl::of(c, spec)),
      up_("up", 1u << 20,
          TargetPort::Hooks{[this](Payload& t, sc_time& d) { b_transport(t, d); },
                            [this](Payload& t) { return down_.debug(t); }, [this] { at_take(); }}),
      down_("down", 1u << 20, [this](Payload& t) { at_response(t); }),
      commit_writes_(stats_.counter("commit_writes", "requests",
                                    "line writes this SM sent in commits (the bytes its warps "
                                    "won in the Z-test)")) {
  core_.changed = [this] {
    open();
    control_.poke();
  };
  core_.arrival = [this] { return control_.next_arrival(); };
  core_.serial_grant = [this](uint32_t slot, std::span<const Addr> lines) {
    serial_grant(slot, lines);
  };
  control_.attach(this);
}

IssueGate::Verdict GpuDetModule::check(const GateWarp& w, const WarpInstr& in, bool commit) {
  try {
    const bool was = core_.serial_issued(w.slot);
    const Verdict v = core_.check(w, in, commit);
    if (!was && core_.serial_issued(w.slot)) on_serial_issue(w.slot);
    return v;
  } catch (const std::invalid_argument& e) { // a store the coalescer refuses (misaligned, ...)
    throw SimError(std::string(name()) + ": " + e.what());
  }
}

void GpuDetModule::serial_grant(uint32_t slot, std::span<const Addr> lines) {
  // The control grants in global warp id order, so each slice's numbers
  // follow it whenever the warps then issue.
  if (spec_.serial_overlap)
    for (Addr line : lines)
      numbers_[{slot, line}].push_back(control_.next_serial(ctx_.address_map.slice_of(line)));
}

void GpuDetModule::on_serial_issue(uint32_t slot) {
  // An atomic with no active lane sends nothing: done at issue.
  if (core_.serial_left(slot) == 0) serial_end_ = std::max(serial_end_, sc_time_stamp());
  control_.poke();
}

void GpuDetModule::tag(Payload& t) {
  GpuAccess& a = access_of(t);
  if (!a.is_rmw() || a.src_sm != sm_) return;
  const auto it = numbers_.find({a.src_warp, t.get_address()});
  if (it == numbers_.end()) return;
  a.order_tag = it->second.front();
  it->second.pop_front();
  if (it->second.empty()) numbers_.erase(it);
}

void GpuDetModule::answered(Payload& t, const sc_time& at) {
  auto& p = static_cast<GpuPayload&>(t);
  const GpuAccess& a = p.access();
  if (a.src_sm != sm_) return;
  if (a.kind == AccessKind::Load)
    core_.forward(a.src_warp, p.get_address(), p.get_data_ptr());
  else if (a.is_rmw() && core_.serial_answer(a.src_warp)) {
    serial_end_ = std::max(serial_end_, at);
    control_.poke();
  }
}

// functional and lt: the answer is in when the call returns.
void GpuDetModule::b_transport(Payload& t, sc_time& d) {
  tag(t);
  down_.b_transport(t, d);
  answered(t, sc_time_stamp() + d);
}

void GpuDetModule::at_take() {
  while (up_.has_request()) {
    Payload& t = up_.front();
    up_.pop();
    tag(t);
    down_.send(t);
  }
}

void GpuDetModule::at_response(Payload& t) {
  if (own_.erase(&t)) { // a commit write or the opening's fence
    static_cast<GpuPayload&>(t).release();
    if (acked()) control_.poke();
    return;
  }
  answered(t, sc_time_stamp());
  up_.respond(t, SC_ZERO_TIME);
}

GpuPayload* GpuDetModule::write_payload(Addr line, const GpuDetLine& l) {
  const uint32_t bytes = ctx_.net.line_bytes, sector = ctx_.net.sector_bytes;
  GpuAccess a;
  a.kind = AccessKind::Store;
  a.src_sm = sm_;
  a.src_warp = 0xFFFF; // no warp's: the commit's
  a.txn_id = ctx_.pool.next_txn_id();
  for (uint32_t i = 0; i < bytes; ++i)
    if (l.written[i]) a.sector_mask |= 1u << (i / sector);
  GpuPayload* p = ctx_.pool.allocate();
  p->setup(tlm::TLM_WRITE_COMMAND, line, bytes, a);
  for (uint32_t i = 0; i < bytes; ++i) {
    p->data()[i] = l.data[i];
    p->byte_enable()[i] = l.written[i] ? TLM_BYTE_ENABLED : TLM_BYTE_DISABLED;
  }
  p->enable_bytes(bytes);
  return p;
}

// A device-scope fence: the L1 drops its copies (l1_fence_module.cpp).
GpuPayload* GpuDetModule::fence_payload() {
  GpuAccess a;
  a.kind = AccessKind::Fence;
  a.fence = FenceKind::Fence;
  a.scope = Scope::Device;
  a.order = MemOrder::SeqCst;
  a.src_sm = sm_;
  a.src_warp = 0xFFFF;
  a.txn_id = ctx_.pool.next_txn_id();
  GpuPayload* p = ctx_.pool.allocate();
  p->setup(tlm::TLM_READ_COMMAND, 0, ctx_.net.line_bytes, a);
  return p;
}

sc_time GpuDetModule::send(const std::map<Addr, GpuDetLine>& writes, bool invalidate,
                           const sc_time& start) {
  commit_writes_ += writes.size();
  std::vector<GpuPayload*> out;
  for (auto& [line, l] : writes)
    out.push_back(write_payload(line, l));
  if (invalidate) out.push_back(fence_payload());
  if (out.empty()) return start;
  if (ctx_.at()) {
    outbox_.insert(outbox_.end(), out.begin(), out.end());
    if (!send_pending_) {
      send_pending_ = true;
      timer_.schedule(start, [this] { at_send(); });
    }
    return start;
  }
  sc_time last = start;
  for (size_t i = 0; i < out.size(); ++i) {
    sc_time d = ctx_.timed() ? start + clk_.cycles(i) : SC_ZERO_TIME;
    down_.b_transport(*out[i], d);
    out[i]->release();
    last = std::max(last, d);
  }
  return last;
}

// at: one request per SM cycle while the path towards the L1 takes it.
void GpuDetModule::at_send() {
  send_pending_ = false;
  if (!outbox_.empty() && down_.can_send()) {
    GpuPayload* p = outbox_.front();
    outbox_.pop_front();
    own_.insert(p);
    down_.send(*p);
  }
  if (!outbox_.empty()) {
    send_pending_ = true;
    timer_.schedule(clk_.cycles(1), [this] { at_send(); });
  }
}

} // namespace tlmgpu
