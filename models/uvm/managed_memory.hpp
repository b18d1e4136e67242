// The page table of UVM-like managed memory (seed-004 §7.2), without
// SystemC (README.md). A managed allocation is a run of pages, each on the
// host or on one GPU. A GPU that touches a page it does not hold faults;
// the fault migrates the page to it, from the host or from the GPU that
// held it (pages that several GPUs touch move back and forth: thrash). The
// faults of one wave of a kernel are serviced in batches of `batch_pages`,
// each after `fault_us`; the executor then moves the pages over the
// fabric. A GPU whose managed pages would exceed its memory first evicts
// its oldest pages to the host.
#pragma once

#include "models/runtime/task.hpp"
#include "models/uvm/uvm_spec.hpp"
#include "tlmgpu/stats.hpp"

#include <cstdint>
#include <deque>
#include <memory>
#include <vector>

namespace tlmgpu::uvm {

inline constexpr int kHost = -1;

// One wave of a kernel on GPU `gpu` at `now_s`: what it touched, what
// faulted and where the pages came from. Page counts are pages of
// `page_bytes`.
struct Faults {
  explicit Faults(uint32_t gpu, uint32_t gpus, double now_s = 0)
      : gpu(gpu), now_s(now_s), from_gpu(gpus, 0), to_host(gpus, 0), remote_gpu_bytes(gpus, 0) {}
  uint32_t gpu;
  double now_s;                   // when its touches happen (thrash detection)
  uint64_t accesses = 0;          // page-table entries touched (repeats included)
  uint64_t faults = 0;            // pages not on this GPU when touched, migrated here
  uint64_t from_host = 0;         // pages migrated in from the host
  std::vector<uint64_t> from_gpu; // pages migrated in from GPU s
  uint64_t evicted = 0;           // pages written back to the host to make room
  // Thrashing mitigation (README.md): pinned pages stay where they are and
  // are mapped remotely, a fault each the first time, then link traffic.
  uint64_t pinned = 0;           // pages this wave's faults pinned
  uint64_t maps = 0;             // pages pinned elsewhere it mapped (faults, no migration)
  std::vector<uint64_t> to_host; // pinned pages moved from GPU s into host memory
  struct Move {
    uint32_t from, to;
    uint64_t pages;
  };
  std::vector<Move> to_hub;               // pin_at = hub: pinned pages moved between GPUs
  uint64_t throttled = 0;                 // pages whose fault made this GPU nap first
  double nap_until_s = 0;                 // ... until then (thrash_pin_threshold > 0)
  uint64_t unpinned = 0;                  // pinned pages unpinned by this wave (thrash_pin_ms)
  uint64_t remote = 0;                    // accesses to pages pinned elsewhere
  uint64_t remote_host_bytes = 0;         // their bytes from host memory
  std::vector<uint64_t> remote_gpu_bytes; // their bytes from GPU s
  uint64_t batches = 0;                   // set by service()
  double stall_s = 0;                     // set by service(): the wave waits this long
                                          // (fault batches, or a nap if longer)
};

// The wave's fault stall and copies for the executor: evicted pages to the
// host first (they make the room), pinned pages leaving a GPU for host
// memory, then one copy per source, and its remote accesses, one per
// source. Managed host pages live in host memory `memory`.
void add_to_wave(const Faults& f, uint64_t page_bytes, uint32_t memory, rt::Wave& w);

class ManagedMemory {
public:
  // `capacity_bytes`: the managed pages one GPU may hold.
  ManagedMemory(const UvmSpec& spec, uint32_t gpus, uint64_t capacity_bytes, StatGroup& parent);

  // A managed allocation of `bytes`, initialised on the host (every page
  // there). With `sample` > 1 one page-table entry stands for that many
  // consecutive pages: a program that simulates 1 in `sample` of its
  // accesses keeps the fraction of the table each GPU holds, and each fault
  // it takes counts as `sample` faults (README.md, "Sampling").
  uint32_t allocate(uint64_t bytes, uint64_t sample = 1);
  uint64_t entries(uint32_t alloc) const { return allocs_.at(alloc).where.size(); }
  // The entry of `alloc` that holds byte `byte`.
  uint64_t entry_of(uint32_t alloc, uint64_t byte) const;

