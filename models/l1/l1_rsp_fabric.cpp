#include "models/l1/l1_rsp_fabric.hpp"

#include <algorithm>

namespace tlmgpu {

RspFabric::Result RspFabric::deliver(const RspMessage& m, bool only_markers) const {
  Result r{m.at, 0, 0};
  const uint32_t heavy = heavy_;
  for (const Member& l1 : members_) {
    if (l1.sm == m.from_sm) continue;
    if (only_markers && !(l1.marks && l1.marks(m.sync_line))) continue;
    r.acked = std::max(r.acked, l1.respond(m));
    ++r.messages;
  }
  r.heavy = heavy_ - heavy;
  return r;
}

bool RspFabric::all_quiet() const {
  return std::all_of(members_.begin(), members_.end(),
                     [](const Member& l1) { return !l1.quiet || l1.quiet(); });
}

void RspFabric::unlock(uint16_t sm) {
  lock_.unlock(kEveryL1, sm);
  for (const Member& l1 : members_)
    if (l1.wake) l1.wake();
}

void RspFabric::quiet_changed() const {
  if (!lock_.locked(kEveryL1) || !all_quiet()) return;
  for (const Member& l1 : members_)
    if (l1.wake && lock_.holds(kEveryL1, l1.sm)) l1.wake();
}

} // namespace tlmgpu
