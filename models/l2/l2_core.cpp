#include "models/l2/l2_core.hpp"

#include "tlmgpu/atomic_ops.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace tlmgpu {

// ---- WordReadyTable ---------------------------------------------------------

Cycle WordReadyTable::get(Addr key) const {
  const size_t mask = slots_.size() - 1;
  for (size_t i = home(key); slots_[i].ready != 0; i = (i + 1) & mask)
    if (slots_[i].key == key) return slots_[i].ready;
  return 0;
}

void WordReadyTable::set(Addr key, Cycle ready, Cycle now) {
  if ((used_ + 1) * 2 > slots_.size()) rebuild(now);
  const size_t mask = slots_.size() - 1;
  size_t i = home(key);
  for (; slots_[i].ready != 0; i = (i + 1) & mask) {
    if (slots_[i].key == key) {
      slots_[i].ready = ready;
      return;
    }
  }
  slots_[i] = {key, ready};
  ++used_;
}

// Entries whose op finished by `now` can never delay a later op (calls come in
// non-decreasing `now`), so they are dropped; the table only grows when the
// words still in flight fill a quarter of it.
void WordReadyTable::rebuild(Cycle now) {
  size_t live = 0;
  for (const Slot& s : slots_)
    live += s.ready > now;
  size_t cap = slots_.size();
  while (live * 4 > cap)
    cap *= 2;
  std::vector<Slot> old(cap);
  old.swap(slots_); // allocates only here, at most once per rebuild
  used_ = 0;
  const size_t mask = cap - 1;
  for (const Slot& s : old) {
    if (s.ready <= now) continue;
    size_t i = home(s.key);
    while (slots_[i].ready != 0)
      i = (i + 1) & mask;
    slots_[i] = s;
    ++used_;
  }
}

// ---- L2Core ------------------------------------------------------------------

namespace {

const L2Spec& checked(const L2Spec& s) {
  if (s.sets == 0 || s.sectors_per_line == 0)
    throw ConfigError("L2Core: spec is not derived (sets/sectors_per_line are 0)");
  if (s.atomics_per_cycle == 0 || s.atomic_latency == 0)
    throw ConfigError("L2Core: atomics_per_cycle and atomic_latency must be >= 1");
  return s;
}

} // namespace

L2Core::L2Core(const L2Spec& spec, StatGroup& stats)
    : spec_(checked(spec)), array_(spec.sets, spec.ways, spec.line_bytes, spec.sector_bytes),
      loads_(stats.counter("loads", "requests", "load requests")),
      load_hits_(stats.counter("load_hits", "requests", "loads whose sectors were all valid")),
      load_misses_(
          stats.counter("load_misses", "requests", "loads that needed a sector fetch from DRAM")),
      stores_(stats.counter("stores", "requests", "store requests (never miss: lazy fetch)")),
      store_hits_(stats.counter("store_hits", "requests", "stores that found their line present")),
      atomics_(stats.counter("atomics", "requests", "atomic and reduction requests")),
      atomic_hits_(stats.counter("atomic_hits", "requests",
                                 "atomic requests whose lane words were all valid")),
      atomic_misses_(stats.counter("atomic_misses", "requests",
                                   "atomic requests that needed a sector fetch first")),
      atomic_lane_ops_(stats.counter("atomic_lane_ops", "ops",
                                     "read-modify-writes performed by the atomic unit")),
      same_word_serializations_(stats.counter(
          "same_word_serializations", "ops",
          "lane ops that waited for an earlier op to the same word (same or earlier request)")),
      same_word_wait_cycles_(stats.counter("same_word_wait_cycles", "cycles",
                                           "cycles lane ops waited for an earlier op to the "
                                           "same word, beyond the wait for a unit slot")),
      atomic_wait_cycles_(stats.counter("atomic_wait_cycles", "cycles",
                                        "cycles from request arrival to each lane op's start "
                                        "(unit throughput and same-word waits), summed")),
      fills_(stats.counter("fills", "fills", "sector fills from DRAM")),
      writebacks_(stats.counter("writebacks", "lines", "dirty lines written back to DRAM")),
      evictions_(stats.counter("evictions", "lines", "valid lines replaced")) {
  stats.formula(
      "load_hit_rate", "ratio", "load_hits / loads",
      [&h = load_hits_, &n = loads_](StatView v) { return ratio(h.value(v), n.value(v)); });
  stats.formula("hit_rate", "ratio", "(load_hits + store_hits + atomic_hits) / all requests",
                [&lh = load_hits_, &sh = store_hits_, &ah = atomic_hits_, &l = loads_, &s = stores_,
                 &a = atomics_](StatView v) {
                  return ratio(double(lh.value(v) + sh.value(v) + ah.value(v)),
                               double(l.value(v) + s.value(v) + a.value(v)));
                });
}

