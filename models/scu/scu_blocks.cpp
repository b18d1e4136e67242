// The builder's side of the SCU (a *_blocks.cpp file: the one place its
// factory reads the platform and hands the module its own spec).
#include "models/scu/scu_module.hpp"

namespace tlmgpu {

BlockType scu_block_type() {
  BlockType b{"scu",
              "stream compaction unit (scu.*): a non-SM initiator on the network that the host "
              "programs with compaction operations (models/scu/README.md)",
              "scu",
              {{"mem", PortDir::Initiator, false, "its reads and writes, into a crossbar input"}},
              {},
              {}};
  b.make = [](const BlockBuild& a) -> std::unique_ptr<sc_core::sc_module> {
    return std::make_unique<ScuModule>(a.name.c_str(), a.ctx, a.ctx.platform.scu, a.parent);
  };
  b.socket = [](sc_core::sc_module& m, const std::string&, uint32_t) {
    return SocketRef{&static_cast<ScuModule&>(m).port.socket, nullptr};
  };
  return b;
}

} // namespace tlmgpu
