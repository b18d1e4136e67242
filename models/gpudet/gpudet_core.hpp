// GPUDet's issue-side logic on one SM, kernel-free (style rule 1): each
// warp's instruction count in the current quantum, why it stopped, its
// private store buffer, and the serial-mode grant. Notes seed-001 §4; the
// GPU-wide phases are GpuDetControl's (gpudet_control_module.hpp).
//
//   PARALLEL  a warp issues until it has issued gpudet.quantum instructions,
//             or its next instruction is an atomic or red (waits for serial
//             mode), a fence, a release/acquire access or a barrier (waits for
//             the next quantum), or a store its buffer cannot hold (overflow)
//             stores: Taken into the warp's buffer (no request); loads: Pass,
//             their answer is overlaid with the warp's own buffered bytes
//   COMMIT    every buffer is written out (commit_writes: for each byte, the
//             writer with the highest global warp id wins, the Z-test)
//   SERIAL    the held atomics go one warp at a time in global warp id order
//   open      count 0; the ending instruction goes first (pass_once)
//
// A warp's global id is cta * warps_per_cta + warp_in_cta: logical, so the
// commit and serial orders never depend on which SM or slot ran the warp.
// Barriers: a warp at a barrier is held; at a quantum's opening, the CTAs
// whose live warps are all held at it go through together (after the
// commit, so each sees the others' stores).
#pragma once

#include "models/gpudet/gpudet_spec.hpp"
#include "models/sm/coalescer.hpp"

#include "tlmgpu/issue_gate.hpp"
#include "tlmgpu/stats.hpp"

#include <cstdint>
#include <functional>
#include <map>
#include <span>
#include <string>
#include <vector>

namespace tlmgpu {

// One line of a store buffer, or of a commit: bytes and which are written.
struct GpuDetLine {
  std::vector<uint8_t> data, written; // line_bytes each; written: 0 or 1
};
// A warp's store buffer, by line address (ascending: the commit's order).
using GpuDetBuffer = std::map<Addr, GpuDetLine>;

// A held atomic, as the serial mode sees it.
struct GpuDetHeld {
  uint64_t gid = 0;     // global warp id (the order)
  uint64_t arrival = 0; // when it arrived, GPU-wide (serial_arrival fault only)
  uint32_t slot = 0;
};

class GpuDetCore {
public:
  using Verdict = IssueGate::Verdict;
  enum class State : uint8_t { Running, Ended, AtAtomic, AtBarrier, Exited };
  GpuDetCore(const GpuDetSpec& spec, uint32_t warp_slots, uint32_t line_bytes,
             uint32_t sector_bytes, StatGroup& stats);

  // Every kind but Exit: the count includes every instruction.
  bool gates(WarpInstr::Kind k) const { return k != WarpInstr::Kind::Exit; }
  void kernel_begins(const GateLaunch& l);
  void warp_started(const GateWarp& w);
  void warp_exited(const GateWarp& w);
  // IssueGate::check. May mark a warp ended without commit: that its next
  // instruction ends its quantum is a fact about the warp, not about timing.
  Verdict check(const GateWarp& w, const WarpInstr& in, bool commit);

  // Phases (GpuDetControl). parallel(false) holds every warp.
  void set_parallel(bool on) { parallel_ = on; }
  uint32_t running() const { return running_; } // warps still in their quantum
  bool idle() const;                            // no live warp, nothing buffered
  const std::map<uint64_t, GpuDetBuffer>& buffers() const { return buffers_; }
  void clear_buffers() { buffers_.clear(); }
  std::vector<GpuDetHeld> held_atomics() const;
  // Serial mode: `slot`'s atomic may issue. Several slots may hold a grant
  // at once (gpudet.serial_overlap); each counts its own answers, and the
  // warps of this SM issue in the order they were granted.
  void grant(uint32_t slot);
  bool serial_issued(uint32_t slot) const;
  // Requests of `slot`'s issued serial atomic not yet answered.
  uint32_t serial_left(uint32_t slot) const;
  // Every granted warp has issued and every answer is in.
  bool serial_settled() const;
  // An answer to a request of `slot` of kind Atomic or Red; true when it
  // was that granted warp's last.
  bool serial_answer(uint32_t slot);
  // A new quantum: counts 0, warps Running, gathered barriers go through.
  void open_quantum();
  // Forwarding: overlays `line`'s bytes that the warp in `slot` has
  // buffered onto `data` (a load's answer); returns how many.
  uint32_t forward(uint32_t slot, Addr line, uint8_t* data) const;
  std::string state() const;
  // Called when the SM may issue again or the quantum may be over.
  std::function<void()> changed;
  // A GPU-wide counter for GpuDetHeld::arrival.
  std::function<uint64_t()> arrival;
  // A warp is granted; its atomic will go as requests to these lines, in
  // this order (the SM's coalescing): the stage numbers them per L2 slice.
  std::function<void(uint32_t slot, std::span<const Addr> lines)> serial_grant;

private:
  struct Warp {
    bool live = false;
    uint32_t cta = 0;
    uint64_t gid = 0, count = 0, arrival = 0;
    State state = State::Exited;
    bool pass_once = false;  // the instruction that ended its last quantum goes now
    std::vector<Addr> lines; // AtAtomic: the lines its atomic's requests go to
  };
  void set_state(Warp& w, State s);
  // A store's line requests, coalesced once per check() by the caller.
  bool overflows(const Warp& w, std::span<const LineRequest> lines) const;
  void take_store(Warp& w, std::span<const LineRequest> lines);
  uint64_t gid(const GateWarp& w) const { return uint64_t(w.cta) * warps_per_cta_ + w.warp_in_cta; }

  const GpuDetSpec& spec_;
  const uint32_t line_bytes_;
  Coalescer coalescer_;
  std::vector<Warp> warps_;                  // by slot
  std::map<uint64_t, GpuDetBuffer> buffers_; // by global warp id: outlives the warp's slot
  uint32_t warps_per_cta_ = 1, running_ = 0;
  bool parallel_ = true;
  struct Grant {
    uint64_t order = 0; // grants on this SM issue in this order
    bool issued = false;
    uint32_t left = 0; // requests not yet answered
  };
  uint64_t grants_made_ = 0;
  std::map<uint32_t, Grant> grants_; // by slot: this quantum's serial grants
  Counter &stores_, &overflows_, &forwarded_, &serial_atomics_, &quantum_ends_;
};

// The commit (Z-test): every buffer's bytes, the highest global warp id's
// winning each byte, split by the core that holds the winner; cores[i]'s
// writes in ascending line order. Each byte is written by one core only,
// so the order the writes reach memory in does not matter.
std::vector<std::map<Addr, GpuDetLine>> commit_writes(const std::vector<const GpuDetCore*>& cores,
                                                      uint32_t line_bytes);

} // namespace tlmgpu