void L2Core::set_booking(Booking b) {
  alu_.set_booking(b);
  time_order_ = b == Booking::TimeOrder;
}

void L2Core::retire(Cycle floor) {
  if (!time_order_) return;
  alu_.retire(floor * spec_.atomics_per_cycle);
  word_busy_.retire(floor);
}

L2Outcome L2Core::access(GpuAccess& a, Addr line, uint8_t* data, const uint8_t* byte_enable,
                         Cycle now, bool replay) {
  if (line != array_.line_of(line)) throw std::invalid_argument("L2Core::access: unaligned line");
  // An L1 line fill is a load of its sectors; an L1 write-back is a store of
  // its dirty bytes.
  if (a.kind == AccessKind::Load || a.kind == AccessKind::Fill) return load(a, line, data, replay);
  if (a.kind == AccessKind::Store || a.kind == AccessKind::Eviction)
    return store(a, line, data, byte_enable, replay);
  if (a.is_rmw()) return rmw(a, line, replay, now);
  throw std::invalid_argument("L2Core::access: unsupported kind " + std::string(to_string(a.kind)));
}

L2Outcome L2Core::load(GpuAccess& a, Addr line, uint8_t* data, bool replay) {
  const uint32_t sectors = a.sector_mask & array_.all_sectors();
  if (sectors == 0) throw std::invalid_argument("L2Core: load with an empty sector mask");
  if (!replay) ++loads_;
  L2Outcome out;
  CacheLine* l = array_.find(line);
  out.fetch_sectors = l ? array_.missing_sectors(*l, sectors) : sectors;
  if (out.fetch_sectors != 0) {
    if (!replay) ++load_misses_;
    return out;
  }
  if (!replay) ++load_hits_;
  array_.touch(*l);
  array_.copy_sectors(sectors, l->data.data(), data);
  out.hit = true;
  return out;
}

L2Outcome L2Core::store(GpuAccess& a, Addr line, const uint8_t* data, const uint8_t* be,
                        bool replay) {
  if (!be && (a.sector_mask & array_.all_sectors()) == 0)
    throw std::invalid_argument("L2Core: store without byte enables or sector mask");
  L2Outcome out;
  out.hit = true;
  if (!replay) ++stores_;
  CacheLine* l = array_.find(line);
  if (l) {
    if (!replay) ++store_hits_;
    array_.touch(*l);
  } else {
    l = &install(line, out.writeback);
  }
  const ByteMask m = be ? ByteMask::from_enables(be, spec_.line_bytes)
                        : array_.sector_bytes_mask(a.sector_mask & array_.all_sectors());
  m.copy_masked(l->data.data(), data, spec_.line_bytes);
  l->valid_bytes |= m;
  l->dirty_bytes |= m;
  return out;
}

