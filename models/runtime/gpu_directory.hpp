// One GPU's DataBlock cache directory (seed-004 §4.5), with the intended
// rules where the reference code leaks (pitfalls 8, 24):
//
//   EMPTY --reserve (a miss; the fill is queued on the GPU's stream)--> AVAILABLE(1)
//   AVAILABLE(n) --pin (a hit)--> AVAILABLE(n+1)    --unpin--> AVAILABLE(n-1)
//   AVAILABLE(n) --invalidate--> DELETED(n): invisible; freed at its last unpin
//   AVAILABLE(0) --sweep (delete_zeros)--> freed (an LC copy is merged first)
//
// A freed copy gives its bytes back to the GPU's budget. A copy whose
// contents were already merged (an LC sync) is freed without a second merge.
#pragma once

#include "models/runtime/datablock.hpp"

#include <functional>
#include <map>
#include <memory>
#include <vector>

namespace tlmgpu::rt {

struct CopyEntry {
  Guid db = 0;
  uint64_t alloc = 0; // bytes reserved on the GPU
  uint32_t pins = 0;
  bool deleted = false;
  bool merged = false;               // contents already collapsed into the host (no merge on free)
  uint64_t stamp = 0;                // node-global order of its last pin (the 'latest' operator)
  int fill_stream = -1;              // the stream its queued fill is on, until it ends (-1: filled)
  std::vector<uint8_t> data, shadow; // functional copies (LC: + the shadow half)
};

class GpuDirectory {
public:
  // Takes each copy as it is freed: the runtime refunds its bytes, or first
  // merges an LC copy into the host (an eviction, timed by the executor).
  using FreeHook = std::function<void(std::unique_ptr<CopyEntry>)>;
  explicit GpuDirectory(FreeHook on_free) : on_free_(std::move(on_free)) {}

  CopyEntry* lookup(Guid db);              // a valid copy or nullptr (no pin)
  CopyEntry* pin(Guid db, uint64_t stamp); // a hit: pins (and stamps unless 0); nullptr on a miss
  CopyEntry& reserve(Guid db, uint64_t alloc, uint64_t stamp); // a miss: new copy, pinned once
  // `discard`: the copy is not kept after its last unpin (cache off).
  void unpin(CopyEntry& e, bool discard);
  // Makes the copy invisible; freed now if unpinned, else at its last unpin.
  void invalidate(Guid db, bool merged);
  // Frees every unpinned copy (all of them when `all`, else only deleted
  // ones, which this directory frees eagerly, so none). Returns bytes freed.
  uint64_t sweep(bool all);

  size_t valid() const { return live_.size(); }
  uint64_t bytes_held() const { return held_; }

private:
  void free(std::unique_ptr<CopyEntry> e);
  FreeHook on_free_;
  std::map<Guid, std::unique_ptr<CopyEntry>> live_; // ordered: sweeps are deterministic
  std::vector<std::unique_ptr<CopyEntry>> zombies_; // deleted, still pinned
  uint64_t held_ = 0;
};

} // namespace tlmgpu::rt
