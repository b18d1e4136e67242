// The builder's side of the LAB (a *_blocks.cpp file: the one place a
// block's factory reads the platform and hands the module its own spec).
#include "models/lab/lab_module.hpp"

#include "tlmgpu/config.hpp"

namespace tlmgpu {

StageType lab_stage_type() {
  return {"lab",
          "local atomic buffer (lab.*): buffers device-scope commutative reds, drains at "
          "fences, the kernel end and (lab.flush_on_barrier) barriers; implied by lab.entries > 0",
          [](const char* name, const StageContext& c) -> std::unique_ptr<PathStage> {
            return std::make_unique<LabModule>(name, c, c.ctx.platform.lab);
          },
          [](const PlatformSpec& p) { return p.lab.enabled(); },
          [](const PlatformSpec& p) {
            if (!p.lab.enabled())
              throw ConfigError("sm.stages lists 'lab' but the platform has no LAB (set "
                                "lab.entries > 0 or lab.infinite = true)");
          }};
}

} // namespace tlmgpu
