#include "models/atomic_buffer/atomic_buffer_core.hpp"

#include "tlmgpu/atomic_ops.hpp"
#include "tlmgpu/partial_update.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace tlmgpu {

namespace {

const AtomicBufferSpec& checked(const AtomicBufferSpec& s) {
  if (!s.enabled()) throw ConfigError("AtomicBufferCore: dab.level is none (no buffer to build)");
  if (s.entries < kDabLanes || s.sector_bytes == 0)
    throw ConfigError("AtomicBufferCore: spec is not derived (call AtomicBufferSpec::derive)");
  return s;
}

// Sub partials accumulate the subtrahends with add: (m - a) - b = m - (a + b)
// (as the LAB's partial lines do, include/tlmgpu/partial_update.hpp).
AtomicOp merge_op(AtomicOp op) {
  return op == AtomicOp::Sub ? AtomicOp::Add : op;
}

uint64_t truncated(uint64_t v, DataType t) {
  return size_of(t) == 8 ? v : v & 0xffffffffu;
}

} // namespace

AtomicBufferCore::AtomicBufferCore(const AtomicBufferSpec& spec, uint32_t sm_id, StatGroup& stats)
    : fusion_(checked(spec).fusion), coalescing_(spec.flush_coalescing),
      sector_bytes_(spec.sector_bytes),
      flush_start_(spec.offset_flush && sm_id % 2 == 0 ? spec.offset_index : 0),
      entries_(spec.entries),
      inserts_(stats.counter("inserts", "instructions", "warp red instructions inserted")),
      inserted_lanes_(stats.counter("inserted_lanes", "lanes", "active lanes inserted")),
      appended_entries_(
          stats.counter("appended_entries", "entries", "lanes that took a new entry")),
      fused_lanes_(
          stats.counter("fusions", "lanes", "lanes merged into an existing entry (atomic fusion)")),
      refused_inserts_(stats.counter("refused_inserts", "instructions",
                                     "insert attempts refused for lack of entries (retries "
                                     "included)")),
      full_events_(stats.counter("full_events", "events",
                                 "times the full bit was set (first refusal after a drain)")),
      flushes_(stats.counter("flushes", "flushes", "drains of a non-empty buffer")),
      packets_(stats.counter("packets", "packets", "flush packets (transactions) produced")),
      flushed_entries_(stats.counter("flushed_entries", "entries", "entries sent by flushes")) {
  stats.formula(
      "entries_per_packet", "ratio", "flushed_entries / packets (coalescing ratio)",
      [&e = flushed_entries_, &p = packets_](StatView v) { return ratio(e.value(v), p.value(v)); });
  stats.formula("fusion_rate", "ratio", "fusions / inserted_lanes",
                [&f = fused_lanes_, &l = inserted_lanes_](StatView v) {
                  return ratio(f.value(v), l.value(v));
                });
}

bool AtomicBufferCore::bufferable(AtomicOp op, DataType t) {
  return op != AtomicOp::Exch && op != AtomicOp::Cas && atomic_supported(op, t);
}

bool AtomicBufferCore::fusible(AtomicOp op, DataType t) {
  return partial_mergeable(op, t);
}

AtomicBufferCore::Lanes AtomicBufferCore::ordered(AtomicOp op, DataType t,
                                                  std::span<const RedLane> lanes) {
  if (!bufferable(op, t))
    throw std::invalid_argument("AtomicBufferCore: " + std::string(to_string(op)) + "." +
                                std::string(to_string(t)) + " is not a bufferable red");
  if (lanes.size() > kDabLanes)
    throw std::invalid_argument("AtomicBufferCore: more than 32 lanes in one instruction");
  Lanes ls;
  for (const RedLane& l : lanes) {
    if (l.addr % size_of(t) != 0)
      throw std::invalid_argument("AtomicBufferCore: lane " + std::to_string(l.lane) +
                                  " address is not aligned to its type");
    ls.v[ls.n++] = l;
  }
  // Same-address lanes go in ascending thread id (notes §3.1 [P]).
  std::sort(ls.v.begin(), ls.v.begin() + ls.n,
            [](const RedLane& a, const RedLane& b) { return a.lane < b.lane; });
  for (unsigned i = 0; i < ls.n; ++i)
    if (ls.v[i].lane >= kDabLanes || (i > 0 && ls.v[i].lane == ls.v[i - 1].lane))
      throw std::invalid_argument("AtomicBufferCore: lane id " + std::to_string(ls.v[i].lane) +
                                  " repeated or out of range");
  return ls;
}

const AtomicBufferCore::Entry* AtomicBufferCore::fusion_target(Addr addr, AtomicOp op,
                                                               DataType t) const {
  if (!fusion_ || !fusible(op, t)) return nullptr;
  auto it = latest_.find(addr);
  if (it == latest_.end()) return nullptr;
  // Only the latest entry of the address: fusing into an older one would
  // move this op before a later entry of another op (P8).
  const Entry& e = entries_[it->second];
  return e.op == op && e.type == t ? &e : nullptr;
}

