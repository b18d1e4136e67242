// The hLRC wiring (models/hlrc/README.md): one per simulation, kept in
// SimContext::shared. Every L1 and L2 slice of an hLRC platform hands it
// its recall socket pair when it is built, and the crossbar its channel
// (HlrcChannel, the crossbar's hLRC virtual channel); whichever comes
// second, the pair is bound then. So the GPU module that composes the blocks
// need not know hLRC exists, and no block holds a pointer to another: the
// messages travel on sockets (hlrc_message_module.hpp).
#pragma once

#include "models/hlrc/hlrc_channel_module.hpp"

#include <functional>
#include <vector>

namespace tlmgpu {

class HlrcFabric {
public:
  // The simulation's wiring (built by the first block that asks).
  static HlrcFabric& of(SimContext& ctx);
  void attach_owner(uint16_t sm, tlm::tlm_target_socket<>& in, tlm::tlm_initiator_socket<>& out,
                    const Clock& clock, uint32_t l1_latency);
  void attach_home(uint32_t slice, tlm::tlm_target_socket<>& in, tlm::tlm_initiator_socket<>& out,
                   const Clock& clock);
  void attach_channel(HlrcChannel& channel);
  // Checked at the first use: every hLRC platform has a crossbar.
  HlrcChannel& channel() const;

private:
  HlrcChannel* channel_ = nullptr;
  std::vector<std::function<void(HlrcChannel&)>> waiting_; // bindings before the channel
};

} // namespace tlmgpu
