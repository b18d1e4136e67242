// `tlmgpu list`'s block section, `tlmgpu describe` and `tlmgpu topology`:
// block types with their ports (the builder's registry) beside parameter
// groups (the platform's declarations).
#include "cli.hpp"

#include "models/gpu/gpu_blocks.hpp"
#include "tlmgpu/config.hpp"
#include "tlmgpu/node.hpp"
#include "tlmgpu/sim/builder.hpp"
#include "tlmgpu/sim/path_stage.hpp"

#include <boost/program_options.hpp>

#include <algorithm>
#include <iomanip>
#include <iostream>

namespace tlmgpu::cli {
namespace po = boost::program_options;

namespace {

std::string port_summary(const PortDecl& p) {
  return p.name + (p.multi ? "[]" : "") +
         (p.dir == PortDir::Initiator ? " (initiator)" : " (target)");
}

std::vector<std::string> names() {
  register_gpu_blocks();
  std::vector<std::string> out = block_names();
  for (const BlockType& b : block_types())
    if (std::find(out.begin(), out.end(), b.name) == out.end()) out.push_back(b.name);
  return out;
}

} // namespace

std::string describable_names() {
  std::string list = "node";
  for (const std::string& n : names())
    list += (list.empty() ? "" : ", ") + n;
  return list;
}

void list_blocks(std::ostream& os) {
  register_gpu_blocks();
  os << "block types (platform \"topology\"; tlmgpu describe <type>):\n";
  for (const BlockType& b : block_types()) {
    std::string ports;
    for (const PortDecl& p : b.ports)
      ports += (ports.empty() ? "" : ", ") + port_summary(p);
    os << "  " << std::left << std::setw(20) << b.name << " " << b.description << "\n"
       << "  " << std::string(21, ' ') << "ports: " << ports << "\n";
  }
  os << "\nparameter groups (tlmgpu describe <group>):\n ";
  for (const std::string& g : block_names())
    os << " " << g;
  os << "\n\nnode parameter groups (runtime node files; tlmgpu describe node):\n  host "
        "runtime gpu_time uvm gpu_model";
  os << "\n\nmemory-path stages (sm.stages):\n";
  for (const StageType& t : stage_types())
    os << "  " << std::left << std::setw(20) << t.name << " " << t.description << "\n";
}

void describe(const std::string& name, std::ostream& os) {
  if (name == "node") { // a runtime node file's groups (include/tlmgpu/node.hpp)
    os << render_describe(describe_rows<NodeRuntimeSpec>(""));
    return;
  }
  register_gpu_blocks();
  const BlockType* type = find_block_type(name);
  const std::vector<std::string> groups = block_names();
  const bool group = std::find(groups.begin(), groups.end(), name) != groups.end();
  if (!type && !group) {
    const std::string m = closest_match(name, names());
    throw ConfigError("unknown block '" + name + "'" +
                      (m.empty() ? "" : " (did you mean '" + m + "'?)") +
                      "; blocks: " + describable_names());
  }
  if (type) {
    os << "block type " << type->name << ": " << type->description << "\n\nPORT"
       << std::string(12, ' ') << "DIRECTION  MULTI  DESCRIPTION\n";
    for (const PortDecl& p : type->ports)
      os << std::left << std::setw(16) << p.name << std::setw(11)
         << (p.dir == PortDir::Initiator ? "initiator" : "target") << std::setw(7)
         << (p.multi ? "yes" : "no") << p.description << "\n";
    os << "\n";
  }
  const std::string params = type ? type->params : name;
  if (!params.empty())
    os << render_describe(describe_block(params));
  else
    os << "(no parameters)\n";
}

int cmd_topology(const Args& args) {
  po::options_description desc("options");
  add_platform_options(desc);
  desc.add_options()("dot", po::bool_switch(), "print Graphviz DOT (dot -Tsvg) instead of text");
  po::variables_map vm;
  if (!parse("topology", "tlmgpu topology -p <platform> [--set key=value]... [--dot]", args, desc,
             {}, vm))
    return kExitOk;
  const std::string path = resolve_platform(vm["platform"].as<std::string>());
  register_gpu_blocks();
  if (is_node_file(path)) { // one topology per GPU (no links between them yet)
    const NodeSpec node = load_node(path, strings(vm, "set"));
    if (vm["dot"].as<bool>()) throw UsageError("topology --dot: give one GPU's platform file");
    for (size_t i = 0; i < node.gpus.size(); ++i)
      std::cout << "device_" << i << ": platform " << node.gpus[i].name << " (" << node.gpu_files[i]
                << ")\n"
                << topology_text(expand_platform_topology(node.gpus[i]))
                << side_channels_text(expand_platform_topology(node.gpus[i]),
                                      network_format(node.gpus[i]));
    return kExitOk;
  }
  const PlatformSpec spec = load_platform(path, strings(vm, "set"));
  const Topology t = expand_platform_topology(spec);
  if (vm["dot"].as<bool>())
    std::cout << topology_dot(t, spec.name);
  else
    std::cout << "platform " << spec.name << "\n"
              << topology_text(t) << side_channels_text(t, network_format(spec));
  return kExitOk;
}

} // namespace tlmgpu::cli
