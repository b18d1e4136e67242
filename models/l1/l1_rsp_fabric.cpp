#include "models/l1/l1_rsp_fabric.hpp"

#include <algorithm>

namespace tlmgpu {

RspFabric::Result RspFabric::broadcast(const RspMessage& m) const {
  Result r{m.at, 0};
  for (const Member& l1 : members_) {
    if (l1.sm == m.from_sm) continue;
    r.acked = std::max(r.acked, l1.respond(m));
    ++r.messages;
  }
  return r;
}

} // namespace tlmgpu
