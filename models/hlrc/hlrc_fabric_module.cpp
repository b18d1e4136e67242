#include "models/hlrc/hlrc_fabric_module.hpp"
#include "tlmgpu/invariant.hpp"
#include "tlmgpu/params.hpp"

namespace tlmgpu {

HlrcFabric& HlrcFabric::of(SimContext& ctx) {
  return ctx.shared<HlrcFabric>("hlrc", [] { return std::make_unique<HlrcFabric>(); });
}

void HlrcFabric::attach_owner(uint16_t sm, tlm::tlm_target_socket<>& in,
                              tlm::tlm_initiator_socket<>& out, const Clock& clock,
                              uint32_t l1_latency) {
  auto bind = [sm, &in, &out, clock, l1_latency](HlrcChannel& c) {
    c.bind_owner(sm, in, out, clock, l1_latency);
  };
  channel_ ? bind(*channel_) : waiting_.push_back(bind);
}

void HlrcFabric::attach_home(uint32_t slice, tlm::tlm_target_socket<>& in,
                             tlm::tlm_initiator_socket<>& out, const Clock& clock) {
  auto bind = [slice, &in, &out, clock](HlrcChannel& c) { c.bind_home(slice, in, out, clock); };
  channel_ ? bind(*channel_) : waiting_.push_back(bind);
}

void HlrcFabric::attach_channel(HlrcChannel& channel) {
  TLMGPU_CHECK(!channel_ && "one hLRC channel per simulation");
  channel_ = &channel;
  for (auto& bind : waiting_)
    bind(channel);
  waiting_.clear();
}

HlrcChannel& HlrcFabric::channel() const {
  if (!channel_)
    throw ConfigError("l1.atomic_mode = hlrc needs a crossbar between the L1s and the L2 "
                      "slices (it carries the recall channel)");
  return *channel_;
}

} // namespace tlmgpu
