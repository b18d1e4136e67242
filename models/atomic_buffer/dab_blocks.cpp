// The builder's side of DAB (a *_blocks.cpp file: the one place a block's
// factory reads the platform and hands the module its own spec).
#include "models/atomic_buffer/dab_module.hpp"
#include "models/atomic_buffer/dab_reorder_module.hpp"

#include "tlmgpu/config.hpp"

namespace tlmgpu {

StageType dab_stage_type() {
  return {"dab",
          "DAB atomic buffers (dab.*): takes reds at issue into per-warp or per-scheduler "
          "buffers, orders them (dab.order), flushes GPU-wide; implied by dab.level != none",
          [](const char* name, const StageContext& c) -> std::unique_ptr<PathStage> {
            const PlatformSpec& p = c.ctx.platform;
            return std::make_unique<DabModule>(name, c, p.dab, p.sm.schedulers, p.sm.max_warps,
                                               p.sm.count, p.sm.cta_groups);
          },
          [](const PlatformSpec& p) { return p.dab.enabled(); },
          [](const PlatformSpec& p) {
            if (!p.dab.enabled())
              throw ConfigError("sm.stages lists 'dab' but dab.level is none (set dab.level = "
                                "warp or scheduler)");
          }};
}

uint32_t dab_sources(const PlatformSpec& p) {
  return p.dab.grouped() ? p.sm.cta_groups : p.sm.count;
}

StageType dab_reorder_stage_type() {
  StageType t{"dab_reorder",
              "DAB reorder unit: put in front of L2 slice i (instance i); applies each flush "
              "epoch's packets in round-robin SM order (dab.reorder) or arrival order; passes "
              "everything else on (all of it when dab.level is none)",
              [](const char* name, const StageContext& c) -> std::unique_ptr<PathStage> {
                // With dab.level none nothing is tagged: the unit passes every
                // request on, so one topology serves a sweep's baseline too.
                const PlatformSpec& p = c.ctx.platform;
                return std::make_unique<DabReorderModule>(name, c, p.dab, dab_sources(p));
              }};
  t.any_link = true;
  return t;
}

} // namespace tlmgpu