uint32_t AtomicBufferCore::entries_needed(AtomicOp op, DataType t, const Lanes& ls) const {
  if (!fusion_ || !fusible(op, t)) return ls.n;
  // A lane needs an entry unless it fuses with an existing entry or with an
  // earlier lane of this instruction (which takes the entry first).
  std::array<Addr, kDabLanes> fresh{};
  uint32_t n = 0;
  for (unsigned i = 0; i < ls.n; ++i) {
    const Addr a = ls.v[i].addr;
    if (fusion_target(a, op, t) ||
        std::find(fresh.begin(), fresh.begin() + n, a) != fresh.begin() + n)
      continue;
    fresh[n++] = a;
  }
  return n;
}

bool AtomicBufferCore::fits(AtomicOp op, DataType t, std::span<const RedLane> lanes) const {
  return used_ + entries_needed(op, t, ordered(op, t, lanes)) <= capacity();
}

bool AtomicBufferCore::insert(AtomicOp op, DataType t, std::span<const RedLane> lanes) {
  const Lanes ls = ordered(op, t, lanes);
  if (ls.n == 0) return true;
  if (used_ + entries_needed(op, t, ls) > capacity()) {
    ++refused_inserts_;
    if (!full_) ++full_events_;
    full_ = true;
    return false;
  }
  for (unsigned i = 0; i < ls.n; ++i) {
    const RedLane& l = ls.v[i];
    if (const Entry* target = fusion_target(l.addr, op, t)) {
      Entry& e = entries_[target - entries_.data()];
      // e.arg = op(e.arg, operand) in the type's own arithmetic (IEEE
      // binary32 for f32); the little-endian host keeps 4 B values in the
      // low bytes (checked in atomic_ops.cpp).
      apply_atomic(merge_op(op), t, reinterpret_cast<uint8_t*>(&e.arg), l.operand, 0);
      ++fused_lanes_;
      continue;
    }
    entries_[used_] = {l.addr, truncated(l.operand, t), op, t, true};
    latest_[l.addr] = used_++;
    ++appended_entries_;
  }
  ++inserts_;
  inserted_lanes_ += ls.n;
  return true;
}

std::vector<uint32_t> AtomicBufferCore::drain_order() const {
  // Offset flushing starts at a physical slot and wraps; unused slots are
  // skipped, so a buffer holding fewer entries than the start index drains
  // from 0 (notes P18: 0-based index).
  std::vector<uint32_t> order;
  order.reserve(used_);
  const uint32_t cap = capacity();
  for (uint32_t i = 0; i < cap; ++i) {
    const uint32_t slot = (flush_start_ + i) % cap;
    if (slot < used_) order.push_back(slot);
  }
  if (flush_start_ == 0 || coalescing_) return order; // coalesced packets sort their ops below
  // Rotation moves positions, never the order of two entries of one address:
  // a later red to the same word (another op, or fusion off) must not be
  // applied before an earlier one. Each address's positions are refilled
  // with its entries in insertion order.
  std::unordered_map<Addr, std::vector<uint32_t>> by_addr;
  for (uint32_t i = 0; i < used_; ++i)
    by_addr[entries_[i].addr].push_back(i);
  std::unordered_map<Addr, uint32_t> taken;
  for (uint32_t& slot : order) {
    const Addr a = entries_[slot].addr;
    slot = by_addr[a][taken[a]++];
  }
  return order;
}

std::vector<FlushPacket> AtomicBufferCore::drain() {
  std::vector<FlushPacket> out;
  full_ = false;
  if (used_ == 0) return out;
  const Addr sector_mask = ~Addr{sector_bytes_ - 1};
  std::unordered_map<Addr, size_t> packet_of_sector; // lookup only
  for (uint32_t i : drain_order()) {
    Entry& e = entries_[i];
    const FlushOp op{e.addr, e.op, e.type, e.arg, i};
    const Addr sector = e.addr & sector_mask;
    if (coalescing_) {
      auto [it, fresh] = packet_of_sector.try_emplace(sector, out.size());
      if (fresh) out.emplace_back().sector = sector;
      out[it->second].ops.push_back(op);
    } else {
      FlushPacket& p = out.emplace_back();
      p.sector = sector;
      p.ops.push_back(op);
    }
    e.valid = false;
  }
  if (coalescing_) // same-address entries share a sector: entry order keeps them in order
    for (FlushPacket& p : out)
      std::sort(p.ops.begin(), p.ops.end(),
                [](const FlushOp& a, const FlushOp& b) { return a.entry < b.entry; });
  ++flushes_;
  packets_ += out.size();
  flushed_entries_ += used_;
  used_ = 0;
  latest_.clear();
  return out;
}

} // namespace tlmgpu
