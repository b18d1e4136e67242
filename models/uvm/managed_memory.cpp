#include "models/uvm/managed_memory.hpp"

#include "tlmgpu/params.hpp"

#include <algorithm>
#include <string>

namespace tlmgpu::uvm {

ManagedMemory::GpuStats::GpuStats(StatGroup& g)
    : faults(g.counter("faults", "pages", "page faults (pages touched while elsewhere)")),
      batches(g.counter("batches", "batches", "fault batches serviced")),
      from_host(g.counter("from_host", "pages", "pages migrated in from the host")),
      from_peer(g.counter("from_peer", "pages",
                          "pages migrated in from another GPU (thrash on shared pages)")),
      migrated_bytes(g.counter("migrated_bytes", "bytes", "bytes of pages migrated in")),
      evicted(g.counter("evicted", "pages", "pages written back to the host to make room")),
      stall_ps(g.counter("stall_ps", "ps", "time waves waited for their fault batches")) {}

ManagedMemory::ThrashStats::ThrashStats(StatGroup& g, bool hub, bool throttle, bool unpin)
    : pinned(g.counter("pinned", "pages",
                       "pages this GPU's faults pinned (thrashing) instead of migrating")),
      maps(g.counter("remote_maps", "pages",
                     "faults that mapped a page pinned elsewhere (no migration)")),
      to_host(g.counter("pinned_to_host", "pages",
                        "pinned pages moved from a GPU into host memory, as this GPU has no "
                        "NVLink to it")),
      remote(g.counter("remote_accesses", "accesses",
                       "accesses to pages pinned on another GPU or in host memory")),
      remote_bytes(
          g.counter("remote_bytes", "bytes", "bytes those accesses moved over the fabric")) {
  if (hub)
    to_hub = &g.counter("pinned_to_hub", "pages",
                        "pinned pages moved to a GPU every user has an NVLink to (pin_at = hub)");
  if (throttle) {
    throttled = &g.counter("throttled", "pages",
                           "faults on thrashing pages that made this GPU nap (throttling phase)");
    nap_ps = &g.counter("nap_ps", "ps", "time waves napped beyond their fault batches");
  }
  if (unpin)
    unpinned =
        &g.counter("unpinned", "pages", "pinned pages this GPU's faults unpinned and migrated");
}

ManagedMemory::ManagedMemory(const UvmSpec& spec, uint32_t gpus, uint64_t capacity_bytes,
                             StatGroup& parent)
    : spec_(spec), gpus_(gpus), capacity_(capacity_bytes), resident_(gpus, 0), fifo_(gpus),
      live_(gpus, 0), group_(parent, "uvm"),
      allocated_(group_.counter("allocated_bytes", "bytes", "managed bytes allocated")),
      mitigate_(spec.thrash_threshold > 0), hub_(spec.pin_at == "hub"),
      lapse_s_(spec.thrash_lapse_us * 1e-6), nvlink_(gpus, std::vector<bool>(gpus, false)) {
  if (gpus > uint32_t(INT16_MAX)) throw ConfigError("uvm: too many GPUs for the page table");
  if (mitigate_ && gpus > 64)
    throw ConfigError("uvm.thrash_threshold: thrashing mitigation tracks at most 64 GPUs, not " +
                      std::to_string(gpus));
  for (uint32_t g = 0; g < gpus; ++g) {
    gpu_groups_.push_back(std::make_unique<StatGroup>(group_, "gpu_" + std::to_string(g)));
    stats_.emplace_back(*gpu_groups_.back());
    if (mitigate_)
      thrash_stats_.emplace_back(*gpu_groups_.back(), hub_, spec.thrash_pin_threshold > 0,
                                 spec.thrash_pin_ms > 0);
  }
}

uint32_t ManagedMemory::allocate(uint64_t bytes, uint64_t sample) {
  Alloc a;
  a.bytes = bytes;
  a.sample = std::max<uint64_t>(sample, 1);
  a.pages = (bytes + spec_.page_bytes - 1) / spec_.page_bytes;
  const uint64_t entries = (a.pages + a.sample - 1) / a.sample;
  a.where.assign(entries, int16_t(kHost));
  a.stamp.assign(entries, 0);
  if (mitigate_) a.th.assign(entries, Thrash{});
  allocs_.push_back(std::move(a));
  allocated_ += bytes;
  return uint32_t(allocs_.size() - 1);
}

uint64_t ManagedMemory::entry_of(uint32_t alloc, uint64_t byte) const {
  return byte / spec_.page_bytes / allocs_.at(alloc).sample;
}

uint64_t ManagedMemory::pages_of(const Alloc& a, uint64_t entry) const {
  return std::min(a.sample, a.pages - entry * a.sample); // the last entry may be short
}

void ManagedMemory::touch(Faults& f, uint32_t alloc, uint64_t first, uint64_t count) {
  for (uint64_t e = first; e < first + count; ++e)
    touch_one(f, alloc, e, true);
}

void ManagedMemory::touch(Faults& f, uint32_t alloc, uint64_t entry) {
  touch_one(f, alloc, entry, false);
}

void ManagedMemory::touch_one(Faults& f, uint32_t alloc, uint64_t entry, bool ranged) {
  Alloc& a = allocs_.at(alloc);
  ++f.accesses;
  const int from = a.where.at(entry);
  if (from == int(f.gpu)) return;
  if (mitigate_ && remote(f, a, entry, ranged)) return;
  const uint64_t pages = pages_of(a, entry), bytes = pages * spec_.page_bytes;
  f.faults += pages;
  if (from == kHost) {
    f.from_host += pages;
  } else {
    f.from_gpu[uint32_t(from)] += pages;
    resident_[uint32_t(from)] -= bytes;
    --live_[uint32_t(from)];
  }
  make_room(f, bytes);
  a.where[entry] = int16_t(f.gpu);
  a.stamp[entry] = ++stamp_;
  resident_[f.gpu] += bytes;
  ++live_[f.gpu];
  fifo_[f.gpu].push_back({alloc, entry, stamp_});
  if (fifo_[f.gpu].size() > 2 * live_[f.gpu] + 1024) compact(f.gpu);
  if (mitigate_) { // a migration: thrashing when it follows the last one closely
    Thrash& t = a.th[entry];
    if (t.last_s >= 0 && (lapse_s_ == 0 || f.now_s - t.last_s <= lapse_s_) && t.events < 255)
      ++t.events;
    t.last_s = f.now_s;
    t.procs |= uint64_t(1) << f.gpu;
  }
}

// The driver's thrashing mitigation, simplified (README.md): once a page
// has thrashed `thrash_threshold` times, its next fault (within the lapse;
// a later one resets the page's record) pins it where it is if every GPU
// that touches it has an NVLink to that GPU, else in host memory (pin_at =
// hub: before that, on a GPU they all reach over NVLink); a GPU then maps
// it (one fault) and accesses it over the fabric. A GPU without an NVLink to a page pinned on a GPU
// moves it the same way. A ranged touch streams the entry's pages remotely,
// a single one is an access per update the entry stands for. False: not
// pinned, the page migrates.
bool ManagedMemory::remote(Faults& f, Alloc& a, uint64_t entry, bool ranged) {
  Thrash& t = a.th[entry];
  const uint64_t me = uint64_t(1) << f.gpu;
  if (t.pinned && spec_.thrash_pin_ms > 0 && f.now_s - t.pinned_s > spec_.thrash_pin_ms * 1e-3) {
    t = Thrash{}; // unpinned: its record starts again and this fault migrates it
    f.unpinned += pages_of(a, entry);
    return false;
  }
  if (!t.pinned) {
    if (t.events < spec_.thrash_threshold) return false;
    if (lapse_s_ > 0 && f.now_s - t.last_s > lapse_s_) {
      t = Thrash{}; // no longer thrashing: the driver resets the page's record
      return false;
    }
    if (throttle(f, a, entry)) return false;
    t.pinned = true;
    t.pinned_s = f.now_s;
    f.pinned += pages_of(a, entry);
  }
  t.procs |= me;
  const int at = a.where[entry];
  if (at != kHost && !hub(at, t.procs) && !(hub_ && pin_on_hub(f, a, entry)))
    pin_in_host(f, a, entry);
  if (a.where[entry] == int(f.gpu)) return true; // moved to this GPU, its hub: a local access
  if (!(t.mapped & me)) {
    t.mapped |= me;
    f.maps += pages_of(a, entry);
  }
  const uint64_t accesses = ranged ? pages_of(a, entry) : a.sample;
  const uint64_t bytes = accesses * (ranged ? spec_.page_bytes : spec_.remote_bytes);
  f.remote += accesses;
  const int held = a.where[entry];
  if (held == kHost)
    f.remote_host_bytes += bytes;
  else
    f.remote_gpu_bytes[uint32_t(held)] += bytes;
  return true;
}

// The driver's throttling phase (thrash_pin_threshold > 0; README.md): a
// thrashing page that its users cannot all reach over NVLink where it is
// is not pinned at once. In each throttling period (thrash_nap_us from the
// first fault after the previous one ended) one GPU may migrate it and
// every other GPU faulting on it naps until the period ends; after
// thrash_pin_threshold naps the page is pinned. The GPU that is not
// throttled alternates as in the driver (the first fault of a period, not
// the same GPU twice running). True: not pinned, the fault migrates the
// page; a napping GPU's wave stalls until the period ends and the page then
// moves to it (its replayed fault; simplified: the page moves at once).
bool ManagedMemory::throttle(Faults& f, Alloc& a, uint64_t entry) {
  Thrash& t = a.th[entry];
  if (t.naps >= spec_.thrash_pin_threshold) return false;
  const int at = a.where[entry];
  if (at != kHost && hub(at, t.procs | uint64_t(1) << f.gpu)) return false; // pinned where it is
  const int8_t me = int8_t(f.gpu);
  if (f.now_s > t.nap_end_s) { // a new throttling period
    t.nap_end_s = f.now_s + spec_.thrash_nap_us * 1e-6;
    t.napping = 0;
    t.free_gpu = t.free_gpu == me ? int8_t(-1) : me;
  } else if (t.free_gpu < 0) {
    t.free_gpu = me;
  }
  if (t.free_gpu == me) return true;
  const uint64_t bit = uint64_t(1) << f.gpu;
  if (!(t.napping & bit)) {
    t.napping |= bit;
    ++t.naps;
  }
  f.throttled += pages_of(a, entry);
  f.nap_until_s = std::max(f.nap_until_s, t.nap_end_s);
  return true;
}

// pin_at = hub: the entry moves from its GPU to the first GPU that is the
// hub of its users, if one exists and has room; every mapping of it goes.
bool ManagedMemory::pin_on_hub(Faults& f, Alloc& a, uint64_t entry) {
  const uint64_t pages = pages_of(a, entry), bytes = pages * spec_.page_bytes;
  for (uint32_t h = 0; h < gpus_; ++h) {
    if (!hub(int(h), a.th[entry].procs) || resident_[h] + bytes > capacity_) continue;
    const uint32_t from = uint32_t(a.where[entry]);
    f.to_hub.push_back({from, h, pages});
    resident_[from] -= bytes;
    --live_[from];
    a.where[entry] = int16_t(h);
    a.stamp[entry] = ++stamp_;
    resident_[h] += bytes;
    ++live_[h];
    fifo_[h].push_back({uint32_t(&a - allocs_.data()), entry, stamp_});
    a.th[entry].mapped = 0;
    return true;
  }
  return false;
}

// Every GPU in `procs` is `gpu` or has an NVLink to it.
bool ManagedMemory::hub(int gpu, uint64_t procs) const {
  for (uint32_t p = 0; p < gpus_; ++p)
    if ((procs >> p & 1) && int(p) != gpu && !nvlink_[p][uint32_t(gpu)]) return false;
  return true;
}

// The pinned entry leaves its GPU for host memory; every mapping of it goes.
void ManagedMemory::pin_in_host(Faults& f, Alloc& a, uint64_t entry) {
  const uint32_t from = uint32_t(a.where[entry]);
  const uint64_t pages = pages_of(a, entry);
  f.to_host[from] += pages;
  resident_[from] -= pages * spec_.page_bytes;
  --live_[from];
  a.where[entry] = int16_t(kHost);
  a.th[entry].mapped = 0;
}

// Oldest first: the pages that arrived earliest leave for the host.
void ManagedMemory::make_room(Faults& f, uint64_t bytes) {
  std::deque<Arrival>& q = fifo_[f.gpu];
  while (resident_[f.gpu] + bytes > capacity_ && !q.empty()) {
    const Arrival r = q.front();
    q.pop_front();
    Alloc& a = allocs_[r.alloc];
    if (a.where[r.entry] != int(f.gpu) || a.stamp[r.entry] != r.stamp) continue; // stale
    const uint64_t pages = pages_of(a, r.entry);
    a.where[r.entry] = int16_t(kHost);
    if (mitigate_) a.th[r.entry].mapped = 0; // a pinned page's mappings go with it
    resident_[f.gpu] -= pages * spec_.page_bytes;
    --live_[f.gpu];
    f.evicted += pages;
  }
  if (resident_[f.gpu] + bytes > capacity_)
    throw ConfigError("uvm: a page of " + std::to_string(bytes) +
                      " bytes does not fit a GPU's memory (gpu_time.capacity_mib)");
}

// Records of entries that left the GPU stay in its FIFO until popped;
// dropping them here keeps the FIFO within twice the GPU's live entries.
void ManagedMemory::compact(uint32_t gpu) {
  std::deque<Arrival> kept;
  for (const Arrival& r : fifo_[gpu]) {
    const Alloc& a = allocs_[r.alloc];
    if (a.where[r.entry] == int(gpu) && a.stamp[r.entry] == r.stamp) kept.push_back(r);
  }
  fifo_[gpu].swap(kept);
}

void ManagedMemory::service(Faults& f, double now_s) {
  f.batches = (f.faults + f.maps + spec_.batch_pages - 1) / spec_.batch_pages;
  const double work = double(f.batches) * spec_.fault_us * 1e-6;
  if (spec_.service == "shared") {
    const double start = std::max(now_s, shared_busy_s_);
    shared_busy_s_ = start + work;
    f.stall_s = shared_busy_s_ - now_s;
  } else {
    f.stall_s = work;
  }
  const double nap = f.nap_until_s - now_s; // a throttled wave waits for its period's end
  const double napped = nap > f.stall_s ? nap - f.stall_s : 0;
  f.stall_s += napped;
  GpuStats& s = stats_[f.gpu];
  s.faults += f.faults;
  s.batches += f.batches;
  s.from_host += f.from_host;
  uint64_t peer = 0;
  for (uint64_t p : f.from_gpu)
    peer += p;
  s.from_peer += peer;
  s.migrated_bytes += f.faults * spec_.page_bytes;
  s.evicted += f.evicted;
  s.stall_ps += uint64_t(f.stall_s * 1e12 + 0.5);
  if (!mitigate_) return;
  ThrashStats& t = thrash_stats_[f.gpu];
  t.pinned += f.pinned;
  t.maps += f.maps;
  t.remote += f.remote;
  uint64_t bytes = f.remote_host_bytes;
  for (const Faults::Move& m : f.to_hub)
    *t.to_hub += m.pages;
  for (uint32_t g = 0; g < gpus_; ++g) {
    t.to_host += f.to_host[g];
    bytes += f.remote_gpu_bytes[g];
  }
  t.remote_bytes += bytes;
  if (t.throttled) {
    *t.throttled += f.throttled;
    *t.nap_ps += uint64_t(napped * 1e12 + 0.5);
  }
  if (t.unpinned) *t.unpinned += f.unpinned;
}

void add_to_wave(const Faults& f, uint64_t page_bytes, uint32_t memory, rt::Wave& w) {
  w.stall_s += f.stall_s;
  if (f.evicted) w.copies.push_back({rt::OpKind::D2H, f.gpu, memory, f.evicted * page_bytes});
  for (uint32_t s = 0; s < f.to_host.size(); ++s)
    if (f.to_host[s]) w.copies.push_back({rt::OpKind::D2H, s, memory, f.to_host[s] * page_bytes});
  for (const Faults::Move& m : f.to_hub)
    w.copies.push_back({rt::OpKind::P2P, m.from, memory, m.pages * page_bytes, int(m.to)});
  if (f.from_host) w.copies.push_back({rt::OpKind::H2D, 0, memory, f.from_host * page_bytes});
  for (uint32_t s = 0; s < f.from_gpu.size(); ++s)
    if (f.from_gpu[s]) w.copies.push_back({rt::OpKind::P2P, s, memory, f.from_gpu[s] * page_bytes});
  if (f.remote_host_bytes) w.remote.push_back({rt::OpKind::H2D, 0, memory, f.remote_host_bytes});
  for (uint32_t s = 0; s < f.remote_gpu_bytes.size(); ++s)
    if (f.remote_gpu_bytes[s])
      w.remote.push_back({rt::OpKind::P2P, s, memory, f.remote_gpu_bytes[s]});
}

} // namespace tlmgpu::uvm
