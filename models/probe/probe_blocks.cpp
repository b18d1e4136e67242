// The builder's side of the probe stage (models/probe/README.md).
#include "models/probe/probe_module.hpp"

namespace tlmgpu {

StageType probe_stage_type() {
  StageType t{"probe", "pass-through: counts the requests crossing it by kind",
              [](const char* name, const StageContext& c) -> std::unique_ptr<PathStage> {
                return std::make_unique<ProbeModule>(name, c);
              }};
  t.any_link = true; // it needs no SM: a probe may watch any link
  return t;
}

} // namespace tlmgpu
