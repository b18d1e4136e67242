#include "models/l1/l1_rsp_fabric.hpp"

#include <algorithm>

namespace tlmgpu {

RspFabric::Result RspFabric::deliver(const RspMessage& m, std::optional<uint16_t> only,
                                     std::optional<uint16_t> skip) const {
  Result r{m.at, 0, 0, 0, std::nullopt};
  const uint32_t heavy = heavy_;
  for (const Member& l1 : members_) {
    if (l1.sm == m.from_sm || (only && l1.sm != *only) || (skip && l1.sm == *skip)) continue;
    // Asked before it answers: a SelFlush drains the marker it finds.
    if (m.kind == RspMessage::Kind::SelFlush && l1.marks && l1.marks(m.sync_line)) {
      ++r.positives;
      r.positive_from = l1.sm;
    }
    r.acked = std::max(r.acked, l1.respond(m));
    ++r.messages;
  }
  r.heavy = heavy_ - heavy;
  return r;
}

bool RspFabric::all_quiet() const {
  return std::all_of(members_.begin(), members_.end(),
                     [](const Member& l1) { return !l1.quiet || l1.quiet(); });
}

void RspFabric::ask(uint16_t sm, Addr line, bool flushes) {
  if (lock_.request(key(line), sm)) {
    ++held_by_[sm];
    ++held_;
  }
  waiting_.push_back({sm, line, flushes});
}

// EveryL1: nothing of any L1 in flight. Line: no request to L in flight
// (a fill issued before the lock would install L after SelInv dropped it,
// P3; a write-back of L would land after the atomic), and for a SelFlush
// the marker holders quiet (its drain must not overtake their queued
// write-backs, P4). Requests to L issued later are parked at their heads.
bool RspFabric::ready(uint16_t sm, Addr line) const {
  if (scope_ == Scope::EveryL1) return all_quiet();
  bool flushes = false;
  for (const Waiting& w : waiting_)
    if (w.sm == sm && w.line == line) flushes = w.flushes;
  for (const Member& l1 : members_) {
    if (l1.busy && l1.busy(line)) return false;
    if (flushes && l1.sm != sm && l1.marks && l1.marks(line) && l1.quiet && !l1.quiet())
      return false;
  }
  return true;
}

bool RspFabric::flush_pending(uint16_t sm, const std::function<bool(Addr)>& marks) const {
  if (scope_ != Scope::Line) return false;
  return std::any_of(waiting_.begin(), waiting_.end(), [&](const Waiting& w) {
    return w.flushes && w.sm != sm && lock_.holds(key(w.line), w.sm) && marks(w.line);
  });
}

void RspFabric::ran(uint16_t sm) {
  const auto it =
      std::find_if(waiting_.begin(), waiting_.end(), [&](const Waiting& w) { return w.sm == sm; });
  if (it == waiting_.end()) return;
  const bool flushes = it->flushes;
  waiting_.erase(it);
  if (flushes) wake_all(); // marker holders held for its drain may go on
}

void RspFabric::unlock(uint16_t sm, Addr line) {
  lock_.unlock(key(line), sm);
  --held_by_[sm];
  --held_;
  for (const Waiting& w : waiting_) // handed over to the first queued for this key
    if (key(w.line) == key(line) && lock_.holds(key(line), w.sm)) {
      ++held_by_[w.sm];
      ++held_;
      break;
    }
  wake_all();
}

void RspFabric::wake_all() const {
  for (const Member& l1 : members_)
    if (l1.wake) l1.wake();
}

void RspFabric::quiet_changed(std::optional<Addr> line) const {
  for (const Waiting& w : waiting_) {
    if (line && scope_ == Scope::Line && w.line != *line) continue;
    if (!lock_.holds(key(w.line), w.sm) || !ready(w.sm, w.line)) continue;
    for (const Member& l1 : members_)
      if (l1.sm == w.sm && l1.wake) l1.wake();
  }
}

} // namespace tlmgpu
