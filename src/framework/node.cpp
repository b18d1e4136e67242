// Node files (include/tlmgpu/node.hpp).
#include "tlmgpu/node.hpp"

#include "tlmgpu/config.hpp"
#include "tlmgpu/json_limits.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>

namespace tlmgpu {
namespace {

using json = nlohmann::json;
namespace fs = std::filesystem;

json read(const std::string& path) {
  return parse_json(read_config_file(path, "node file"), path);
}

void only(const json& obj, const std::vector<std::string>& keys, const std::string& file,
          const std::string& where) {
  for (const auto& item : obj.items())
    if (std::find(keys.begin(), keys.end(), item.key()) == keys.end()) {
      const std::string m = closest_match(item.key(), keys);
      throw ConfigError(file + ": unknown key '" + where + item.key() + "'" +
                        (m.empty() ? "" : " (did you mean '" + where + m + "'?)"));
    }
}

} // namespace

bool is_node_file(const std::string& path) {
  std::string text;
  if (!read_text_file(path, text)) return false;
  const json doc = try_parse_json(text);
  return doc.is_object() && doc.contains("node");
}

NodeSpec load_node(const std::string& path, const std::vector<std::string>& sets) {
  check_sets_unique(sets);
  const json doc = read(path);
  if (!doc.is_object()) throw ConfigError(path + ": expected a JSON object at the top level");
  only(doc, {"name", "description", "node"}, path, "");
  NodeSpec n;
  n.name = doc.value("name", fs::path(path).stem().string());
  n.description = doc.value("description", "");
  const json& node = doc["node"];
  if (!node.is_object()) throw ConfigError(path + ": node: expected an object with \"gpus\"");
  only(node, {"gpus"}, path, "node.");
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
  if (n.gpus.size() > 64)
    throw ConfigError(path + ": node.gpus: " + std::to_string(n.gpus.size()) +
                      " GPUs; at most 64 are supported");
  return n;
}

} // namespace tlmgpu
