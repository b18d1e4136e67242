// The builder's side of the IRU (a *_blocks.cpp file: the one place its
// factory reads the platform and hands each partition its own spec, its
// index, the partition count and its device window).
#include "models/iru/iru_module.hpp"

namespace tlmgpu {

BlockType iru_block_type() {
  BlockType b{
      "iru",
      "irregular-access reorder unit partition (iru.*): prefetches index arrays through its "
      "L2 slices, reorders them in a hash shared over a ring of partitions and answers warps' "
      "load_iru requests on a device window (models/iru/README.md)",
      "iru",
      {{"req", PortDir::Target, false, "warp load_iru requests: from xbar.dev[k] (window k)"},
       {"mem", PortDir::Initiator, true,
        "prefetches: mem[s] to a join in front of L2 slice index * ports.mem + s"},
       {"ring_in", PortDir::Target, false, "from the previous partition's ring_out"},
       {"ring_out", PortDir::Initiator, false, "to the next partition's ring_in"}},
      {},
      {}};
  b.make = [](const BlockBuild& a) -> std::unique_ptr<sc_core::sc_module> {
    const PlatformSpec& p = a.ctx.platform;
    const uint32_t parts = a.block.count, ports = a.ports("mem");
    if (!ports || parts * ports != p.l2_slices())
      throw ConfigError("count * ports.mem = " + std::to_string(parts) + " * " +
                        std::to_string(ports) + " must be the L2 slice count " +
                        std::to_string(p.l2_slices()) +
                        ": each partition prefetches from its own slices");
    if (p.iru.sets % parts || (p.iru.sets / parts) % p.iru.banks)
      throw ConfigError("iru.sets = " + std::to_string(p.iru.sets) + " must split evenly over " +
                        std::to_string(parts) +
                        " partitions of iru.banks = " + std::to_string(p.iru.banks) + " banks");
    const uint32_t packet = (p.l2.line_bytes / 4 - 1) / 2; // the largest ring packet
    if (p.iru.ring_buffer_elements < 2 * packet)
      throw ConfigError("iru.ring_buffer_elements must hold two ring packets (" +
                        std::to_string(2 * packet) + " elements)");
    const AddressMapSpec& m = p.address_map;
    if (a.index >= m.device_windows || m.device_window_bytes < 3 * p.l2.line_bytes)
      throw ConfigError("partition " + std::to_string(a.index) + " needs device window " +
                        std::to_string(a.index) +
                        " of at least 3 lines "
                        "(address_map.device_windows, device_window_bytes): its load_iru target");
    return std::make_unique<IruModule>(a.name.c_str(), a.ctx, p.iru, a.index, parts, ports,
                                       Addr(m.device_base) + Addr(a.index) * m.device_window_bytes,
                                       a.parent);
  };
  b.socket = [](sc_core::sc_module& m, const std::string& port, uint32_t i) {
    auto& iru = static_cast<IruModule&>(m);
    if (port == "req") return SocketRef{nullptr, &iru.req.socket};
    if (port == "ring_in") return SocketRef{nullptr, &iru.ring_in.socket};
    if (port == "ring_out") return SocketRef{&iru.ring_out.socket, nullptr};
    return SocketRef{&iru.mem[i]->socket, nullptr};
  };
  return b;
}

} // namespace tlmgpu
