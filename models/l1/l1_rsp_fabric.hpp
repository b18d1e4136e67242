// Remote scope promotion's side channel (l1.rsp = brsp | srsp;
// models/l1/README.md "Remote scope promotion"): the path by which a remote
// operation reaches the other L1s of the GPU, every one (bRSP's broadcasts,
// sRSP's SelInv) or those whose LR-TBL holds a marker (sRSP's SelFlush).
// The sRSP paper sends these messages from the synchronisation variable's
// L2 slice; a slice never gets a request from an L1 it did not hear from,
// so like hLRC's recall channel this is a channel beside the request
// network. One per simulation, kept in SimContext::shared: every scoped L1
// with l1.rsp joins with its responder, so no L1 holds a pointer to another
// and the GPU module that composes them need not know RSP. No SystemC: a
// message is a call that returns the cycle its ack leaves.
#pragma once

#include "models/scoped/sync_tables.hpp"
#include "tlmgpu/types.hpp"

#include <functional>
#include <vector>

namespace tlmgpu {

// seed-002 §2.9's message types: bRSP's broadcast pair and sRSP's selective
// pair.
struct RspMessage {
  enum class Kind : uint8_t {
    Flush,      // write the sFIFO's dirty lines back to L2, ack when they landed
    Invalidate, // flash-invalidate the L1 (dirty bytes, own writes, stay)
    SelFlush,   // sRSP: drain the sFIFO up to sync_line's LR-TBL marker, drop the line
    SelInv,     // sRSP: put sync_line in the PA-TBL, drop the line
  } kind = Kind::Flush;
  uint16_t from_sm = 0; // the requester, which gets no message
  Addr sync_line = 0;   // the remote operation's synchronisation variable
  Cycle at = 0;         // SM cycle the message is delivered
};

class RspFabric {
public:
  // Returns the SM cycle its ack leaves (every write-back it sent landed).
  using Responder = std::function<Cycle(const RspMessage&)>;
  // AT: `quiet`: nothing this L1 sent is in flight; `wake`: its stalled
  // queue head may go on (the lock changed hands, or every L1 became quiet).
  // sRSP: `marks(line)`: this L1's LR-TBL holds a marker for `line`.
  void attach(uint16_t sm, Responder r, std::function<bool()> quiet = {},
              std::function<void()> wake = {}, std::function<bool(Addr)> marks = {}) {
    members_.push_back({sm, std::move(r), std::move(quiet), std::move(wake), std::move(marks)});
  }
  struct Result {
    Cycle acked = 0;       // the last ack, at least m.at
    uint32_t messages = 0; // one per other L1 (and one ack each)
    uint32_t heavy = 0;    // receivers that noted a flash invalidation (note_heavy)
  };
  // A receiver flash-invalidated for the message it is answering (sRSP:
  // a PA-TBL overflow), counted in the Result.
  void note_heavy() const { ++heavy_; }
  // Delivers `m` to every L1 but the requester's, in SM order (attach order
  // is construction order: deterministic).
  Result broadcast(const RspMessage& m) const { return deliver(m, false); }
  // sRSP: delivers `m` only to the L1s but the requester's whose LR-TBL
  // holds a marker for m.sync_line (a directory lookup standing for the
  // paper's broadcast that only those L1s act on; see the README).
  Result to_markers(const RspMessage& m) const { return deliver(m, true); }

  // AT: bRSP locks every L1 for a remote operation (Orr et al.). `sm` asks
  // for the lock (queued behind the holder); the
  // operation runs once it holds it and every L1 is quiet, so no fill or
  // write-back of any L1 is in flight across it. The protocol core's lock
  // table (L2LineLock), with one entry: every L1.
  void ask(uint16_t sm) { lock_.request(kEveryL1, sm); } // once per operation
  bool holds(uint16_t sm) const { return lock_.holds(kEveryL1, sm); }
  bool locked_by_other(uint16_t sm) const {
    return lock_.locked(kEveryL1) && !lock_.holds(kEveryL1, sm);
  }
  bool all_quiet() const;
  void unlock(uint16_t sm);   // wakes every L1
  void quiet_changed() const; // an L1 became quiet: the holder may go on

private:
  Result deliver(const RspMessage& m, bool only_markers) const;
  static constexpr Addr kEveryL1 = 0;
  struct Member {
    uint16_t sm;
    Responder respond;
    std::function<bool()> quiet;
    std::function<void()> wake;
    std::function<bool(Addr)> marks;
  };
  std::vector<Member> members_;
  scoped::L2LineLock lock_;
  mutable uint32_t heavy_ = 0;
};

} // namespace tlmgpu
