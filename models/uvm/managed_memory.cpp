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

ManagedMemory::ManagedMemory(const UvmSpec& spec, uint32_t gpus, uint64_t capacity_bytes,
                             StatGroup& parent)
    : spec_(spec), gpus_(gpus), capacity_(capacity_bytes), resident_(gpus, 0), fifo_(gpus),
      live_(gpus, 0), group_(parent, "uvm"),
      allocated_(group_.counter("allocated_bytes", "bytes", "managed bytes allocated")) {
  if (gpus > uint32_t(INT16_MAX)) throw ConfigError("uvm: too many GPUs for the page table");
  for (uint32_t g = 0; g < gpus; ++g) {
    gpu_groups_.push_back(std::make_unique<StatGroup>(group_, "gpu_" + std::to_string(g)));
    stats_.emplace_back(*gpu_groups_.back());
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
    touch(f, alloc, e);
}

void ManagedMemory::touch(Faults& f, uint32_t alloc, uint64_t entry) {
  Alloc& a = allocs_.at(alloc);
  ++f.accesses;
  const int from = a.where.at(entry);
  if (from == int(f.gpu)) return;
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
  f.batches = (f.faults + spec_.batch_pages - 1) / spec_.batch_pages;
  const double work = double(f.batches) * spec_.fault_us * 1e-6;
  if (spec_.service == "shared") {
    const double start = std::max(now_s, shared_busy_s_);
    shared_busy_s_ = start + work;
    f.stall_s = shared_busy_s_ - now_s;
  } else {
    f.stall_s = work;
  }
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
}

void add_to_wave(const Faults& f, uint64_t page_bytes, uint32_t memory, rt::Wave& w) {
  w.stall_s += f.stall_s;
  if (f.evicted) w.copies.push_back({rt::OpKind::D2H, f.gpu, memory, f.evicted * page_bytes});
  if (f.from_host) w.copies.push_back({rt::OpKind::H2D, 0, memory, f.from_host * page_bytes});
  for (uint32_t s = 0; s < f.from_gpu.size(); ++s)
    if (f.from_gpu[s]) w.copies.push_back({rt::OpKind::P2P, s, memory, f.from_gpu[s] * page_bytes});
}

} // namespace tlmgpu::uvm
