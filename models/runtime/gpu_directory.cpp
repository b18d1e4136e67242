#include "models/runtime/gpu_directory.hpp"

#include <algorithm>
#include <stdexcept>

namespace tlmgpu::rt {

CopyEntry* GpuDirectory::lookup(Guid db) {
  auto it = live_.find(db);
  return it == live_.end() ? nullptr : it->second.get();
}

CopyEntry* GpuDirectory::pin(Guid db, uint64_t stamp) {
  CopyEntry* e = lookup(db);
  if (e) {
    ++e->pins;
    if (stamp) e->stamp = stamp;
  }
  return e;
}

CopyEntry& GpuDirectory::reserve(Guid db, uint64_t alloc, uint64_t stamp) {
  if (live_.count(db)) throw std::logic_error("gpu directory: reserve of a cached block");
  auto e = std::make_unique<CopyEntry>();
  e->db = db;
  e->alloc = alloc;
  e->pins = 1;
  e->stamp = stamp;
  held_ += alloc;
  CopyEntry& ref = *e;
  live_[db] = std::move(e);
  return ref;
}

void GpuDirectory::unpin(CopyEntry& e, bool discard) {
  if (e.pins == 0) throw std::logic_error("gpu directory: unpin of an unpinned copy");
  --e.pins;
  if (!e.deleted && discard) {
    invalidate(e.db, false);
    return;
  }
  if (e.deleted && e.pins == 0) {
    auto it = std::find_if(zombies_.begin(), zombies_.end(),
                           [&](const auto& z) { return z.get() == &e; });
    std::unique_ptr<CopyEntry> owned = std::move(*it);
    zombies_.erase(it);
    free(std::move(owned));
  }
}

void GpuDirectory::invalidate(Guid db, bool merged) {
  auto it = live_.find(db);
  if (it == live_.end()) return;
  std::unique_ptr<CopyEntry> e = std::move(it->second);
  live_.erase(it);
  e->deleted = true;
  e->merged = e->merged || merged;
  if (e->pins == 0)
    free(std::move(e));
  else
    zombies_.push_back(std::move(e));
}

uint64_t GpuDirectory::sweep(bool all) {
  if (!all) return 0;
  uint64_t freed = 0;
  for (auto it = live_.begin(); it != live_.end();) {
    if (it->second->pins != 0) {
      ++it;
      continue;
    }
    std::unique_ptr<CopyEntry> e = std::move(it->second);
    it = live_.erase(it);
    freed += e->alloc;
    free(std::move(e));
  }
  return freed;
}

void GpuDirectory::free(std::unique_ptr<CopyEntry> e) {
  held_ -= e->alloc;
  on_free_(std::move(e));
}

} // namespace tlmgpu::rt
