// A platform's topology: which blocks exist, how many of each, and which
// port is bound to which (docs/platforms.md, "Topology"). Read from the
// platform's "topology" section, merged onto the built-in GPU topology:
//
//   "topology": {
//     "blocks": { "sm":   { "type": "sm", "count": "sm.count" },
//                 "xbar": { "type": "xbar", "ports": { "in": "sm.count", ... } }, ... },
//     "bind":   { "sm[i].mem": "xbar.in[i]", ... }
//   }
//
// A bind key is an initiator port, its value a target port; `i` runs over
// the index the key writes as `[i]` (a block's instances or a multi-port's
// ports). Counts and indices are integer expressions (+ - * / % and
// parentheses) over numbers, `i` and numeric platform parameters.
//
// Kernel-free: expanding and checking a topology needs only each block
// type's port declarations (a BlockCatalog); building it is
// include/tlmgpu/sim/builder.hpp.
#pragma once

#include "tlmgpu/params.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace tlmgpu {

enum class PortDir { Initiator, Target };

// A named port of a block type. A multi-port is an array (`in[0..n-1]`)
// whose size each instance's "ports" entry states.
struct PortDecl {
  std::string name;
  PortDir dir = PortDir::Target;
  bool multi = false;
  std::string description;
  bool optional = false; // a multi-port that may have no ports (no count given: 0)
};

// The built-in GPU topology (SM -> crossbar -> L2 slices -> DRAM channels),
// the root every platform's "topology" merges onto.
const nlohmann::json& default_topology();
// Merges `over` onto `base` key by key; a null value removes the key.
void merge_topology(nlohmann::json& base, const nlohmann::json& over);

// The topology section as the platform states it, merged onto the default,
// and the file each part of it came from (for error messages).
struct TopologySpec {
  nlohmann::json doc = default_topology();    // {"blocks": {...}, "bind": {...}}
  std::map<std::string, std::string> origins; // "blocks.sm", "bind.sm[i].mem" -> file
  std::string origin;                         // the platform as a whole
  std::string origin_of(const std::string& key) const;
};

struct TopoBlock {
  std::string name, type;
  uint32_t count = 1;
  bool indexed = false; // "count" given: instances are name_0 .. name_{count-1}
  std::map<std::string, uint32_t> port_counts; // multi-ports only
  // "stages": the memory path of each instance (a block type with one, the
  // SM: sm.stages otherwise), comma-separated, nearest the LD/ST unit first.
  bool has_stages = false;
  std::string stages;
  std::string instance(uint32_t i) const { return indexed ? name + "_" + std::to_string(i) : name; }
};

struct TopoEnd {
  size_t block = 0; // index into Topology::blocks
  uint32_t index = 0;
  std::string port;
  uint32_t port_index = 0;
};

struct TopoBinding {
  TopoEnd from, to;  // initiator -> target
  std::string where; // "topology.bind.sm[i].mem (i = 3)"
};

struct Topology {
  std::vector<TopoBlock> blocks; // upstream first (the order modules are built in)
  std::vector<TopoBinding> bindings;
  std::string end_name(const TopoEnd& e) const; // "sm_3.mem", "xbar.in[3]"
  const TopoBlock* find(const std::string& name) const;
};

// What the expansion needs to know of the block types.
struct BlockCatalog {
  std::vector<std::string> types;
  std::function<const std::vector<PortDecl>*(const std::string& type)> ports; // nullptr: unknown
};

// Expands and checks `t`: unknown block types, ports and parameters,
// indices out of range, ports bound twice or never, a key that is not an
// initiator port or a value that is not a target port are ConfigErrors
// naming the file and the JSON path. `params` is the platform's effective
// configuration (numbers the expressions may name).
Topology expand_topology(const TopologySpec& t, const nlohmann::json& params,
                         const BlockCatalog& catalog);

// An integer expression of a count or index; `vars` are its free names
// (`i`), anything else with a dot is a numeric parameter of `params`.
// Throws ConfigError("<expr>: <reason>").
int64_t eval_expression(const std::string& expr, const nlohmann::json& params,
                        const std::map<std::string, int64_t>& vars);

// `tlmgpu topology`: the instantiated graph as text and as Graphviz DOT.
std::string topology_text(const Topology& t);
std::string topology_dot(const Topology& t, const std::string& title);

} // namespace tlmgpu
