// The SM's side of an issue gate (tlmgpu/issue_gate.hpp): a path stage
// that decides at issue which of the kinds it names may go (DAB's atomic
// buffers). Same class as sm_module.cpp; split only to keep files small. The
// SM never learns what the gate is for.
#include "models/sm/sm_module.hpp"
#include "tlmgpu/config.hpp"

#include <algorithm>
#include <sstream>

namespace tlmgpu {

void SmModule::attach_gate() {
  for (auto& st : stages_) {
    IssueGate* g = st->issue_gate();
    if (!g) continue;
    if (gate_)
      throw ConfigError(std::string(name()) +
                        ": two stages of the memory path have an issue gate; at most one may");
    gate_ = g;
  }
  if (!gate_) return;
  gate_->on_open = [this] { wake(); };
  gate_taken_ = &stats_.counter("gate_taken", "instructions",
                                "instructions a path stage's issue gate performed itself (an "
                                "ALU-like operation: no request went down the path)");
  stall_gate_ = &stats_.counter("stall_gate", "cycles",
                                "cycles the only warps that could issue were held by the issue "
                                "gate (e.g. a DAB buffer waiting for its flush or a token)");
}

GateWarp SmModule::gate_warp(uint32_t slot) const {
  const WarpSlot& w = warps_[slot];
  return GateWarp{slot, ctas_[w.cta_slot].cta, w.warp->warp_in_cta()};
}

// The second and third steps of an ordered access (sm_ordering_module.cpp)
// are not asked again: the gate decided the instruction once.
bool SmModule::gated(const WarpSlot& w, const WarpInstr& in) const {
  return w.ordered == WarpSlot::Ordered::None && gate_->gates(in.kind);
}

void SmModule::take_gated(uint32_t slot, const WarpInstr& in, Cycle now) {
  WarpSlot& w = warps_[slot];
  warp_instructions_ += 1;
  for (InstrProbe* p : issue_probes)
    p->issued(id, in, now);
  if (in.kind == WarpInstr::Kind::Red) ++reds_;
  if (in.kind == WarpInstr::Kind::Atomic) ++atomics_;
  ++*gate_taken_;
  w.ready_at = now + (ctx_.timed() ? gate_->taken_cycles() : 0);
  advance(slot);
}

std::string SmModule::waits() const {
  uint32_t barrier = 0, memory = 0, gate = 0, exited = 0, other = 0;
  for (uint32_t slot = 0; slot < warps_.size(); ++slot) {
    const WarpSlot& w = warps_[slot];
    if (!w.valid) continue;
    const WarpInstr* p = w.exited ? nullptr : w.warp->pending();
    if (w.exited)
      ++exited;
    else if (w.at_barrier)
      ++barrier;
    else if (w.outstanding > 0)
      ++memory;
    else if (gate_ && p && gated(w, *p) &&
             gate_->check(gate_warp(slot), *p, false) == IssueGate::Verdict::Wait)
      ++gate;
    else
      ++other;
  }
  std::ostringstream os;
  os << name() << ": " << live_ctas_ << " CTAs; warps: " << barrier << " at a barrier, " << memory
     << " waiting for memory, " << gate << " held by the issue gate, " << exited
     << " exited waiting for writes, " << other << " other";
  if (gate_) os << " [" << gate_->state() << "]";
  return os.str();
}

} // namespace tlmgpu