L2Outcome L2Core::rmw(GpuAccess& a, Addr line, bool replay, Cycle now) {
  if (a.lanes.size() > kMaxLanes) throw std::invalid_argument("L2Core: more lanes than kMaxLanes");
  const unsigned size = size_of(a.type);
  if (!replay) ++atomics_;
  L2Outcome out;
  CacheLine* l = array_.find(line);
  ByteMask touched; // every lane's bytes: one validity test and one dirty update
  for (const LaneOp& op : a.lanes) {
    const unsigned off = op.offset;
    if ((off & (size - 1)) != 0 || off + size > spec_.line_bytes) // size: 1, 2, 4 or 8
      throw std::invalid_argument("L2Core: lane offset " + std::to_string(off) +
                                  " misaligned or outside the line");
    touched.set_range(off, size);
  }
  if (!l || (l->valid_bytes & touched) != touched) // a miss: the sectors to fetch, lane by lane
    for (const LaneOp& op : a.lanes) {
      const uint32_t s = array_.sectors_of(op.offset, size);
      if (!l)
        out.fetch_sectors |= s;
      else if (!l->valid_bytes.all(op.offset, size))
        out.fetch_sectors |= array_.missing_sectors(*l, s);
    }
  if (out.fetch_sectors != 0) {
    if (!replay) ++atomic_misses_;
    return out;
  }
  if (!replay) ++atomic_hits_;
  out.hit = true;
  if (a.lanes.empty()) return out;
  array_.touch(*l);
  Cycle done = now;
  for (LaneOp& op : a.lanes) {
    op.result = apply_atomic(a.op, a.type, &l->data[op.offset], op.operand, op.compare);
    // Functional runs have no time: the atomic unit's queueing is skipped.
    if (timed_)
      done = std::max(done, time_order_ ? schedule_lane_op_lt(line + op.offset, size, now)
                                        : schedule_lane_op(line + op.offset, size, now));
  }
  l->dirty_bytes |= touched;
  atomic_lane_ops_ += a.lanes.size();
  out.extra_cycles = done - now;
  return out;
}

// In-order atomic unit: lane ops issue in call and lane order, at most
// atomics_per_cycle per cycle, and an op on a word whose previous op is still
// in flight waits for it (a read-modify-write must see the previous result),
// holding up the ops behind it. Words are tracked per 4-byte granule so an
// 8-byte op and a 4-byte op on either half serialize too.
Cycle L2Core::schedule_lane_op(Addr addr, unsigned size, Cycle now) {
  const Cycle per = spec_.atomics_per_cycle;
  Cycle ready = 0;
  for (unsigned g = 0; g < size / 4; ++g)
    ready = std::max(ready, word_ready_.get((addr >> 2) + g));
  const Cycle slot = std::max(now * per, alu_.free_at()) / per; // start if the word were free
  if (ready > slot) {
    ++same_word_serializations_;
    same_word_wait_cycles_ += ready - slot;
  }
  const Cycle start = alu_.acquire(std::max(now, ready) * per, 1) / per;
  const Cycle finish = start + spec_.atomic_latency;
  atomic_wait_cycles_ += start - now;
  for (unsigned g = 0; g < size / 4; ++g)
    word_ready_.set((addr >> 2) + g, finish, now);
  return finish;
}

// The same unit served in arrival-time order (LT): an op starts at the first
// cycle >= now where a unit slot is free and its words are free for
// atomic_latency cycles, wherever earlier calls booked. Unlike the in-order
// unit, an op waiting for its word does not hold up the ops behind it: with
// calls out of time order there is no "behind" to hold up.
Cycle L2Core::schedule_lane_op_lt(Addr addr, unsigned size, Cycle now) {
  const Cycle per = spec_.atomics_per_cycle, lat = spec_.atomic_latency;
  const unsigned granules = size / 4;
  IntervalResource* words[2]; // lane ops are 4 or 8 bytes
  if (granules == 0 || granules > 2) throw std::invalid_argument("L2Core: lane op size");
  word_busy_.reserve(granules);
  for (unsigned g = 0; g < granules; ++g)
    words[g] = &word_busy_.at((addr >> 2) + g);
  auto words_free_from = [&](Cycle s) {
    for (bool moved = true; moved;) {
      moved = false;
      for (unsigned g = 0; g < granules; ++g) {
        const Cycle e = words[g]->earliest(s, lat);
        moved = moved || e != s;
        s = e;
      }
    }
    return s;
  };
  const Cycle words_ready = words_free_from(now);
  if (words_ready > now) {
    const Cycle slot = alu_.earliest(now * per, 1) / per; // start if the words were free
    if (words_ready > slot) {
      ++same_word_serializations_;
      same_word_wait_cycles_ += words_ready - slot;
    }
  }
  // Both constraints only push the start later, so alternating converges.
  Cycle start = words_ready, tick = alu_.earliest(start * per, 1);
  while (tick / per != start) {
    start = words_free_from(tick / per);
    tick = alu_.earliest(start * per, 1);
  }
  alu_.book(tick, 1); // the unit's own stats are not published
  for (unsigned g = 0; g < granules; ++g)
    words[g]->book(start, lat);
  atomic_wait_cycles_ += start - now;
  return start + lat;
}

