#include "workloads/node_apps/node_app.hpp"

#include "tlmgpu/config.hpp"

namespace tlmgpu {

const std::vector<NodeAppEntry>& node_app_registry() {
  static const std::vector<NodeAppEntry> apps = {bfs_tasks_entry(), gups_tasks_entry(),
                                                 lc_semantics_entry(), stream_tasks_entry()};
  return apps;
}

const NodeAppEntry& find_node_app(const std::string& name) {
  std::vector<std::string> names;
  for (const NodeAppEntry& e : node_app_registry()) {
    if (e.info.name == name) return e;
    names.push_back(e.info.name);
  }
  const std::string m = closest_match(name, names);
  std::string all;
  for (const std::string& n : names)
    all += (all.empty() ? "" : ", ") + n;
  throw ConfigError("-w " + name + ": a runtime node runs task programs: " + all +
                    (m.empty() ? "" : " (did you mean '" + m + "'?)"));
}

} // namespace tlmgpu
