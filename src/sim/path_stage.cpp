// The memory-path stage registry (include/tlmgpu/sim/path_stage.hpp).
#include "tlmgpu/sim/path_stage.hpp"

#include "models/probe/probe_module.hpp"
#include "tlmgpu/config.hpp"

#include <algorithm>
#include <sstream>

namespace tlmgpu {

namespace {
std::vector<StageType>& registry() {
  // Built-in stages are listed here explicitly: static self-registration
  // would be dropped by the linker from a static library.
  static std::vector<StageType> all = {probe_stage_type()};
  return all;
}
} // namespace

void register_stage(StageType t) {
  auto& all = registry();
  auto it =
      std::find_if(all.begin(), all.end(), [&](const StageType& s) { return s.name == t.name; });
  if (it != all.end())
    *it = std::move(t);
  else
    all.push_back(std::move(t));
}

const std::vector<StageType>& stage_types() {
  return registry();
}

std::vector<const StageType*> parse_stages(const std::string& list) {
  std::vector<const StageType*> out;
  std::stringstream in(list);
  std::string item;
  while (std::getline(in, item, ',')) {
    item.erase(0, item.find_first_not_of(" \t"));
    item.erase(item.find_last_not_of(" \t") + 1);
    if (item.empty()) {
      if (list.find_first_not_of(" \t") == std::string::npos) break; // "" or blanks: no stage
      throw ConfigError("sm.stages: empty stage name in '" + list + "'");
    }
    std::vector<std::string> names;
    const StageType* found = nullptr;
    for (const StageType& t : stage_types()) {
      names.push_back(t.name);
      if (t.name == item) found = &t;
    }
    if (!found) {
      const std::string hint = closest_match(item, names);
      throw ConfigError("sm.stages: unknown stage type '" + item + "'" +
                        (hint.empty() ? "" : " (did you mean '" + hint + "'?)") +
                        "; see 'tlmgpu list'");
    }
    out.push_back(found);
  }
  return out;
}

} // namespace tlmgpu
