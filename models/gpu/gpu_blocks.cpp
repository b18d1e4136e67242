// Registration of the GPU's block types. A factory is the builder's side: it
// reads the platform and hands each module its own spec, its index and its
// port counts (and SimContext::net, the network format every block shares);
// modules never read ctx.platform (tests/cli/layers.sh checks).
#include "models/gpu/gpu_blocks.hpp"

#include "models/atomic_buffer/dab_module.hpp"
#include "models/atomic_buffer/dab_reorder_module.hpp"
#include "models/dram/dram_module.hpp"
#include "models/gpudet/gpudet_module.hpp"
#include "models/gpudet/gpudet_sequencer_module.hpp"
#include "models/iru/iru_module.hpp"
#include "models/join/join_module.hpp"
#include "models/l2/l2_module.hpp"
#include "models/lab/lab_module.hpp"
#include "models/mmio/mmio_regs_module.hpp"
#include "models/probe/probe_module.hpp"
#include "models/scu/scu_module.hpp"
#include "models/sm/sm_module.hpp"
#include "models/xbar/xbar_module.hpp"
#include "tlmgpu/sim/builder.hpp"

namespace tlmgpu {
namespace {

template <class M>
M& as(sc_core::sc_module& m) {
  return static_cast<M&>(m);
}

BlockType sm_block() {
  BlockType b{
      "sm", "streaming multiprocessor: warps, LD/ST unit, its memory-path stages and L1",
      "sm", {{"mem", PortDir::Initiator, false, "the L1's requests towards the memory system"}},
      {},   {}};
  b.make = [](const BlockBuild& a) -> std::unique_ptr<sc_core::sc_module> {
    const PlatformSpec& p = a.ctx.platform;
    return std::make_unique<SmModule>(
        a.name.c_str(), a.ctx, uint16_t(a.index), a.parent,
        SmModule::Parts{p.sm, p.l1, p.shared_mem,
                        a.block.has_stages ? path_stages(p, a.block.stages, "topology stages")
                                           : path_stages(p)});
  };
  b.has_path = true;
  b.socket = [](sc_core::sc_module& m, const std::string&, uint32_t) {
    return SocketRef{&as<SmModule>(m).l1.down.socket, nullptr};
  };
  return b;
}

BlockType xbar_block() {
  BlockType b{"xbar",
              "crossbar: request and reply networks, routed by the address map",
              "xbar",
              {{"in", PortDir::Target, true, "from initiators (SMs, ...); replies go back here"},
               {"out", PortDir::Initiator, true, "to L2 slice s (the address map's slice s)"},
               {"dev", PortDir::Initiator, true,
                "to the target of device window k (address_map.device_windows; optional)", true}},
              {},
              {}};
  b.make = [](const BlockBuild& a) -> std::unique_ptr<sc_core::sc_module> {
    const uint32_t slices = a.ctx.address_map.slices();
    if (a.ports("out") != slices)
      throw ConfigError("ports.out = " + std::to_string(a.ports("out")) +
                        " but the address map interleaves over " + std::to_string(slices) +
                        " L2 slices (dram.channels * l2.sub_partitions)");
    const uint32_t windows = a.ctx.platform.address_map.device_windows;
    if (a.ports("dev") != windows)
      throw ConfigError("ports.dev = " + std::to_string(a.ports("dev")) +
                        " but the address map has " + std::to_string(windows) +
                        " device windows (address_map.device_windows)");
    return std::make_unique<XbarModule>(a.name.c_str(), a.ctx, a.ctx.platform.xbar, a.parent,
                                        a.ports("in"), a.ports("out"), a.ports("dev"));
  };
  // models/xbar/xbar_hlrc_module.cpp opens it; every L1 and L2 slice binds
  // a socket pair (models/hlrc/README.md, "The recall path").
  b.side_channels = [](const TopoBlock& t, const NetworkFormat& net) {
    std::vector<std::string> c;
    if (net.coherence == AtomicProtocol::Hlrc)
      c.push_back(t.instance(0) +
                  ".hlrc_channel: hLRC recalls, answers and releases between every SM's L1 and "
                  "every L2 slice (a socket pair each, l1.atomic_mode = hlrc)");
    return c;
  };
  b.socket = [](sc_core::sc_module& m, const std::string& port, uint32_t i) {
    auto& x = as<XbarModule>(m);
    if (port == "in") return SocketRef{nullptr, &x.sm_ports[i]->socket};
    return SocketRef{&x.slice_ports[port == "dev" ? x.slices() + i : i]->socket, nullptr};
  };
  return b;
}

BlockType l2_block() {
  BlockType b{"l2",
              "L2 slice: sectored cache with MSHRs and atomic units",
              "l2",
              {{"up", PortDir::Target, false, "requests from the network"},
               {"mem", PortDir::Initiator, false, "fills and write-backs to DRAM"}},
              {},
              {}};
  b.make = [](const BlockBuild& a) -> std::unique_ptr<sc_core::sc_module> {
    return std::make_unique<L2Module>(a.name.c_str(), a.ctx, a.ctx.platform.l2, a.index, a.parent);
  };
  b.socket = [](sc_core::sc_module& m, const std::string& port, uint32_t) {
    auto& l2 = as<L2Module>(m);
    return port == "up" ? SocketRef{nullptr, &l2.port.socket} : SocketRef{&l2.mem.socket, nullptr};
  };
  return b;
}

BlockType dram_block() {
  BlockType b{"dram", "DRAM channel: banks, rows and one data bus",
              "dram", {{"in", PortDir::Target, true, "one per L2 slice of the channel"}},
              {},     {}};
  b.make = [](const BlockBuild& a) -> std::unique_ptr<sc_core::sc_module> {
    return std::make_unique<DramModule>(a.name.c_str(), a.ctx, a.ctx.platform.dram, a.index,
                                        a.parent, a.ports("in"));
  };
  b.socket = [](sc_core::sc_module& m, const std::string&, uint32_t i) {
    return SocketRef{nullptr, &as<DramModule>(m).ports[i]->socket};
  };
  return b;
}

BlockType mmio_block() {
  BlockType b{"mmio_regs",
              "registers behind device window k (address_map.device_windows): real bytes, "
              "loads/stores/atomics, answered after mmio.latency",
              "mmio",
              {{"up", PortDir::Target, false, "from the crossbar's dev[k]"}},
              {},
              {}};
  b.make = [](const BlockBuild& a) -> std::unique_ptr<sc_core::sc_module> {
    const AddressMapSpec& m = a.ctx.platform.address_map;
    if (a.index >= m.device_windows)
      throw ConfigError("instance " + std::to_string(a.index) + " has no device window (" +
                        std::to_string(m.device_windows) + " in address_map.device_windows)");
    return std::make_unique<MmioRegsModule>(a.name.c_str(), a.ctx, a.ctx.platform.mmio,
                                            Addr(m.device_base) +
                                                Addr(a.index) * m.device_window_bytes,
                                            m.device_window_bytes, a.parent);
  };
  b.socket = [](sc_core::sc_module& m, const std::string&, uint32_t) {
    return SocketRef{nullptr, &as<MmioRegsModule>(m).up.socket};
  };
  return b;
}

} // namespace

void register_gpu_blocks() {
  static const bool once = [] {
    // All five are neutral in functional mode (BlockType::functional_neutral):
    // an SM's own path is judged by the SM (SmModule::plain_path()).
    for (BlockType b : {sm_block(), xbar_block(), l2_block(), dram_block(), mmio_block()}) {
      b.functional_neutral = true;
      register_block(std::move(b));
    }
    register_block(scu_block_type());
    register_block(iru_block_type());
    register_block(join_block_type());
    // Built-in memory-path stages (explicit: static self-registration would
    // be dropped by the linker from a static library).
    register_stage(probe_stage_type());
    register_stage(lab_stage_type());
    register_stage(dab_stage_type());
    register_stage(dab_reorder_stage_type());
    register_stage(gpudet_stage_type());
    register_stage(gpudet_sequencer_stage_type());
    return true;
  }();
  (void)once;
}

} // namespace tlmgpu
