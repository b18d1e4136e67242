// DAB's issue-side logic on one SM (dab_gate_core.hpp).
#include "models/atomic_buffer/dab_gate_core.hpp"

#include "tlmgpu/invariant.hpp"

#include <algorithm>
#include <sstream>

namespace tlmgpu {

DabGateCore::DabGateCore(const AtomicBufferSpec& spec, uint32_t sm, uint32_t schedulers,
                         uint32_t warp_slots, StatGroup& stats)
    : spec_(spec), sm_(sm), schedulers_(std::max(1u, schedulers)), srr_(spec.order == "srr"),
      gtar_(spec.order == "gtar"), gtrr_(spec.order == "gtrr"), ordered_(spec.order != "none"),
      token_waits_(stats.counter("token_waits", "checks",
                                 "ordered instructions held because another warp of their "
                                 "buffer's ring had the token (dab.order = gwat)")),
      batch_waits_(stats.counter("batch_waits", "checks",
                                 "ordered instructions held because an older CTA batch of the "
                                 "SM had not finished")),
      sync_waits_(stats.counter("sync_waits", "events",
                                "ordering points (value-returning atomics, device fences) that "
                                "waited for their buffer's flush")),
      full_waits_(stats.counter("full_waits", "events",
                                "reds that found their buffer full and waited for a flush")) {
  const uint32_t n = spec.level == "warp" ? warp_slots : schedulers_;
  bufs_.resize(n);
  for (Buffer& b : bufs_)
    b.core = std::make_unique<AtomicBufferCore>(spec, sm, stats);
}

void DabGateCore::kernel_begins(const GateLaunch& l) {
  if (!empty() && !settled())
    throw InvariantError("DAB on SM " + std::to_string(sm_) +
                         ": a kernel began with reds of the last one still buffered");
  if (l.sms == 0 || l.ctas_per_sm == 0 || l.warps_per_cta == 0)
    throw InvariantError("DAB: launch without SMs, CTA slots or warps");
  if (spec_.level == "warp" && uint64_t(l.ctas_per_sm) * l.warps_per_cta > bufs_.size())
    throw InvariantError("DAB: more resident warps than warp-level buffers");
  launch_ = l;
  ctas_here_ = l.grid_ctas > l.sm ? uint32_t((l.grid_ctas - l.sm + l.sms - 1) / l.sms) : 0;
  batches_ = (ctas_here_ + l.ctas_per_sm - 1) / l.ctas_per_sm;
  cur_ = 0;
  exited_in_batch_ = 0;
  exited_.assign(size_t(ctas_here_) * l.warps_per_cta, 0);
  arrived_.assign(exited_.size(), 0);
  for (Buffer& b : bufs_)
    b.strict = false;
  build_rings();
}

uint32_t DabGateCore::buffer_of(uint32_t j, uint32_t w) const {
  if (spec_.level == "warp") return (j % launch_.ctas_per_sm) * launch_.warps_per_cta + w;
  return w % uint32_t(bufs_.size());
}

uint32_t DabGateCore::logical(const GateWarp& w) const {
  if (w.cta % launch_.sms != sm_ || w.warp_in_cta >= launch_.warps_per_cta)
    throw InvariantError("DAB on SM " + std::to_string(sm_) + ": CTA " + std::to_string(w.cta) +
                         " is not this SM's under deterministic placement (CTA c runs on SM c "
                         "mod sm.count); set sm.cta_placement = deterministic");
  return (w.cta / launch_.sms) * launch_.warps_per_cta + w.warp_in_cta;
}

void DabGateCore::build_rings() {
  for (Buffer& b : bufs_) {
    b.ring.clear();
    b.token = 0;
    b.round = false;
  }
  if (cur_ >= batches_) return;
  const uint32_t W = launch_.warps_per_cta;
  const uint32_t first = cur_ * launch_.ctas_per_sm;
  const uint32_t last = std::min(ctas_here_, first + launch_.ctas_per_sm);
  for (uint32_t j = first; j < last; ++j) // ascending (j, w): the logical order
    for (uint32_t w = 0; w < W; ++w)
      bufs_[buffer_of(j, w)].ring.push_back(j * W + w);
}

void DabGateCore::advance_batch() {
  const uint32_t W = launch_.warps_per_cta;
  while (cur_ < batches_) {
    const uint32_t first = cur_ * launch_.ctas_per_sm;
    const uint32_t n = (std::min(ctas_here_, first + launch_.ctas_per_sm) - first) * W;
    // The next batch opens once this one has exited and its reds are
    // drained: a flush then holds exactly the reds of the batches before.
    if (exited_in_batch_ < n || !empty()) return;
    ++cur_;
    exited_in_batch_ = 0;
    // Warps of the new batch may have exited already (no ordered
    // instruction at all): count them.
    const uint32_t nf = cur_ * launch_.ctas_per_sm;
    const uint32_t nl = std::min(ctas_here_, nf + launch_.ctas_per_sm);
    for (uint32_t id = nf * W; id < nl * W; ++id)
      exited_in_batch_ += exited_[id];
    build_rings();
  }
}

void DabGateCore::warp_started(const GateWarp& w) {
  (void)logical(w);
}

void DabGateCore::warp_exited(const GateWarp& w) {
  const uint32_t id = logical(w);
  exited_[id] = 1;
  if (id / launch_.warps_per_cta / launch_.ctas_per_sm == cur_) {
    ++exited_in_batch_;
    advance_batch();
  }
  open(); // a token may have moved to a waiting warp, or a batch opened
}

int DabGateCore::holder(const Buffer& b) const {
  const uint32_t n = uint32_t(b.ring.size());
  for (uint32_t i = 0; i < n; ++i) {
    const uint32_t k = (b.token + i) % n;
    if (!exited_[b.ring[k]]) return int(k);
  }
  return -1;
}

void DabGateCore::pass_token(Buffer& b, uint32_t from) {
  arrived_[b.ring[from]] = 0;
  b.token = (from + 1) % uint32_t(b.ring.size());
  // gtar: the round ends when the token wraps (every waiting warp issued).
  const int next = holder(b);
  if (b.round && (next < 0 || uint32_t(next) <= from)) b.round = false;
}

bool DabGateCore::gathered(const Buffer& b) const {
  return std::all_of(b.ring.begin(), b.ring.end(),
                     [&](uint32_t id) { return exited_[id] || arrived_[id]; });
}

bool DabGateCore::gather(Buffer& b, uint32_t id, bool commit) {
  arrived_[id] = 1;
  if (!gathered(b)) {
    if (commit) ++token_waits_;
    return false;
  }
  b.token = 0;
  open(); // the ring's first warp may be asleep, waiting for the gate
  return true;
}

DabGateCore::Verdict DabGateCore::check(const GateWarp& gw, const WarpInstr& in, bool commit) {
  const uint32_t id = logical(gw);
  const uint32_t W = launch_.warps_per_cta;
  const uint32_t j = id / W;
  // A CTA-scope fence cannot expose a buffered red (P6): not an ordering
  // point. Only srr (and gtrr once strict) orders it, and every other
  // instruction, by the token.
  const bool ordering = in.kind == WarpInstr::Kind::Red || in.kind == WarpInstr::Kind::Atomic ||
                        (in.kind == WarpInstr::Kind::Fence && in.scope != Scope::Cta);
  Buffer& b = bufs_[buffer_of(j, id % W)];
  const bool strict = srr_ || (gtrr_ && b.strict);
  // gtrr before its switch treats what gwat does not gate as gwat does: it
  // issues at once, whatever the batch.
  if (!strict && in.kind != WarpInstr::Kind::Fence && !ordering) return Verdict::Pass;
  if (j / launch_.ctas_per_sm != cur_) {
    if (commit) ++batch_waits_;
    return Verdict::Wait;
  }
  if (!ordering && !strict) return Verdict::Pass;
  const auto me = uint32_t(std::find(b.ring.begin(), b.ring.end(), id) - b.ring.begin());
  if (gtar_ && !b.round) { // gather: wait until the whole ring is here
    if (!gather(b, id, commit)) return Verdict::Wait;
    b.round = true;
  }
  if (gtrr_ && !b.strict) { // the ring's first ordered instructions: switch to srr
    if (!gather(b, id, commit)) return Verdict::Wait;
    b.strict = true;
  }
  if (ordered_ && holder(b) != int(me)) {
    if (commit) ++token_waits_;
    return Verdict::Wait;
  }
  if (!ordering) { // srr, strict gtrr: any other instruction of the token holder
    if (commit) {
      pass_token(b, me);
      open();
    }
    return Verdict::Pass;
  }
  if (injecting_) return Verdict::Wait;
  const bool red = in.kind == WarpInstr::Kind::Red && AtomicBufferCore::bufferable(in.op, in.type);
  if (red) {
    if (b.core->full() || b.sync) return Verdict::Wait;
    std::array<RedLane, kMaxLanes> lanes{};
    unsigned n = 0;
    in.mask.for_each([&](unsigned l) {
      lanes[n++] = RedLane{uint8_t(l), in.addr[l], in.operand[l]};
    });
    const std::span<const RedLane> span(lanes.data(), n);
    if (!commit) {
      if (b.core->fits(in.op, in.type, span)) return Verdict::Taken;
    } else if (b.core->insert(in.op, in.type, span)) {
      pass_token(b, me);
      open(); // the next warp in the ring may hold the token now
      return Verdict::Taken;
    }
    if (!b.core->full()) { // READY(FULL): this buffer's next red does not fit
      ++full_waits_;
      (void)b.core->insert(in.op, in.type, span); // refused: sets the full bit
      open();
    }
    return Verdict::Wait;
  }
  // An ordering point: its warp's reds must be applied first.
  if (!b.core->empty() || b.drained_into > applied_) {
    if (!b.sync && !b.core->empty()) {
      ++sync_waits_;
      b.sync = true; // READY(SYNC)
      open();
    }
    return Verdict::Wait;
  }
  if (commit) {
    pass_token(b, me);
    open();
  }
  return Verdict::Pass;
}

bool DabGateCore::done(const Buffer& b) const {
  return std::all_of(b.ring.begin(), b.ring.end(), [&](uint32_t id) { return exited_[id] != 0; });
}

bool DabGateCore::ready() const {
  return std::all_of(bufs_.begin(), bufs_.end(),
                     [&](const Buffer& b) { return b.core->full() || b.sync || done(b); });
}

bool DabGateCore::empty() const {
  return std::all_of(bufs_.begin(), bufs_.end(), [](const Buffer& b) { return b.core->empty(); });
}

bool DabGateCore::settled() const {
  return empty() && std::all_of(bufs_.begin(), bufs_.end(),
                                [&](const Buffer& b) { return b.drained_into <= applied_; });
}

std::vector<FlushPacket> DabGateCore::drain(uint64_t epoch) {
  std::vector<FlushPacket> out;
  for (Buffer& b : bufs_) {
    b.sync = false;
    if (b.core->empty()) continue;
    std::vector<FlushPacket> p = b.core->drain();
    out.insert(out.end(), std::make_move_iterator(p.begin()), std::make_move_iterator(p.end()));
    b.drained_into = epoch;
  }
  advance_batch();
  open();
  return out;
}

std::string DabGateCore::state() const {
  std::ostringstream os;
  os << "batch " << cur_ << "/" << batches_;
  for (size_t i = 0; i < bufs_.size(); ++i) {
    const Buffer& b = bufs_[i];
    if (b.ring.empty() && b.core->empty()) continue;
    os << "; buffer " << i << ": " << b.core->used() << "/" << b.core->capacity() << " entries"
       << (b.core->full() ? " FULL" : "") << (b.sync ? " SYNC" : "") << (done(b) ? " DONE" : "");
    const int h = holder(b);
    if (h >= 0 && ordered_) {
      const uint32_t id = b.ring[size_t(h)];
      const uint32_t W = launch_.warps_per_cta;
      os << ", token: CTA " << (id / W) * launch_.sms + sm_ << " warp " << id % W;
    }
  }
  return os.str();
}

} // namespace tlmgpu
