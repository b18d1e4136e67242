#include "models/race/race_checker.hpp"

#include <algorithm>
#include <sstream>

namespace tlmgpu {
namespace {

using Kind = WarpInstr::Kind;

bool is_acquire(MemOrder o) {
  return o == MemOrder::Acquire || o == MemOrder::AcqRel || o == MemOrder::SeqCst;
}
bool is_release(MemOrder o) {
  return o == MemOrder::Release || o == MemOrder::AcqRel || o == MemOrder::SeqCst;
}
// An atomic access in the memory model's sense: RMWs, reds, and loads and
// stores with an order (PTX ld.acquire / st.release are strong).
bool strong(Kind k, MemOrder o) {
  return k == Kind::Atomic || k == Kind::Red || o != MemOrder::Relaxed;
}

} // namespace

void RaceChecker::kernel_begin(const std::string& name) {
  kernel_ = name;
  warps_.clear();
  shadow_.clear();
  sync_.clear();
  barriers_.clear();
  reported_.clear();
}

RaceChecker::WarpState& RaceChecker::warp(const WarpInstr& in) {
  auto [it, fresh] = warps_.try_emplace(in.warp);
  if (fresh) it->second.cta = in.cta;
  return it->second;
}

RaceChecker::VectorClock RaceChecker::snapshot(uint64_t w, const WarpState& s) const {
  VectorClock c = s.vc;
  c[w] = s.clock;
  return c;
}

void RaceChecker::join(VectorClock& into, const VectorClock& from) {
  for (const auto& [w, c] : from) {
    uint32_t& mine = into[w];
    mine = std::max(mine, c);
  }
}

bool RaceChecker::ordered(const Epoch& e, uint64_t w, const WarpState& s) const {
  if (e.warp == w) return true; // program order
  const auto it = s.vc.find(e.warp);
  return it != s.vc.end() && it->second >= e.clock;
}

bool RaceChecker::covers(const Access& a, uint64_t other_cta) {
  return a.remote || a.scope != Scope::Cta || a.cta == other_cta;
}

bool RaceChecker::both_atomic_in_scope(const Access& a, const Access& b) {
  // A remote-scope-promoted operation synchronises with narrower-scoped ones
  // of every CTA (RSP): the pair is then in scope whatever the other's.
  return strong(a.kind, a.order) && strong(b.kind, b.order) &&
         (a.remote || b.remote || (covers(a, b.cta) && covers(b, a.cta)));
}

void RaceChecker::publish(Addr word, const WarpState& s, const VectorClock& clock, Scope scope,
                          bool remote) {
  SyncVar& v = sync_[word];
  if (remote)
    join(v.remote, clock);
  else if (scope == Scope::Cta)
    join(v.cta[s.cta], clock);
  else
    join(v.device[s.cta], clock);
}

void RaceChecker::acquire(Addr word, WarpState& s, Scope scope, bool remote) {
  const auto it = sync_.find(word);
  if (it == sync_.end()) return;
  const SyncVar& v = it->second;
  join(s.vc, v.remote);
  // A CTA-scope release synchronises with acquires of its own CTA only,
  // unless the acquire is promoted; a device-scope one with device-scope
  // acquires anywhere and CTA-scope acquires of its CTA.
  for (const auto& [cta, c] : v.cta)
    if (remote || cta == s.cta) join(s.vc, c);
  for (const auto& [cta, c] : v.device)
    if (remote || scope != Scope::Cta || cta == s.cta) join(s.vc, c);
}

void RaceChecker::report(Addr word, const Access& earlier, const Access& later) {
  if (!reported_.insert(word).second) return; // one pair per word and kernel
  ++count_;
  if (races_.size() < keep_) races_.push_back({kernel_, word, earlier, later});
}

void RaceChecker::access(Addr word, uint64_t w, WarpState& s, const Access& who, bool writes) {
  Shadow& sh = shadow_[word];
  auto conflicts = [&](const Epoch& e) {
    return !ordered(e, w, s) && !both_atomic_in_scope(e.who, who);
  };
  if (sh.written && conflicts(sh.write)) report(word, sh.write.who, who);
  const Epoch now{w, s.clock, who};
  if (writes) {
    for (const Epoch& r : sh.reads)
      if (conflicts(r)) report(word, r.who, who);
    sh.written = true;
    sh.write = now;
    sh.reads.clear();
    return;
  }
  for (Epoch& r : sh.reads)
    if (r.warp == w) {
      r = now;
      return;
    }
  // Past kMaxReads readers the oldest is forgotten: a race with it can be
  // missed, never invented.
  if (sh.reads.size() == kMaxReads) sh.reads.erase(sh.reads.begin());
  sh.reads.push_back(now);
}

void RaceChecker::issued(uint16_t, const WarpInstr& in, Cycle) {
  const Kind k = in.kind;
  if (k != Kind::Barrier && k != Kind::Fence && !in.is_global()) return;
  WarpState& s = warp(in);
  const uint64_t w = in.warp;
  if (s.barrier >= 0) { // every warp of the CTA arrived before this warp went on
    join(s.vc, barriers_[{s.cta, uint64_t(s.barrier)}]);
    s.barrier = -1;
  }
  if (k == Kind::Barrier) {
    join(barriers_[{s.cta, s.next_barrier}], snapshot(w, s));
    s.barrier = int64_t(s.next_barrier++);
    ++s.clock;
    return;
  }
  if (k == Kind::Fence) {
    if (is_acquire(in.order))
      for (Addr word : s.strong_reads)
        acquire(word, s, in.scope, false);
    s.strong_reads.clear();
    if (is_release(in.order)) {
      s.fence_release = true;
      s.fence_scope = in.scope;
      s.fence_clock = snapshot(w, s);
      ++s.clock;
    }
    return;
  }
  const bool writes = k != Kind::Load;
  const bool reads = k == Kind::Load || k == Kind::Atomic;
  const bool is_strong = strong(k, in.order);
  const bool acq = reads && is_acquire(in.order) && k != Kind::Red;
  const bool rel = writes && is_release(in.order);
  const unsigned size = std::max<unsigned>(in.size, 1);
  Access who{w, s.cta, 0, k, in.order, in.scope, in.remote};
  std::vector<Addr>& words = words_; // reused: no allocation per instruction
  words.clear();
  in.mask.for_each([&](unsigned lane) {
    who.lane = uint8_t(lane);
    const Addr first = in.addr[lane] & ~Addr(3), last = (in.addr[lane] + size - 1) & ~Addr(3);
    for (Addr word = first; word <= last; word += 4) {
      access(word, w, s, who, writes);
      words.push_back(word);
    }
  });
  for (Addr word : words) {
    if (acq)
      acquire(word, s, in.scope, in.remote);
    else if (reads && is_strong)
      s.strong_reads.push_back(word);
  }
  if (is_strong && writes && s.fence_release)
    for (Addr word : words)
      publish(word, s, s.fence_clock, s.fence_scope, false);
  if (rel) {
    const VectorClock c = snapshot(w, s);
    for (Addr word : words)
      publish(word, s, c, in.scope, in.remote);
    ++s.clock;
  }
}

std::string RaceChecker::describe(const Race& r) {
  auto side = [](const Access& a) {
    std::ostringstream s;
    s << to_string(a.kind);
    if (a.order != MemOrder::Relaxed || a.kind == Kind::Atomic || a.kind == Kind::Red)
      s << " (" << to_string(a.order) << ", "
        << (a.remote ? std::string_view("remote") : to_string(a.scope)) << ")";
    s << " by warp " << a.warp << " (CTA " << a.cta << ") lane " << unsigned(a.lane);
    return s.str();
  };
  std::ostringstream s;
  s << "kernel '" << r.kernel << "', word 0x" << std::hex << r.addr << std::dec << ": "
    << side(r.earlier) << ", then " << side(r.later)
    << "; no release/acquire at a scope that covers both orders them";
  return s.str();
}

} // namespace tlmgpu
