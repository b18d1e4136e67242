// The builder's side of the join (a *_blocks.cpp file, as every block's
// factory): its input count comes from the topology.
#include "models/join/join_module.hpp"

namespace tlmgpu {

BlockType join_block_type() {
  BlockType b{"join",
              "several initiators onto one target, answers routed back by input (a unit beside "
              "an L2 slice shares its port with the crossbar; models/join/join_module.hpp)",
              "",
              {{"in", PortDir::Target, true, "from initiator i (the crossbar's out[s], a unit)"},
               {"out", PortDir::Initiator, false, "to the shared target (an L2 slice's up)"}},
              {},
              {}};
  b.make = [](const BlockBuild& a) -> std::unique_ptr<sc_core::sc_module> {
    if (a.ports("in") == 0) throw ConfigError("ports.in must be at least 1");
    return std::make_unique<JoinModule>(a.name.c_str(), a.parent, a.ports("in"));
  };
  b.socket = [](sc_core::sc_module& m, const std::string& port, uint32_t i) {
    auto& j = static_cast<JoinModule&>(m);
    return port == "out" ? SocketRef{&j.out.socket, nullptr} : SocketRef{nullptr, &j.in[i]->socket};
  };
  b.functional_neutral = true; // it neither originates requests nor changes answers
  return b;
}

} // namespace tlmgpu
