// The block registry and the builder (include/tlmgpu/sim/builder.hpp).
#include "tlmgpu/sim/builder.hpp"

#include "tlmgpu/config.hpp"
#include "tlmgpu/sim/path_stage.hpp"

#include <algorithm>
#include <deque>

namespace tlmgpu {
namespace {

// A deque: registering never moves the types already there, so pointers
// from find_block_type() and block_catalog() stay valid.
std::deque<BlockType>& registry() {
  static std::deque<BlockType> all;
  return all;
}

// A path stage that may sit on any link: ports `up` (target) and `down`.
BlockType stage_block(const StageType& s) {
  BlockType b;
  b.name = s.name;
  b.description = s.description + " (a path stage; on any link)";
  b.ports = {{"up", PortDir::Target, false, "requests in, responses out"},
             {"down", PortDir::Initiator, false, "requests on, responses back"}};
  const StageFactory make = s.make;
  b.make = [make](const BlockBuild& a) -> std::unique_ptr<sc_core::sc_module> {
    // On a link outside an SM the stage still counts time in core cycles.
    return make(a.name.c_str(),
                StageContext{a.ctx, uint16_t(a.index), a.parent, a.ctx.platform.sm.clock_mhz});
  };
  b.socket = [](sc_core::sc_module& m, const std::string& port, uint32_t) {
    auto& stage = static_cast<PathStage&>(m);
    return port == "up" ? SocketRef{nullptr, &stage.upstream()}
                        : SocketRef{&stage.downstream(), nullptr};
  };
  return b;
}

} // namespace

void register_block(BlockType t) {
  auto& all = registry();
  auto it =
      std::find_if(all.begin(), all.end(), [&](const BlockType& b) { return b.name == t.name; });
  if (it != all.end())
    *it = std::move(t);
  else
    all.push_back(std::move(t));
}

const std::deque<BlockType>& block_types() {
  // Stage types may be registered at any time (tests do): an any_link stage
  // not yet seen becomes a block type now (once; the registry only grows).
  auto& all = registry();
  for (const StageType& s : stage_types())
    if (s.any_link &&
        std::none_of(all.begin(), all.end(), [&](const BlockType& b) { return b.name == s.name; }))
      all.push_back(stage_block(s));
  return all;
}

const BlockType* find_block_type(const std::string& name) {
  for (const BlockType& b : block_types())
    if (b.name == name) return &b;
  return nullptr;
}

BlockCatalog block_catalog() {
  BlockCatalog c;
  for (const BlockType& b : block_types())
    c.types.push_back(b.name);
  c.ports = [](const std::string& type) -> const std::vector<PortDecl>* {
    const BlockType* b = find_block_type(type);
    return b ? &b->ports : nullptr;
  };
  return c;
}

std::string side_channels_text(const Topology& t, const NetworkFormat& net) {
  std::string lines;
  for (const TopoBlock& b : t.blocks) {
    const BlockType* type = find_block_type(b.type);
    if (!type || !type->side_channels) continue;
    for (const std::string& c : type->side_channels(b, net))
      lines += "  " + c + "\n";
  }
  return lines.empty() ? ""
                       : "side channels (opened by blocks, not bound in the topology):\n" + lines;
}

std::string BuiltTopology::first_non_neutral() const {
  for (const Block& b : blocks) {
    const BlockType* t = find_block_type(b.decl->type);
    if (!t || !t->functional_neutral) return b.decl->name + " (type " + b.decl->type + ")";
  }
  return "";
}

Topology expand_platform_topology(const PlatformSpec& p) {
  return expand_topology(p.topology, effective_config(p), block_catalog());
}

std::unique_ptr<BuiltTopology> build_topology(SimContext& ctx, StatGroup& parent) {
  auto built = std::make_unique<BuiltTopology>();
  built->topology = expand_platform_topology(ctx.platform);
  const Topology& t = built->topology;
  std::vector<const BlockType*> types;
  for (const TopoBlock& b : t.blocks) {
    const BlockType* type = find_block_type(b.type);
    types.push_back(type);
    if (b.has_stages && !type->has_path)
      throw ConfigError(ctx.platform.topology.origin_of("blocks." + b.name) + ": topology.blocks." +
                        b.name + ".stages: type " + b.type +
                        " has no memory path (only an SM has stages)");
    BuiltTopology::Block& out = built->blocks.emplace_back();
    out.decl = &b;
    for (uint32_t i = 0; i < b.count; ++i)
      try {
        out.instances.push_back(type->make(BlockBuild{ctx, parent, b, i, b.instance(i)}));
      } catch (const ConfigError& e) {
        // A block that cannot work with what it was given (a port count
        // that does not match the address map, ...) says why; name where.
        throw ConfigError(ctx.platform.topology.origin_of("blocks." + b.name) + ": " +
                          "topology.blocks." + b.name + ": " + e.what());
      }
  }
  for (const TopoBinding& b : t.bindings) {
    auto socket = [&](const TopoEnd& e) {
      return types[e.block]->socket(*built->blocks[e.block].instances[e.index], e.port,
                                    e.port_index);
    };
    const SocketRef from = socket(b.from), to = socket(b.to);
    from.initiator->bind(*to.target);
  }
  return built;
}

} // namespace tlmgpu
