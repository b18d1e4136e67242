// The block registry and the builder: a platform's topology
// (include/tlmgpu/topology.hpp) becomes SystemC modules bound by port name.
//
// Each block type registers its name, the parameter group `tlmgpu describe`
// shows with it, its named ports and a factory. A factory gets only what the
// builder hands it (the instance's name and index, its multi-port counts);
// the builder binds every binding's initiator socket to its target socket.
// Path stages whose type says `any_link` are block types too (ports `up`,
// `down`), so a probe can sit on any link of the topology.
#pragma once

#include "tlmgpu/sim/context.hpp"
#include "tlmgpu/topology.hpp"

#include <systemc>
#include <tlm>

#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace tlmgpu {

// What a factory is given.
struct BlockBuild {
  SimContext& ctx;
  StatGroup& parent; // the enclosing GPU's stats group; a block declares its own under it
  const TopoBlock& block;
  uint32_t index;   // instance index (0 for a block without "count")
  std::string name; // module name (block.instance(index))
  uint32_t ports(const std::string& multi_port) const { return block.port_counts.at(multi_port); }
};

// One socket of a built module (exactly one pointer set).
struct SocketRef {
  tlm::tlm_initiator_socket<>* initiator = nullptr;
  tlm::tlm_target_socket<>* target = nullptr;
};

struct BlockType {
  std::string name, description;
  std::string params; // parameter group shown by `tlmgpu describe` ("" = none)
  std::vector<PortDecl> ports;
  std::function<std::unique_ptr<sc_core::sc_module>(const BlockBuild&)> make;
  std::function<SocketRef(sc_core::sc_module&, const std::string& port, uint32_t index)> socket;
  bool has_path = false; // takes a "stages" entry (its memory path): the SM
  // In functional mode the block neither originates requests nor answers an
  // access differently from the device's memory image (a plain crossbar, L2,
  // DRAM, a device window's registers), so SMs may apply their accesses
  // straight to the image (sim.functional_memory). Unknown blocks are not.
  bool functional_neutral = false;
  // Channels the block opens beside its topology ports because of how the
  // device is configured (the crossbar's hLRC recall channel): one line each
  // for `tlmgpu topology`, which otherwise shows only bound ports.
  std::function<std::vector<std::string>(const TopoBlock&, const NetworkFormat&)> side_channels =
      nullptr;
};

// Registers a block type (re-registering a name replaces it). The GPU's
// built-in types are registered by register_gpu_blocks() (models/gpu).
void register_block(BlockType t);
const std::deque<BlockType>& block_types(); // registered ones, then any_link stages
const BlockType* find_block_type(const std::string& name);
BlockCatalog block_catalog();
// `tlmgpu topology`'s list of the side channels the blocks of `t` open
// (BlockType::side_channels), "" when none.
std::string side_channels_text(const Topology& t, const NetworkFormat& net);

// The instantiated topology: modules per block, in build order.
class BuiltTopology {
public:
  struct Block {
    const TopoBlock* decl;
    std::vector<std::unique_ptr<sc_core::sc_module>> instances;
  };
  Topology topology;
  std::vector<Block> blocks;
  // The first block (by name) whose type is not functional_neutral, or "".
  std::string first_non_neutral() const;

  // Every instance of every block of `type`, in block then index order.
  template <class M>
  std::vector<M*> of_type(const std::string& type) const {
    std::vector<M*> out;
    for (const Block& b : blocks)
      if (b.decl->type == type)
        for (const auto& m : b.instances)
          out.push_back(static_cast<M*>(m.get()));
    return out;
  }
};

// Expands ctx.platform.topology, builds every instance (children of the
// current module) and binds them. ConfigError on any topology error.
std::unique_ptr<BuiltTopology> build_topology(SimContext& ctx, StatGroup& parent);
// Only the expansion (no SystemC objects): `tlmgpu topology`, checks.
Topology expand_platform_topology(const PlatformSpec& p);

} // namespace tlmgpu
