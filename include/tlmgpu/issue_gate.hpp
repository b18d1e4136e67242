// An issue gate: a path stage's say over which warp instructions may issue
// (architecture §6a). Some mechanisms act before the coalescer, at the
// scheduler: DAB's atomic buffers sit beside the warp schedulers, take a red
// as an ALU-like operation (no LD/ST unit, no request) and order the
// instructions that touch them (notes seed-001 §3.4, P21). The SM asks the
// gate of its path (PathStage::issue_gate) about the instruction kinds the
// gate names, and tells it when warps start and exit; it knows nothing else
// about the mechanism behind it.
//
//   scheduler picks a ready warp ──► gate.check(warp, instr, commit)
//        Wait  : the warp does not issue; the SM asks again after open()
//        Pass  : the instruction issues as ever (down the memory path)
//        Taken : the gate performed it; it completes like an ALU op
#pragma once

#include "tlmgpu/simt/warp_instr.hpp"

#include <cstdint>
#include <functional>
#include <string>

namespace tlmgpu {

// A warp as the gate sees it: its hardware slot, and its logical identity
// (CTA, warp index inside the CTA), which does not depend on timing.
struct GateWarp {
  uint32_t slot = 0;
  uint32_t cta = 0;
  uint32_t warp_in_cta = 0;
};

// A launch as the gate sees it (on this SM).
struct GateLaunch {
  uint64_t grid_ctas = 0;
  uint32_t warps_per_cta = 0;
  uint32_t ctas_per_sm = 0; // occupancy: CTAs resident at once
  uint32_t sms = 0;         // SMs of the GPU
  uint32_t sm = 0;          // this SM
};

class IssueGate {
public:
  enum class Verdict : uint8_t { Wait, Pass, Taken };
  virtual ~IssueGate() = default;
  // Does the gate decide instructions of this kind? Others always issue.
  virtual bool gates(WarpInstr::Kind k) const = 0;
  // May `in` of warp `w` issue now? With commit false the SM filters
  // candidates with it, and the gate changes nothing that depends on timing
  // (it may note facts about the warp's next instruction: DAB's FULL, GPUDet's
  // quantum end); with commit true the gate acts on its answer (inserts,
  // passes a token). The SM asks only about a warp whose pending instruction
  // has not issued yet (not at a barrier, no request outstanding). A Taken
  // instruction completes after taken_cycles().
  virtual Verdict check(const GateWarp& w, const WarpInstr& in, bool commit) = 0;
  virtual uint32_t taken_cycles() const { return 1; }
  virtual void kernel_begins(const GateLaunch& l) = 0;
  virtual void warp_started(const GateWarp& w) = 0;
  virtual void warp_exited(const GateWarp& w) = 0;
  // What waits on what (deadlock reports).
  virtual std::string state() const { return {}; }
  // The SM sets this: the gate calls it when a waiting warp may go now.
  std::function<void()> on_open;

protected:
  void open() {
    if (on_open) on_open();
  }
};

} // namespace tlmgpu
