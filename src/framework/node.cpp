// Node files (include/tlmgpu/node.hpp).
#include "tlmgpu/node.hpp"

#include "config_reader.hpp"
#include "models/fabric/fabric_core.hpp"
#include "tlmgpu/config.hpp"
#include "tlmgpu/json_limits.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>

namespace tlmgpu {
namespace {

using json = nlohmann::json;
namespace fs = std::filesystem;

void only(const json& obj, const std::vector<std::string>& keys, const std::string& file,
          const std::string& where) {
  for (const auto& item : obj.items())
    if (std::find(keys.begin(), keys.end(), item.key()) == keys.end()) {
      const std::string m = closest_match(item.key(), keys);
      throw ConfigError(file + ": unknown key '" + where + item.key() + "'" +
                        (m.empty() ? "" : " (did you mean '" + where + m + "'?)"));
    }
}

bool is_node_key(const std::string& assignment) {
  for (const char* g : {"host.", "runtime.", "gpu_time.", "uvm.", "gpu_model.", "fabric."})
    if (assignment.rfind(g, 0) == 0) return true;
  return false;
}

std::string show(const json& v) {
  return config_detail::show(v);
}

std::vector<std::string> strings(const json& v, const std::string& file, const std::string& key) {
  std::vector<std::string> out;
  const json list = v.is_string() ? json::array({v}) : v;
  if (!list.is_array()) throw ConfigError(file + ": " + key + ": expected a list of names");
  for (const json& x : list) {
    if (!x.is_string() || x.get<std::string>().empty())
      throw ConfigError(file + ": " + key + ": expected names (strings), got " + show(x));
    out.push_back(x.get<std::string>());
  }
  return out;
}

double number(const json& o, const char* key, const std::string& file, const std::string& where) {
  if (!o.contains(key) || !o[key].is_number())
    throw ConfigError(file + ": " + where + key + ": expected a number" +
                      (o.contains(key) ? ", got " + show(o[key]) : ""));
  return o[key].get<double>();
}

FabricSpec read_fabric(const json& f, const std::string& file) {
  if (!f.is_object()) throw ConfigError(file + ": node.fabric: expected an object");
  only(f, {"chunk_bytes", "points", "host_memory", "links"}, file, "node.fabric.");
  FabricSpec spec;
  if (f.contains("chunk_bytes")) {
    const json& c = f["chunk_bytes"];
    if (!c.is_number_unsigned() || c.get<uint64_t>() == 0 || c.get<uint64_t>() > (1ull << 40))
      throw ConfigError(file + ": node.fabric.chunk_bytes: expected an integer in [1, 2^40], got " +
                        show(c));
    spec.chunk_bytes = c.get<uint64_t>();
  }
  if (f.contains("points")) spec.points = strings(f["points"], file, "node.fabric.points");
  if (f.contains("host_memory"))
    spec.host_memory = strings(f["host_memory"], file, "node.fabric.host_memory");
  if (!f.contains("links") || !f["links"].is_array())
    throw ConfigError(file + ": node.fabric.links: expected a list of links");
  for (size_t i = 0; i < f["links"].size(); ++i) {
    const json& l = f["links"][i];
    const std::string where = "node.fabric.links[" + std::to_string(i) + "].";
    if (!l.is_object()) throw ConfigError(file + ": " + where + ": expected an object");
    only(l, {"name", "a", "b", "kind", "gbps", "latency_us"}, file, where);
    LinkSpec k;
    for (auto [key, field] :
         {std::pair{"name", &k.name}, {"a", &k.a}, {"b", &k.b}, {"kind", &k.kind}}) {
      if (!l.contains(key) || !l[key].is_string())
        throw ConfigError(file + ": " + where + key + ": expected a string");
      *field = l[key].get<std::string>();
    }
    k.gbps = number(l, "gbps", file, where);
    k.latency_us = number(l, "latency_us", file, where);
    spec.links.push_back(k);
  }
  return spec;
}

// The groups host, runtime, gpu_time, uvm and gpu_model with the node's --sets applied, read
// by the platform reader (strict keys, types and ranges).
NodeRuntimeSpec read_runtime(const json& node, const std::vector<std::string>& sets,
                             const std::string& file) {
  using namespace config_detail;
  json doc = json::object();
  for (const char* g : {"host", "runtime", "gpu_time", "uvm", "gpu_model"})
    if (node.contains(g)) doc[g] = node[g];
  json fabric = node["fabric"];
  Origins origins;
  origins.set("", file);
  std::vector<std::string> declared;
  for (const ParamRow& r : describe_rows<NodeRuntimeSpec>(""))
    declared.push_back(r.path);
  for (const std::string& s : sets) {
    const auto eq = s.find('=');
    if (eq == std::string::npos || eq == 0)
      throw ConfigError("--set '" + s + "': expected key=value, e.g. runtime.gpus=4");
    const std::string key = s.substr(0, eq);
    json value = try_parse_json(s.substr(eq + 1));
    if (value.is_discarded()) value = s.substr(eq + 1);
    if (key == "fabric.chunk_bytes") {
      if (!fabric.is_object()) fabric = json::object();
      fabric["chunk_bytes"] = value;
      continue;
    }
    if (std::find(declared.begin(), declared.end(), key) == declared.end()) {
      const std::string m = closest_match(key, declared);
      throw ConfigError("unknown key '" + key + "' in --set for node " + file +
                        (m.empty() ? "" : " (did you mean '" + m + "'?)"));
    }
    const auto dot = key.find('.');
    doc[key.substr(0, dot)][key.substr(dot + 1)] = value;
    origins.set(key, "--set");
  }
  NodeRuntimeSpec spec;
  spec.fabric = read_fabric(fabric, file);
  Reader reader(&doc, "", origins);
  spec.visit(reader);
  reader.finish();
  return spec;
}

void check_fabric(const NodeSpec& n, const std::string& file) {
  try {
    FabricCore core(n.runtime.fabric, uint32_t(n.gpus.size()));
  } catch (const ConfigError& e) {
    throw ConfigError(file + ": node." + e.what());
  }
}

// gpu_model.platform: every GPU of the node becomes that platform (the
// GPU-side --sets apply to it); read only with gpu_model.kind=full.
void full_gpu_platform(NodeSpec& n, const std::string& path, const std::vector<std::string>& sets) {
  const GpuModelSpec& m = n.runtime.gpu_model;
  if (m.platform.empty()) return;
  if (m.kind != "full")
    throw ConfigError(path + ": gpu_model.platform = " + m.platform +
                      " is read only with gpu_model.kind = full (the kernel-time model has no "
                      "GPU platform)");
  fs::path ref = m.platform;
  if (!ref.has_extension()) ref += ".json";
  const std::string file =
      (ref.is_absolute() ? ref : fs::path(path).parent_path() / ref).lexically_normal().string();
  if (!fs::is_regular_file(file))
    throw ConfigError(path + ": gpu_model.platform = " + m.platform + ": no platform file " + file);
  const PlatformSpec spec = load_platform(file, sets);
  n.gpus.assign(n.gpus.size(), spec);
  n.gpu_files.assign(n.gpu_files.size(), file);
}

} // namespace

nlohmann::json effective_node_config(const NodeRuntimeSpec& spec) {
  json out = json::object();
  NodeRuntimeSpec copy = spec;
  config_detail::Writer w{out};
  copy.visit(w);
  json links = json::array();
  for (const LinkSpec& l : spec.fabric.links)
    links.push_back({{"name", l.name},
                     {"a", l.a},
                     {"b", l.b},
                     {"kind", l.kind},
                     {"gbps", l.gbps},
                     {"latency_us", l.latency_us}});
  out["fabric"] = {{"chunk_bytes", spec.fabric.chunk_bytes},
                   {"points", spec.fabric.points},
                   {"host_memory", spec.fabric.host_memory},
                   {"links", links}};
  return out;
}

bool is_node_file(const std::string& path) {
  std::string text;
  if (!read_text_file(path, text)) return false;
  const json doc = try_parse_json(text);
  return doc.is_object() && doc.contains("node");
}

NodeSpec load_node(const std::string& path, const std::vector<std::string>& all_sets) {
  check_sets_unique(all_sets);
  const json doc = load_config_tree(path, "node file");
  only(doc, {"name", "description", "node"}, path, "");
  NodeSpec n;
  n.name = doc.value("name", fs::path(path).stem().string());
  n.description = doc.value("description", "");
  const json& node = doc["node"];
  if (!node.is_object()) throw ConfigError(path + ": node: expected an object with \"gpus\"");
  only(node, {"gpus", "fabric", "host", "runtime", "gpu_time", "uvm", "gpu_model"}, path, "node.");
  std::vector<std::string> sets;
  if (node.contains("fabric")) {
    std::vector<std::string> node_sets;
    for (const std::string& s : all_sets)
      (is_node_key(s) ? node_sets : sets).push_back(s);
    n.runtime_node = true;
    n.runtime = read_runtime(node, node_sets, path);
  } else {
    for (const char* k : {"host", "runtime", "gpu_time", "uvm", "gpu_model"})
      if (node.contains(k))
        throw ConfigError(path + ": node." + k + ": only a node with a \"fabric\" runs the " +
                          "task runtime");
    sets = all_sets;
  }
  if (!node.contains("gpus") || !node["gpus"].is_array() || node["gpus"].empty())
    throw ConfigError(path +
                      ": node.gpus: expected a non-empty array of {\"platform\", \"count\"}");
  for (size_t i = 0; i < node["gpus"].size(); ++i) {
    const json& g = node["gpus"][i];
    const std::string where = "node.gpus[" + std::to_string(i) + "].";
    if (!g.is_object()) throw ConfigError(path + ": " + where + ": expected an object");
    only(g, {"platform", "count"}, path, where);
    if (!g.contains("platform") || !g["platform"].is_string())
      throw ConfigError(path + ": " + where + "platform: expected a platform file name");
    const json count = g.value("count", json(1));
    if (!count.is_number_unsigned() || count.get<uint64_t>() < 1 || count.get<uint64_t>() > 64)
      throw ConfigError(path + ": " + where + "count: expected an integer in [1, 64], got " +
                        count.dump());
    const fs::path ref = g["platform"].get<std::string>();
    const std::string file =
        (ref.is_absolute() ? ref : fs::path(path).parent_path() / ref).lexically_normal().string();
    const PlatformSpec spec = load_platform(file, sets);
    for (uint64_t k = 0; k < count.get<uint64_t>(); ++k) {
      n.gpus.push_back(spec);
      n.gpu_files.push_back(file);
    }
  }
  if (n.runtime_node) {
    check_fabric(n, path);
    full_gpu_platform(n, path, sets);
  }
  if (n.gpus.size() > 64)
    throw ConfigError(path + ": node.gpus: " + std::to_string(n.gpus.size()) +
                      " GPUs; at most 64 are supported");
  return n;
}

} // namespace tlmgpu
