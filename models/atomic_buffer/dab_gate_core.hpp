// DAB's issue-side logic on one SM, kernel-free (style rule 1): which
// buffer a warp's reds go to, the order in which the warps sharing a buffer
// may touch it, CTA batches, and when the SM's buffers are READY for a
// GPU-wide flush. Paper §IV-B/C (buffers), §IV-D (flush), §V (schedulers);
// notes seed-001 §3.2-3.5, §3.8, pitfalls P1-P5, P13, P15, P21.
//
//   warp (CTA c, warp w) ──► logical id (j = c / sms, w) ──► buffer b
//     level warp:      b = (j mod R) * W + w   (one per resident warp position)
//     level scheduler: b = w mod schedulers    (the notes' P4 mapping)
//   ring of b = the warps of b in the SM's current batch, sorted by (j, w)
//   order gwat: only the ring's token holder may issue an ordered instruction;
//               issuing one passes the token to the next warp that has not exited
//   order gtar: the same token, but a round starts only once every warp of the
//               ring waits at an ordered instruction or has exited, and ends when
//               the token wraps (so GTAR and GWAT give the same bits)
//   order srr:  the token orders every instruction of the ring's warps (strict
//               round robin, §V-A): other bits than GWAT's, still deterministic
//   order gtrr: greedy (no order) until every warp of the ring waits at its first
//               ordered instruction or has exited, then srr for the rest of the
//               kernel, later batches included (§V-B, notes §3.4.2): so only the
//               first warps of a buffer run greedily
//
// Ordered instructions are reds (taken into the buffer like an ALU op: no
// request goes down the path, P21), value-returning atomics and device or
// system fences (ordering points: they wait until their buffer is empty and
// every flush holding its reds is applied, then go down the path as ever).
// A CTA-scope fence and barriers are not ordering points (P6 `never`: a
// CTA-scope fence cannot expose a buffered red), so a kernel that mixes reds
// with barriers keeps its barriers cheap; P5's deadlock (a token holder
// waiting at a barrier for a CTA-mate that needs the token) is reported by
// state(), not avoided.
//
// Batches (§3.4.5): the SM's CTAs j = 0, 1, ... form batches of R (the
// occupancy); warps of batch k+1 may start early but issue no ordered
// instruction before every warp of batch k on this SM has exited. So the
// set of warps feeding each buffer between two flushes never depends on
// timing. Placement must be deterministic (CTA c on SM c mod sms).
//
// READY (§3.5.1, P1): a buffer is READY when its next red in order did not
// fit (FULL), its next ordered instruction waits for a flush (SYNC), or
// every warp of its ring has exited (DONE; an empty ring is DONE).
#pragma once

#include "models/atomic_buffer/atomic_buffer_core.hpp"
#include "tlmgpu/issue_gate.hpp"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace tlmgpu {

class DabGateCore {
public:
  using Verdict = IssueGate::Verdict;
  // `spec` derived and enabled; the SM's `schedulers` and `warp_slots` size
  // the buffers (level scheduler: one per scheduler; warp: one per slot).
  DabGateCore(const AtomicBufferSpec& spec, uint32_t sm, uint32_t schedulers, uint32_t warp_slots,
              StatGroup& stats);

  // srr (and gtrr, once it switches) orders every instruction; the others
  // only reds, atomics and fences.
  bool gates(WarpInstr::Kind k) const {
    return srr_ || gtrr_ ? k != WarpInstr::Kind::Exit
                         : k == WarpInstr::Kind::Red || k == WarpInstr::Kind::Atomic ||
                               k == WarpInstr::Kind::Fence;
  }
  void kernel_begins(const GateLaunch& l); // throws InvariantError for a bad geometry
  void warp_started(const GateWarp& w);    // throws InvariantError if placement is not c mod sms
  void warp_exited(const GateWarp& w);
  // IssueGate::check. May set a buffer's FULL or SYNC state even without
  // commit: under a token, only the holder gets this far, so the state is
  // a fact about the buffer's next instruction in order, not about timing.
  Verdict check(const GateWarp& w, const WarpInstr& in, bool commit);

  bool ready() const; // every buffer READY
  bool empty() const; // nothing buffered
  // Flush `epoch`: every buffer's packets, buffer 0 first (each in its own
  // drain order); FULL and SYNC clear. Ordering points of buffers that sent
  // packets now wait for applied(epoch).
  std::vector<FlushPacket> drain(uint64_t epoch);
  void applied(uint64_t epoch) {
    applied_ = epoch;
    open();
  }
  // While the SM injects its flush, no ordered instruction issues (P13).
  void set_injecting(bool on) {
    injecting_ = on;
    if (!on) open();
  }
  // Every flush holding this SM's reds is applied and nothing is buffered.
  bool settled() const;
  std::string state() const; // per buffer: entries, FULL/SYNC/DONE, token holder
  uint32_t buffers() const { return uint32_t(bufs_.size()); }
  // Called when a waiting warp may go now or the SM may have become READY.
  std::function<void()> changed;

private:
  struct Buffer {
    std::unique_ptr<AtomicBufferCore> core;
    std::vector<uint32_t> ring; // logical warp ids (j * W + w) of the current batch
    uint32_t token = 0;         // index into ring where the holder search starts
    bool sync = false;
    bool round = false;        // gtar: the ring's warps issue in order (else they gather)
    bool strict = false;       // gtrr: switched to srr (until the kernel ends)
    uint64_t drained_into = 0; // the last epoch that took packets from it
  };
  uint32_t buffer_of(uint32_t j, uint32_t w) const;
  uint32_t logical(const GateWarp& w) const; // j * W + w, checked
  void build_rings();                        // for batch cur_
  void advance_batch();
  bool done(const Buffer& b) const;
  int holder(const Buffer& b) const; // index into ring, -1 if all exited
  void pass_token(Buffer& b, uint32_t from);
  void open() {
    if (changed) changed();
  }

  const AtomicBufferSpec& spec_;
  const uint32_t sm_, schedulers_;
  const bool srr_, gtar_, gtrr_, ordered_; // dab.order srr, gtar, gtrr; any order but none
  std::vector<Buffer> bufs_;
  GateLaunch launch_{};
  uint32_t ctas_here_ = 0, batches_ = 0, cur_ = 0, exited_in_batch_ = 0;
  std::vector<uint8_t> exited_;  // per logical warp
  std::vector<uint8_t> arrived_; // gtar: waits at an ordered instruction (per logical warp)
  bool gathered(const Buffer& b) const;
  // gtar's gather before a round, gtrr's before it switches: Wait until the
  // whole ring is here, then the ring's first warp holds the token.
  bool gather(Buffer& b, uint32_t id, bool commit);
  uint64_t applied_ = 0;
  bool injecting_ = false;
  Counter &token_waits_, &batch_waits_, &sync_waits_, &full_waits_;
};

} // namespace tlmgpu
