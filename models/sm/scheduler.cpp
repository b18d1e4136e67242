#include "models/sm/scheduler.hpp"

#include <stdexcept>
#include <string>

namespace tlmgpu {

std::optional<uint32_t> LrrPolicy::pick(std::span<const WarpView> warps) {
  // Distance from the slot after the last issued one, modulo wrap-around, so
  // the order is by slot number whatever order the SM lists warps in.
  const uint64_t start = last_ ? uint64_t(*last_) + 1 : 0;
  std::optional<uint32_t> best;
  uint64_t best_dist = 0;
  for (const WarpView& w : warps) {
    if (!w.valid || !w.ready) continue;
    const uint64_t dist = w.slot >= start ? w.slot - start : w.slot + (uint64_t(1) << 32) - start;
    if (!best || dist < best_dist) best = w.slot, best_dist = dist;
  }
  return best;
}

std::optional<uint32_t> GtoPolicy::pick(std::span<const WarpView> warps) {
  const WarpView* oldest = nullptr;
  bool last_ready = false;
  for (const WarpView& w : warps) {
    if (!w.valid || !w.ready) continue;
    if (last_ && w.slot == *last_) {
      if (!yields()) return w.slot;
      last_ready = true; // its run is over: another ready warp goes first
      continue;
    }
    if (!oldest || w.age < oldest->age || (w.age == oldest->age && w.slot < oldest->slot))
      oldest = &w;
  }
  if (oldest) return oldest->slot;
  if (last_ready) return *last_; // alone: it goes on
  return std::nullopt;
}

std::unique_ptr<SchedulerPolicy> make_scheduler(std::string_view name, uint32_t gto_max_run) {
  if (name == "lrr") return std::make_unique<LrrPolicy>();
  if (name == "gto") return std::make_unique<GtoPolicy>(gto_max_run);
  throw std::invalid_argument("unknown warp scheduler \"" + std::string(name) +
                              "\" (known: gto, lrr)");
}

} // namespace tlmgpu
