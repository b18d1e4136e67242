#include "models/l1/l1_core.hpp"

#include <bit>
#include <stdexcept>
#include <string>

namespace tlmgpu {

namespace {

const L1Spec& checked(const L1Spec& s) {
  if (s.bytes != 0 && (s.sets == 0 || s.sectors_per_line == 0))
    throw ConfigError("L1Core: spec is not derived (sets/sectors_per_line are 0)");
  if (s.write_policy != "write_through" && s.write_policy != "write_back")
    throw ConfigError("L1Core: unknown write_policy '" + s.write_policy + "'");
  if (s.write_allocate_fetch != "on_write" && s.write_allocate_fetch != "lazy_on_read")
    throw ConfigError("L1Core: unknown write_allocate_fetch '" + s.write_allocate_fetch + "'");
  return s;
}

} // namespace

L1Core::L1Core(const L1Spec& spec, StatGroup& stats)
    : spec_(checked(spec)),
      write_back_(spec.write_policy == "write_back" || spec.protocol() == AtomicProtocol::Scoped),
      array_(spec.bytes == 0 ? 0 : spec.sets, spec.ways, spec.line_bytes, spec.sector_bytes),
      configured_bytes_(stats.average("configured_bytes", "bytes",
                                      "L1 data capacity per kernel after the SRAM carve-out")),
      loads_(stats.counter("loads", "requests", "load requests")),
      load_hits_(stats.counter("load_hits", "requests", "loads whose sectors were all valid")),
      load_misses_(stats.counter("load_misses", "requests", "loads missing at least one sector")),
      sector_misses_(stats.counter("sector_misses", "sectors", "sectors fetched for load misses")),
      stores_(stats.counter("stores", "requests", "global store requests")),
      store_hits_(stats.counter("store_hits", "requests",
                                "stores whose written sectors were all valid here")),
      atomics_invalidated_(stats.counter("atomics_invalidated", "lines",
                                         "lines whose copy an atomic (performed at L2) dropped")),
      fills_(stats.counter("fills", "fills", "sector fills installed")),
      evictions_(stats.counter("evictions", "lines", "valid lines replaced")),
      writebacks_(stats.counter("writebacks", "lines", "dirty lines written to L2 (write_back)")),
      invalidations_(stats.counter("invalidations", "events",
                                   "invalidate_all calls (kernel-boundary acquires)")) {
  stats.formula(
      "load_hit_rate", "ratio", "load_hits / loads",
      [&h = load_hits_, &n = loads_](StatView v) { return ratio(h.value(v), n.value(v)); });
  if (spec.protocol() == AtomicProtocol::Hlrc) init_hlrc(stats);
  // PHI allocates on a store (its paper's port); the scoped L1 write-combines
  // (allocates without a fetch; a load fetches only the bytes it lacks).
  const bool scoped = spec.protocol() == AtomicProtocol::Scoped;
  write_allocate_ = spec.write_allocate || spec.protocol() == AtomicProtocol::Phi || scoped;
  lazy_fetch_ = spec.write_allocate_fetch == "lazy_on_read" || scoped;
  if (spec.protocol() == AtomicProtocol::Phi) init_phi(stats);
  if (spec.protocol() == AtomicProtocol::Scoped) init_scoped(stats);
}

L1Outcome L1Core::load(Addr line, uint32_t sectors, uint8_t* data, bool replay) {
  L1Outcome out;
  if (!replay) ++loads_;
  CacheLine* l = array_.find(line); // null when disabled
  phi_check(l, "load");
  const uint32_t missing = l ? array_.missing_sectors(*l, sectors) : sectors;
  if (missing != 0) {
    if (!replay) {
      ++load_misses_;
      sector_misses_ += static_cast<uint64_t>(std::popcount(missing));
    }
    out.kind = L1Outcome::Kind::Miss;
    out.fetch_sectors = missing;
    return out;
  }
  if (!replay) ++load_hits_;
  array_.touch(*l);
  array_.copy_sectors(sectors, l->data.data(), data);
  return out;
}

std::optional<Writeback> L1Core::fill(Addr line, uint32_t sectors, const uint8_t* data) {
  std::optional<Writeback> wb;
  if (!enabled()) return wb;
  ++fills_;
  CacheLine* l = array_.find(line);
  phi_check(l, "fill");
  if (!l) {
    bool was_evicted = false;
    CacheLine victim;
    l = &array_.allocate(line, &victim, &was_evicted);
    if (was_evicted) wb = evicted(victim);
  } else {
    array_.touch(*l);
  }
  const ByteMask m = array_.sector_bytes_mask(sectors & array_.all_sectors());
  ByteMask fresh = m; // bytes written while the fill was in flight win
  fresh.remove(l->valid_bytes);
  fresh.copy_masked(l->data.data(), data, spec_.line_bytes);
  l->valid_bytes |= m;
  return wb;
}

std::optional<Writeback> L1Core::evicted(const CacheLine& victim) {
  std::optional<Writeback> wb;
  ++evictions_;
  if (phi_ && update_only(victim)) { // its partial values leave as Red packets
    ++*phi_->update_evictions;
    phi_drain(victim);
    return wb;
  }
  // Dirty: write_back mode, or an hLRC owned line (released even if clean).
  if (victim.dirty_bytes.any() || victim.owned) {
    wb.emplace();
    wb->line = victim.line;
    wb->data = victim.data;
    wb->dirty = victim.dirty_bytes;
    wb->owned = victim.owned;
    if (victim.owned)
      ++*owned_evictions_;
    else
      ++writebacks_;
  }
  return wb;
}

L1Outcome L1Core::store_plain(Addr line, const uint8_t* data, const uint8_t* be, bool replay) {
  L1Outcome out;
  out.kind = L1Outcome::Kind::Forward;
  if (!replay) ++stores_;
  if (!enabled()) return out;

  const ByteMask all = array_.sector_bytes_mask(array_.all_sectors());
  const ByteMask m = be ? ByteMask::from_enables(be, spec_.line_bytes) : all;
  uint32_t touched = 0;
  for (uint32_t s = 0; s < array_.sectors_per_line(); ++s)
    if (m.any(s * spec_.sector_bytes, spec_.sector_bytes)) touched |= uint32_t{1} << s;

  CacheLine* l = array_.find(line);
  phi_check(l, "store");
  const uint32_t missing = l ? array_.missing_sectors(*l, touched) : touched;
  if (missing != 0 && write_allocate_ && lazy_fetch_) return store_allocate(line, l, m, data);
  if (missing != 0 && write_allocate_) {
    // Fetch-on-write (GPGPU-Sim's F): a missing sector the store writes
    // completely is not fetched. The others are, and nothing is written until
    // the replay after their fill.
    uint32_t partial = 0;
    for (uint32_t s = 0; s < array_.sectors_per_line(); ++s)
      if ((missing >> s & 1) && !m.all(s * spec_.sector_bytes, spec_.sector_bytes))
        partial |= uint32_t{1} << s;
    if (partial == 0) return store_allocate(line, l, m, data);
    out.kind = L1Outcome::Kind::Miss;
    out.fetch_sectors = partial;
    return out;
  }
  if (missing == 0 && !replay) ++store_hits_;
  if (!l) return out; // no-write-allocate miss: bypass

  // Only fully valid sectors are updated: a partial write must never make a
  // sector look valid, and stale bytes of a present sector must not survive.
  const ByteMask upd = m & array_.sector_bytes_mask(touched & ~missing);
  if (upd.none()) return out;
  array_.touch(*l);
  upd.copy_masked(l->data.data(), data, spec_.line_bytes);
  if ((write_back_ || l->owned) && missing == 0) { // an owned line keeps its stores
    l->dirty_bytes |= upd;
    out.kind = L1Outcome::Kind::Hit;
  }
  return out;
}

// Write-allocate without a fetch: the written bytes become valid (and dirty
// in write_back mode) at once. Lazy fetch-on-read does this for any store
// (whole sectors or not: a load wanting the other bytes of a sector misses
// it, and the fill keeps the bytes already valid); fetch-on-write only when
// every missing sector is written completely.
L1Outcome L1Core::store_allocate(Addr line, CacheLine* l, const ByteMask& m, const uint8_t* data) {
  L1Outcome out;
  out.kind = L1Outcome::Kind::Forward;
  if (!l) {
    bool was_evicted = false;
    CacheLine victim;
    l = &array_.allocate(line, &victim, &was_evicted);
    if (was_evicted) out.writeback = evicted(victim);
  } else {
    array_.touch(*l);
  }
  m.copy_masked(l->data.data(), data, spec_.line_bytes);
  l->valid_bytes |= m;
  if (write_back_ || l->owned) {
    l->dirty_bytes |= m;
    out.kind = L1Outcome::Kind::Hit;
  }
  return out;
}

std::optional<Writeback> L1Core::atomic(Addr line, uint32_t sectors) {
  std::optional<Writeback> wb;
  CacheLine* l = array_.find(line);
  phi_check(l, "atomic");
  if (!l) return wb;
  const ByteMask drop = array_.sector_bytes_mask(sectors & array_.all_sectors());
  const ByteMask dirty = l->dirty_bytes & drop;
  if (dirty.any()) {
    wb.emplace();
    wb->line = line;
    wb->data = l->data;
    wb->dirty = dirty;
    ++writebacks_;
  }
  if ((l->valid_bytes & drop).any()) ++atomics_invalidated_;
  l->valid_bytes.remove(drop);
  l->dirty_bytes.remove(drop);
  if (l->valid_bytes.none()) array_.invalidate(*l);
  return wb;
}

std::vector<Writeback> L1Core::flush() {
  if (phi_) phi_flush(); // partial values are not dirty data: they leave as Red packets
  if (scoped_) return scoped_release(); // the kernel end is a system-scope release
  array_.for_each_valid([](const CacheLine& l) {
    if (l.owned)
      throw std::logic_error("L1Core::flush with owned line " + std::to_string(l.line) +
                             " (give_up_all() first: its bytes are a release)");
  });
  std::vector<Writeback> out = array_.take_dirty();
  writebacks_ += out.size();
  return out;
}

void L1Core::invalidate_all() {
  ++invalidations_;
  if (srsp_) srsp_->pa.clear();
  array_.for_each_valid([&](CacheLine& l) {
    if (l.dirty_bytes.any() || l.owned)
      throw std::logic_error("L1Core::invalidate_all would lose the " +
                             std::string(l.owned ? "owned" : "dirty") + " line at address " +
                             std::to_string(l.line) + " (call give_up_all() / flush() first)");
  });
  array_.for_each_valid([&](CacheLine& l) { array_.invalidate(l); });
}

void L1Core::set_ways(uint32_t ways) {
  size_t valid = 0;
  array_.for_each_valid([&](CacheLine&) { ++valid; });
  if (valid != 0) throw std::logic_error("L1Core::set_ways with valid lines (invalidate first)");
  if (ways != array_.ways() || (ways == 0) == array_.enabled())
    array_ = CacheArray(ways == 0 ? 0 : spec_.sets, std::max(ways, 1u), spec_.line_bytes,
                        spec_.sector_bytes);
  configured_bytes_.sample(double(ways) * spec_.sets * spec_.line_bytes);
}

} // namespace tlmgpu
