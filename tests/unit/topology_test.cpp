// The topology reader (include/tlmgpu/topology.hpp): the default GPU
// expands to the platform's counts, a JSON variant can insert a block, and
// each mistake is one ConfigError naming the file and the JSON path.
#include "tlmgpu/config.hpp"
#include "tlmgpu/topology.hpp"

#include <catch2/catch.hpp>

using namespace tlmgpu;
using json = nlohmann::json;

namespace {

// Port declarations of the GPU's block types, as the builder registers them
// (models/gpu/gpu_blocks.cpp), plus a pass-through "tap": kernel-free here.
const std::map<std::string, std::vector<PortDecl>>& decls() {
  static const std::map<std::string, std::vector<PortDecl>> d = {
      {"sm", {{"mem", PortDir::Initiator, false, ""}}},
      {"xbar", {{"in", PortDir::Target, true, ""}, {"out", PortDir::Initiator, true, ""}}},
      {"l2", {{"up", PortDir::Target, false, ""}, {"mem", PortDir::Initiator, false, ""}}},
      {"dram", {{"in", PortDir::Target, true, ""}}},
      {"tap", {{"up", PortDir::Target, false, ""}, {"down", PortDir::Initiator, false, ""}}},
  };
  return d;
}

BlockCatalog catalog() {
  BlockCatalog c;
  for (const auto& [name, _] : decls())
    c.types.push_back(name);
  c.ports = [](const std::string& t) -> const std::vector<PortDecl>* {
    auto it = decls().find(t);
    return it == decls().end() ? nullptr : &it->second;
  };
  return c;
}

const json& params() {
  static const json p = {
      {"sm", {{"count", 4}}}, {"dram", {{"channels", 2}}}, {"l2", {{"sub_partitions", 2}}}};
  return p;
}

Topology expand(const json& over) {
  TopologySpec t;
  t.doc = default_topology();
  merge_topology(t.doc, over);
  t.origin = "p.json";
  return expand_topology(t, params(), catalog());
}

std::string error_of(const json& over) {
  try {
    expand(over);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "(no error)";
}

} // namespace

TEST_CASE("topology: the default GPU expands to the platform's counts, upstream first") {
  const Topology t = expand(json::object());
  REQUIRE(t.blocks.size() == 4);
  CHECK(t.blocks[0].name == "sm");
  CHECK(t.blocks[1].name == "xbar");
  CHECK(t.blocks[2].name == "l2");
  CHECK(t.blocks[3].name == "dram");
  CHECK(t.blocks[0].count == 4);
  CHECK(t.blocks[2].count == 4);
  CHECK(t.blocks[3].count == 2);
  CHECK(t.blocks[1].port_counts.at("in") == 4);
  CHECK(t.bindings.size() == 4 + 4 + 4);
  // l2 slice 3 = channel 1, sub-partition 1
  bool found = false;
  for (const TopoBinding& b : t.bindings)
    if (t.end_name(b.from) == "l2_3.mem") found = t.end_name(b.to) == "dram_1.in[1]";
  CHECK(found);
}

TEST_CASE("topology: a variant inserts a block on every L2-to-DRAM link in JSON alone") {
  const Topology t = expand(json::parse(R"({
    "blocks": { "tap": { "type": "tap", "count": "dram.channels * l2.sub_partitions" } },
    "bind": { "l2[i].mem": "tap[i].up",
              "tap[i].down": "dram[i / l2.sub_partitions].in[i % l2.sub_partitions]" } })"));
  REQUIRE(t.blocks.size() == 5);
  CHECK(t.blocks[3].name == "tap"); // between l2 and dram in build order
  CHECK(t.blocks[4].name == "dram");
  CHECK(t.bindings.size() == 16);
}

TEST_CASE("topology: a count changes the instances") {
  const Topology t =
      expand({{"blocks", {{"sm", {{"count", 2}}}, {"xbar", {{"ports", {{"in", 2}}}}}}}});
  CHECK(t.blocks[0].count == 2);
  CHECK(t.blocks[0].instance(1) == "sm_1");
}

TEST_CASE("topology: a null removes a default block or binding") {
  TopologySpec t;
  t.doc = default_topology();
  merge_topology(t.doc, {{"blocks", {{"dram", nullptr}}}});
  CHECK_FALSE(t.doc["blocks"].contains("dram"));
}

TEST_CASE("topology errors: unknown block type, with a suggestion") {
  const std::string e = error_of({{"blocks", {{"l2", {{"type", "l3"}}}}}});
  CHECK_THAT(e, Catch::Contains("p.json: topology.blocks.l2.type: unknown block type 'l3'"));
  CHECK_THAT(e, Catch::Contains("did you mean 'l2'"));
}

TEST_CASE("topology errors: unknown port and unknown block in a binding") {
  CHECK_THAT(error_of({{"bind", {{"sm[i].mem", "xbar.inn[i]"}}}}),
             Catch::Contains("topology.bind.sm[i].mem: block 'xbar' (type xbar) has no port "
                             "'inn' (did you mean 'in'?)"));
  CHECK_THAT(error_of({{"bind", {{"sm[i].mem", "xbr.in[i]"}}}}),
             Catch::Contains("unknown block 'xbr' (did you mean 'xbar'?)"));
}

TEST_CASE("topology errors: a port bound twice") {
  const std::string e = error_of({{"bind", {{"sm[i].mem", "xbar.in[0]"}}}});
  CHECK_THAT(e, Catch::Contains("topology.bind.sm[i].mem (i = 1): port xbar.in[0] is bound "
                                "twice: also by topology.bind.sm[i].mem (i = 0)"));
}

TEST_CASE("topology errors: a port never bound") {
  CHECK_THAT(error_of({{"blocks", {{"xbar", {{"ports", {{"in", 5}}}}}}}}),
             Catch::Contains("topology.bind: port xbar.in[4] (block 'xbar', type xbar) is not "
                             "bound"));
}

TEST_CASE("topology errors: counts that do not match (an index out of range)") {
  CHECK_THAT(error_of({{"blocks", {{"sm", {{"count", 5}}}}}}),
             Catch::Contains("topology.bind.sm[i].mem: xbar.in[i] (i = 4) = xbar.in[4] is out "
                             "of range: xbar.in has 4"));
}

TEST_CASE("topology errors: a binding from a target port or to an initiator port") {
  CHECK_THAT(error_of({{"bind", {{"l2[i].up", "dram[0].in[0]"}}}}),
             Catch::Contains("l2.up is a target port"));
  CHECK_THAT(error_of({{"bind", {{"sm[i].mem", "l2[i].mem"}}}}),
             Catch::Contains("l2.mem is an initiator port"));
}

TEST_CASE("topology errors: indices where there are none, none where there are many") {
  CHECK_THAT(error_of({{"bind", {{"xbar.out[i]", "l2.up"}}}}),
             Catch::Contains("l2 has 4 instances; write l2[...]"));
  CHECK_THAT(error_of({{"bind", {{"sm[i].mem[0]", "xbar.in[i]"}}}}),
             Catch::Contains("sm.mem is a single port"));
}

TEST_CASE("topology errors: expressions name real parameters") {
  CHECK_THAT(error_of({{"blocks", {{"sm", {{"count", "sm.cont"}}}}}}),
             Catch::Contains("topology.blocks.sm.count: 'sm.cont': unknown name 'sm.cont' "
                             "(did you mean 'sm.count'?)"));
  CHECK_THAT(error_of({{"blocks", {{"sm", {{"count", "4 / (2 - 2)"}}}}}}),
             Catch::Contains("division by zero"));
  CHECK_THAT(error_of({{"blocks", {{"sm", {{"count", 0}}}}}}),
             Catch::Contains("topology.blocks.sm.count: 0 = 0 is out of range [1, 65535]"));
}

TEST_CASE("topology errors: a multi-port needs a count; unknown keys are refused") {
  CHECK_THAT(error_of({{"blocks", {{"xbar", {{"ports", nullptr}}}}}}),
             Catch::Contains("topology.blocks.xbar.ports: multi-port 'in' of type xbar needs a "
                             "count"));
  CHECK_THAT(error_of({{"blocks", {{"sm", {{"cout", 2}}}}}}),
             Catch::Contains("topology.blocks.sm.cout: unknown key (did you mean 'count'?)"));
  CHECK_THAT(error_of({{"bindings", json::object()}}),
             Catch::Contains("topology.bindings: unknown key (did you mean 'bind'?)"));
}

TEST_CASE("topology errors: stages are one string") {
  CHECK_THAT(error_of({{"blocks", {{"sm", {{"stages", {"probe"}}}}}}}),
             Catch::Contains("topology.blocks.sm.stages: expected the stage types as one string"));
}

TEST_CASE("topology: expressions") {
  CHECK(eval_expression("dram.channels * l2.sub_partitions + 1", params(), {}) == 5);
  CHECK(eval_expression("(i + 3) / 2 % 2", params(), {{"i", 5}}) == 0);
  CHECK(eval_expression("-2 + 7", params(), {}) == 5);
  CHECK_THROWS_AS(eval_expression("2 +", params(), {}), ConfigError);
  CHECK_THROWS_AS(eval_expression("(2", params(), {}), ConfigError);
}

TEST_CASE("topology: a platform file's topology merges onto the default, --set reaches it") {
  const PlatformSpec p =
      load_platform(std::string(TLMGPU_SOURCE_DIR) + "/platforms/tiny.json",
                    {"topology.blocks.sm.count=1", "topology.bind.sm[i].mem=xbar.in[i]"});
  CHECK(p.topology.doc["blocks"]["sm"]["count"] == 1);
  CHECK(p.topology.doc["blocks"]["l2"]["type"] == "l2");
  // The effective configuration loads back to the same topology.
  const PlatformSpec again = platform_from_json(effective_config(p), "effective");
  CHECK(again.topology.doc == p.topology.doc);
}
