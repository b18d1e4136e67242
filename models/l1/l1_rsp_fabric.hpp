// Remote scope promotion's side channel (l1.rsp = brsp | srsp | srsp_opt;
// models/l1/README.md "Remote scope promotion"): the path by which a remote
// operation reaches the other L1s of the GPU, every one (bRSP's broadcasts,
// sRSP's SelFlush and SelInv) or one (sRSPOpt's predicted owner).
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
#include <optional>
#include <unordered_map>
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
  // queue head may go on (a lock changed hands, or what a waiting remote
  // operation needs became true). sRSP: `marks(line)`: this L1's LR-TBL
  // holds a marker for `line`; `busy(line)`: a request of this L1 to `line`
  // (fill, forward, write-back) is in flight.
  void attach(uint16_t sm, Responder r, std::function<bool()> quiet = {},
              std::function<void()> wake = {}, std::function<bool(Addr)> marks = {},
              std::function<bool(Addr)> busy = {}) {
    members_.push_back(
        {sm, std::move(r), std::move(quiet), std::move(wake), std::move(marks), std::move(busy)});
  }
  struct Result {
    Cycle acked = 0;       // the last ack, at least m.at
    uint32_t messages = 0; // one per L1 reached (and one ack each)
    uint32_t heavy = 0;    // receivers that noted a flash invalidation (note_heavy)
    // SelFlush: receivers whose LR-TBL held a marker for m.sync_line when the
    // message came (a positive ack, seed-002 §2.6.2), and the last of them.
    uint32_t positives = 0;
    std::optional<uint16_t> positive_from;
  };
  // A receiver flash-invalidated for the message it is answering (sRSP:
  // a PA-TBL overflow), counted in the Result.
  void note_heavy() const { ++heavy_; }
  // Delivers `m` to every L1 but the requester's (and but `skip`), in SM
  // order (attach order is construction order: deterministic).
  Result broadcast(const RspMessage& m, std::optional<uint16_t> skip = std::nullopt) const {
    return deliver(m, std::nullopt, skip);
  }
  // sRSPOpt: delivers `m` to the L1 of SM `to` only (the predicted owner).
  Result unicast(const RspMessage& m, uint16_t to) const { return deliver(m, to, std::nullopt); }

  // AT: the lock a remote operation (and sRSP's promoted acquire) takes at
  // its queue head, as a policy over one lock table (the protocol core's
  // L2LineLock, FIFO per key; models/l1/README.md "The lock in AT"):
  //   EveryL1 (bRSP, Orr et al.): one key for the whole GPU. Every other
  //     L1's head waits while it is held; the operation runs once no L1 has
  //     anything in flight, and lets go as soon as it ran.
  //   Line (sRSP, seed-002 §2.5, P2, P3, P7): the key is the line L, as the
  //     L2 slice of L would lock it (one table for every slice: a line has
  //     one slice, so the keys never meet). Only heads to L wait (parked);
  //     the operation runs once no L1 has a request to L in flight and, for
  //     a SelFlush, the L1s holding a marker for L are quiet (P4); it holds
  //     L until its last ack (the requester unlocks then).
  enum class Scope : uint8_t { EveryL1, Line };
  void set_scope(Scope s) { scope_ = s; }
  Scope scope() const { return scope_; }
  Addr key(Addr line) const { return scope_ == Scope::EveryL1 ? kEveryL1 : line; }
  // `sm` asks for `line`'s key once per operation (queued behind the holder),
  // or once per parked request (Line: it goes when it holds the key and
  // lets go once taken); `flushes`: it will send SelFlush, so the marker
  // holders must be quiet.
  void ask(uint16_t sm, Addr line, bool flushes);
  bool holds(uint16_t sm, Addr line) const { return lock_.holds(key(line), sm); }
  // A request of `sm` to `line` must wait: another L1 holds its key.
  bool locked_by_other(uint16_t sm, Addr line) const {
    return lock_.locked(key(line)) && !lock_.holds(key(line), sm);
  }
  // What the operation of `sm` on `line` waits for once it holds the lock.
  bool ready(uint16_t sm, Addr line) const;
  // Line scope: an operation that holds its lock and waits will flush the
  // L1s holding a marker for its line; such an L1 (`marks`) holds its head
  // so its write-backs drain.
  bool flush_pending(uint16_t sm, const std::function<bool(Addr)>& marks) const;
  void ran(uint16_t sm);               // the operation ran: no longer waiting (wakes every L1)
  void unlock(uint16_t sm, Addr line); // wakes every L1
  // `line` (none: every line) of some L1 is no longer in flight, or that L1
  // became quiet: a waiting holder may go on.
  void quiet_changed(std::optional<Addr> line = std::nullopt) const;
  bool all_quiet() const;
  // Another L1 than `sm` holds a lock now (a remote operation in progress).
  bool held_by_other(uint16_t sm) const {
    const auto it = held_by_.find(sm);
    return held_ > (it == held_by_.end() ? 0 : it->second);
  }

private:
  Result deliver(const RspMessage& m, std::optional<uint16_t> only,
                 std::optional<uint16_t> skip) const;
  static constexpr Addr kEveryL1 = 0;
  struct Member {
    uint16_t sm;
    Responder respond;
    std::function<bool()> quiet;
    std::function<void()> wake;
    std::function<bool(Addr)> marks;
    std::function<bool(Addr)> busy;
  };
  struct Waiting { // an operation that asked and has not run yet
    uint16_t sm;
    Addr line;
    bool flushes;
  };
  void wake_all() const;
  std::vector<Member> members_;
  std::vector<Waiting> waiting_;
  scoped::L2LineLock lock_;
  std::unordered_map<uint16_t, uint32_t> held_by_; // keys each L1 holds
  uint32_t held_ = 0;                              // keys held in all
  Scope scope_ = Scope::EveryL1;
  mutable uint32_t heavy_ = 0;
};

} // namespace tlmgpu
