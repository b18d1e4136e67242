// The memory-path stage registry (include/tlmgpu/sim/path_stage.hpp).
#include "tlmgpu/sim/path_stage.hpp"

#include "tlmgpu/config.hpp"

#include <algorithm>
#include <sstream>

namespace tlmgpu {

namespace {
std::vector<StageType>& registry() {
  // The models register the built-in stages (register_gpu_blocks, in
  // models/gpu): this layer does not know them.
  static std::vector<StageType> all;
  return all;
}
} // namespace

PassThroughStage::PassThroughStage(sc_core::sc_module_name n)
    : PathStage(n), up_("up"), down_("down") {
  up_.register_b_transport(this, &PassThroughStage::b_transport);
  up_.register_nb_transport_fw(this, &PassThroughStage::fw);
  up_.register_transport_dbg(this, &PassThroughStage::dbg);
  down_.register_nb_transport_bw(this, &PassThroughStage::bw);
}

void PassThroughStage::b_transport(tlm::tlm_generic_payload& t, sc_core::sc_time& d) {
  on_request(t);
  down_->b_transport(t, d);
}

// AT: BEGIN_REQ is a new request; the other phases only pass through.
tlm::tlm_sync_enum PassThroughStage::fw(tlm::tlm_generic_payload& t, tlm::tlm_phase& ph,
                                        sc_core::sc_time& d) {
  if (ph == tlm::BEGIN_REQ) on_request(t);
  return down_->nb_transport_fw(t, ph, d);
}

tlm::tlm_sync_enum PassThroughStage::bw(tlm::tlm_generic_payload& t, tlm::tlm_phase& ph,
                                        sc_core::sc_time& d) {
  return up_->nb_transport_bw(t, ph, d);
}

unsigned PassThroughStage::dbg(tlm::tlm_generic_payload& t) {
  return down_->transport_dbg(t);
}

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

std::vector<const StageType*> parse_stages(const std::string& list, const std::string& key) {
  std::vector<const StageType*> out;
  std::stringstream in(list);
  std::string item;
  while (std::getline(in, item, ',')) {
    item.erase(0, item.find_first_not_of(" \t"));
    item.erase(item.find_last_not_of(" \t") + 1);
    if (item.empty()) {
      if (list.find_first_not_of(" \t") == std::string::npos) break; // "" or blanks: no stage
      throw ConfigError(key + ": empty stage name in '" + list + "'");
    }
    std::vector<std::string> names;
    const StageType* found = nullptr;
    for (const StageType& t : stage_types()) {
      names.push_back(t.name);
      if (t.name == item) found = &t;
    }
    if (!found) {
      const std::string hint = closest_match(item, names);
      throw ConfigError(key + ": unknown stage type '" + item + "'" +
                        (hint.empty() ? "" : " (did you mean '" + hint + "'?)") +
                        "; see 'tlmgpu list'");
    }
    out.push_back(found);
  }
  return out;
}

std::vector<const StageType*> path_stages(const PlatformSpec& p) {
  return path_stages(p, p.sm.stages, "sm.stages");
}

std::vector<const StageType*> path_stages(const PlatformSpec& p, const std::string& list,
                                          const std::string& key) {
  std::vector<const StageType*> out = parse_stages(list, key);
  for (const StageType& t : stage_types())
    if (t.implied && t.implied(p) && std::find(out.begin(), out.end(), &t) == out.end())
      out.push_back(&t);
  for (const StageType* t : out)
    if (t->check) t->check(p);
  return out;
}

} // namespace tlmgpu