  // f.gpu touches entries [first, first + count) of `alloc` (streaming
  // their pages), or one entry (one access of `remote_bytes` per sampled
  // update). A fault moves the entry at once, so a repeat within the wave
  // hits; an entry pinned elsewhere is accessed remotely instead.
  void touch(Faults& f, uint32_t alloc, uint64_t first, uint64_t count);
  void touch(Faults& f, uint32_t alloc, uint64_t entry);
  // Which GPU pairs have an NVLink (the fabric's peer paths; none until
  // set): a page is pinned on a GPU only if every GPU touching it has one
  // to that GPU.
  void set_nvlink(std::vector<std::vector<bool>> nvlink) { nvlink_ = std::move(nvlink); }
  // Closes the wave at `now_s`: its batches, how long it stalls for them
  // (per_gpu: batches * fault_us; shared: also behind other GPUs' batches)
  // and the statistics.
  void service(Faults& f, double now_s);

  int where(uint32_t alloc, uint64_t entry) const { return allocs_.at(alloc).where.at(entry); }
  bool pinned(uint32_t alloc, uint64_t entry) const {
    const Alloc& a = allocs_.at(alloc);
    return !a.th.empty() && a.th.at(entry).pinned;
  }
  uint64_t resident_bytes(uint32_t gpu) const { return resident_[gpu]; }
  const UvmSpec& spec() const { return spec_; }
  uint32_t gpus() const { return gpus_; }

private:
  // An entry's thrashing state (the driver's per-page record, simplified).
  struct Thrash {
    double last_s = -1; // its last migration
    uint8_t events = 0; // migrations within thrash_lapse_us of the one before
    bool pinned = false;
    uint64_t procs = 0, mapped = 0; // GPUs that touched it; GPUs mapping it remotely
    // the throttling phase (thrash_pin_threshold > 0) and timed unpinning
    double nap_end_s = -1, pinned_s = 0; // the current throttling period's end; when pinned
    uint64_t napping = 0;                // GPUs throttled in the current period
    int8_t free_gpu = -1;                // the period's GPU that is not throttled
    uint8_t naps = 0;                    // throttlings so far (pinned at thrash_pin_threshold)
  };
  struct Alloc {
    uint64_t bytes = 0, pages = 0, sample = 1;
    std::vector<int16_t> where;  // kHost or a GPU, per entry
    std::vector<uint64_t> stamp; // when it last arrived where it is (FIFO eviction)
    std::vector<Thrash> th;      // per entry, with thrashing mitigation only
  };
  struct Arrival {
    uint32_t alloc;
    uint64_t entry, stamp;
  };
  struct GpuStats {
    explicit GpuStats(StatGroup& g);
    Counter &faults, &batches, &from_host, &from_peer, &migrated_bytes, &evicted, &stall_ps;
  };
  struct ThrashStats { // declared with mitigation on only: stats.json stays as it was without
    ThrashStats(StatGroup& g, bool hub, bool throttle, bool unpin);
    Counter &pinned, &maps, &to_host, &remote, &remote_bytes;
    Counter* to_hub = nullptr;                       // pin_at = hub only
    Counter *throttled = nullptr, *nap_ps = nullptr; // thrash_pin_threshold > 0 only
    Counter* unpinned = nullptr;                     // thrash_pin_ms > 0 only
  };
  void touch_one(Faults& f, uint32_t alloc, uint64_t entry, bool ranged);
  bool remote(Faults& f, Alloc& a, uint64_t entry, bool ranged);
  bool throttle(Faults& f, Alloc& a, uint64_t entry); // true: not pinned (yet), it migrates
  bool hub(int gpu, uint64_t procs) const;
  void pin_in_host(Faults& f, Alloc& a, uint64_t entry);
  bool pin_on_hub(Faults& f, Alloc& a, uint64_t entry); // pin_at = hub
  uint64_t pages_of(const Alloc& a, uint64_t entry) const;
  void make_room(Faults& f, uint64_t bytes);
  void compact(uint32_t gpu);

  UvmSpec spec_;
  uint32_t gpus_;
  uint64_t capacity_;
  std::vector<Alloc> allocs_;
  std::vector<uint64_t> resident_;        // bytes of managed pages per GPU
  std::vector<std::deque<Arrival>> fifo_; // per GPU, oldest first (stale records skipped)
  std::vector<uint64_t> live_;            // entries per GPU (bounds the FIFO's stale records)
  uint64_t stamp_ = 0;
  double shared_busy_s_ = 0; // service = shared: the host handler is busy until then
  StatGroup group_;
  Counter& allocated_;
  std::vector<std::unique_ptr<StatGroup>> gpu_groups_;
  std::vector<GpuStats> stats_;
  bool mitigate_, hub_;
  double lapse_s_;
  std::vector<std::vector<bool>> nvlink_;
  std::vector<ThrashStats> thrash_stats_;
};

} // namespace tlmgpu::uvm
