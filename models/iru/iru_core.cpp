#include "models/iru/iru_core.hpp"

#include <algorithm>
#include <stdexcept>

namespace tlmgpu {

IruCore::IruCore(const IruGeometry& g)
    : g_(g),
      routing_(g.partitions, g.partitions ? g.sets / g.partitions : 0, g.banks, g.line_bytes) {
  if (g.sets % g.partitions)
    throw std::invalid_argument("IRU: " + std::to_string(g.sets) + " hash sets do not split " +
                                "evenly over " + std::to_string(g.partitions) + " partitions");
  for (uint32_t p = 0; p < g.partitions; ++p)
    parts_.push_back(
        Part{IruHashSlice(g.sets / g.partitions, g.slots, g.residue), {}, {}, 0, false, {}});
}

void IruCore::configure(const IruConfig& c, IruMerge merge) {
  routing_.set_target(c.target, c.elem_bytes);
  merge_ = merge;
  remaining_ = c.n;
  open_ = c.streamed;
  advanced_ = 0;
  for (Part& q : parts_) {
    q.hash.clear();
    if (c.forget) q.hash.remember(false);
    q.hash.remember(c.remember);
    q.queue = {};
    q.bank_free.assign(g_.banks, 0);
    q.floor = 0;
    q.stalled = false;
  }
}

void IruCore::arrive(uint32_t p, const IruElement& e, Cycle at) {
  if (e.index == kIruInactive)
    throw std::invalid_argument("IRU: index 0xffffffff is the inactive-lane mark, not an index");
  if (routing_.place(e.index).partition != p)
    throw std::logic_error("IRU: element delivered to a partition that does not own its set");
  parts_.at(p).queue.push({at, seq_++, e});
  ++parts_[p].n.arrived;
}

Cycle IruCore::head_time(const Part& q) const {
  if (q.queue.empty() || q.stalled) return kIruNever;
  const Queued& h = q.queue.top();
  const auto pl = routing_.place(h.e.index);
  return std::max({h.at, q.floor, q.bank_free[pl.bank]});
}

void IruCore::advance(Cycle now) {
  advanced_ = std::max(advanced_, now);
  for (Part& q : parts_)
    for (Cycle t; (t = head_time(q)) <= now;) {
      const IruElement e = q.queue.top().e;
      const auto pl = routing_.place(e.index);
      switch (q.hash.insert(pl.set, pl.block, e, merge_)) {
      case IruHashSlice::Insert::Full:
        // Data Processing waits for the Replier to evict the set
        // (notes §3.4 step 5, the thesis' behaviour): everything behind it waits too.
        q.stalled = true;
        ++q.n.stalls;
        continue;
      case IruHashSlice::Insert::Remembered:
        ++q.n.remembered;
        [[fallthrough]];
      case IruHashSlice::Insert::Merged:
        ++q.n.merged;
        --remaining_;
        break;
      case IruHashSlice::Insert::Added:
        ++q.n.inserted;
        break;
      }
      q.bank_free[pl.bank] = t + 1;
      q.queue.pop();
    }
}

Cycle IruCore::next_insert() const {
  Cycle t = kIruNever;
  for (const Part& q : parts_)
    t = std::min(t, head_time(q));
  return t;
}

uint64_t IruCore::held() const {
  uint64_t h = 0;
  for (const Part& q : parts_)
    h += q.hash.held();
  return h;
}

uint32_t IruCore::distinct_blocks(const std::vector<IruElement>& e) const {
  std::vector<uint64_t> b;
  for (const IruElement& x : e)
    b.push_back(routing_.block_of(x.index));
  std::sort(b.begin(), b.end());
  return uint32_t(std::unique(b.begin(), b.end()) - b.begin());
}

std::optional<IruCore::Reply> IruCore::reply(uint32_t p, uint32_t lanes, bool timed_out, Cycle now,
                                             uint64_t idle) {
  Part& me = parts_.at(p);
  Reply r{Kind::Inactive, {}, 0, 0, 0};
  if (remaining_ == 0 && !open_) {
    ++me.n.replies_inactive;
    return r;
  }
  const uint64_t held_now = held();
  int full = g_.slots >= lanes ? me.hash.oldest_full() : -1;
  Part* from = &me;
  for (uint32_t h = 1; full < 0 && g_.slots >= lanes && h < g_.partitions; ++h) {
    const uint32_t q = (p + g_.partitions - h) % g_.partitions;
    if ((q >= 64 || (idle >> q & 1)) && (full = parts_[q].hash.oldest_full()) >= 0)
      from = &parts_[q], r.max_hops = h;
  }
  if (full >= 0) {
    r.kind = Kind::Full;
    from->hash.take(uint32_t(full), lanes, r.elements);
    if (from != &me) r.stolen = uint32_t(r.elements.size());
  } else if (const bool drain = held_now == remaining_ && !open_;
             drain || (timed_out && held_now >= lanes)) {
    r.kind = drain ? Kind::Drain : Kind::Timeout;
    me.hash.collect(lanes, r.elements);
    // Then the other partitions, nearest first: their sets come to p over
    // the ring (partition q is hops(q, p) away downstream).
    for (uint32_t h = 1; h < g_.partitions && r.elements.size() < lanes; ++h) {
      Part& q = parts_[(p + g_.partitions - h) % g_.partitions];
      const uint32_t got = q.hash.collect(lanes - uint32_t(r.elements.size()), r.elements);
      if (got) r.max_hops = h, r.stolen += got;
    }
  } else {
    return std::nullopt;
  }
  remaining_ -= r.elements.size();
  me.n.replied += r.elements.size();
  me.n.stolen += r.stolen;
  ++(r.kind == Kind::Full      ? me.n.replies_full
     : r.kind == Kind::Timeout ? me.n.replies_timeout
                               : me.n.replies_drain);
  r.blocks = distinct_blocks(r.elements);
  // A set was freed: queues stalled on a full set may go on from `now`.
  for (Part& q : parts_)
    if (q.stalled) q.stalled = false, q.floor = std::max(q.floor, now);
  return r;
}

std::optional<IruCore::Timed> IruCore::reply_by(uint32_t p, uint32_t lanes, Cycle t,
                                                Cycle timeout) {
  const Cycle due = t + timeout;
  for (Cycle now = t;;) {
    advance(now);
    if (auto r = reply(p, lanes, now >= due, now)) return Timed{std::move(*r), now};
    Cycle next = next_insert(); // > now: advance(now) did what was due
    if (now < due) next = std::min(next, due);
    if (next == kIruNever) return std::nullopt;
    now = next;
  }
}

} // namespace tlmgpu