CacheLine& L2Core::install(Addr line, std::optional<Writeback>& wb) {
  bool evicted = false;
  CacheLine victim;
  CacheLine& l = array_.allocate(line, &victim, &evicted);
  if (evicted) {
    ++evictions_;
    if (victim.dirty_bytes.any()) {
      wb.emplace();
      wb->line = victim.line;
      wb->data = victim.data;
      wb->dirty = victim.dirty_bytes;
      ++writebacks_;
    }
  }
  return l;
}

std::optional<Writeback> L2Core::fill(Addr line, uint32_t sectors, const uint8_t* data) {
  std::optional<Writeback> wb;
  CacheLine* l = array_.find(line);
  if (!l) l = &install(line, wb);
  ++fills_;
  const ByteMask m = array_.sector_bytes_mask(sectors & array_.all_sectors());
  ByteMask fresh = m; // bytes written while the fill was in flight win
  fresh.remove(l->valid_bytes);
  fresh.copy_masked(l->data.data(), data, spec_.line_bytes);
  l->valid_bytes |= m;
  return wb;
}

void L2Core::debug_overlay(Addr addr, uint8_t* dst, size_t n) const {
  while (n > 0) {
    const Addr line = array_.line_of(addr);
    const unsigned off = static_cast<unsigned>(addr - line);
    const size_t take = std::min<size_t>(n, spec_.line_bytes - off);
    if (const CacheLine* l = array_.find(line))
      for (size_t i = 0; i < take; ++i)
        if (l->valid_bytes.test(off + unsigned(i))) dst[i] = l->data[off + i];
    addr += take;
    dst += take;
    n -= take;
  }
}

void L2Core::debug_write(Addr addr, const uint8_t* src, size_t n) {
  while (n > 0) {
    const Addr line = array_.line_of(addr);
    const unsigned off = static_cast<unsigned>(addr - line);
    const size_t take = std::min<size_t>(n, spec_.line_bytes - off);
    if (CacheLine* l = array_.find(line))
      for (size_t i = 0; i < take; ++i)
        if (l->valid_bytes.test(off + unsigned(i))) l->data[off + i] = src[i];
    addr += take;
    src += take;
    n -= take;
  }
}

L2Outcome L2Core::grant(GpuAccess& a, Addr line, uint8_t* data, Cycle now, bool replay) {
  if (line != array_.line_of(line)) throw std::invalid_argument("L2Core::grant: unaligned line");
  if (!a.is_rmw()) throw std::invalid_argument("L2Core::grant: not an atomic or red");
  CacheLine* l = array_.find(line);
  const uint32_t missing =
      l ? array_.missing_sectors(*l, array_.all_sectors()) : array_.all_sectors();
  if (missing != 0) {
    if (!replay) ++atomics_, ++atomic_misses_;
    L2Outcome out;
    out.fetch_sectors = missing;
    return out;
  }
  L2Outcome out = rmw(a, line, replay, now); // every word is valid: a hit
  array_.copy_sectors(array_.all_sectors(), l->data.data(), data);
  return out;
}

std::optional<Writeback> L2Core::absorb(const Writeback& wb) {
  std::optional<Writeback> victim;
  if (wb.dirty.none()) return victim;
  CacheLine* l = array_.find(wb.line);
  if (l)
    array_.touch(*l);
  else
    l = &install(wb.line, victim);
  wb.dirty.copy_masked(l->data.data(), wb.data.data(), spec_.line_bytes);
  l->valid_bytes |= wb.dirty;
  l->dirty_bytes |= wb.dirty;
  return victim;
}

std::vector<Writeback> L2Core::flush_all() {
  std::vector<Writeback> out = array_.take_dirty();
  writebacks_ += out.size();
  return out;
}

} // namespace tlmgpu
