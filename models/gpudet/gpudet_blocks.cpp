// The builder's side of GPUDet (a *_blocks.cpp file: the one place a block's
// factory reads the platform and hands the module its own spec).
#include "models/gpudet/gpudet_module.hpp"
#include "models/gpudet/gpudet_sequencer_module.hpp"

#include "tlmgpu/config.hpp"

namespace tlmgpu {

StageType gpudet_stage_type() {
  return {"gpudet",
          "GPUDet (gpudet.*): quanta of gpudet.quantum instructions per warp with private store "
          "buffers, a GPU-wide commit, then atomics one warp at a time; implied by "
          "gpudet.enable",
          [](const char* name, const StageContext& c) -> std::unique_ptr<PathStage> {
            const PlatformSpec& p = c.ctx.platform;
            return std::make_unique<GpuDetModule>(name, c, p.gpudet, p.sm.max_warps);
          },
          [](const PlatformSpec& p) { return p.gpudet.enable; },
          [](const PlatformSpec& p) {
            if (!p.gpudet.enable)
              throw ConfigError("sm.stages lists 'gpudet' but gpudet.enable is false");
          }};
}

StageType gpudet_sequencer_stage_type() {
  StageType t{"gpudet_sequencer",
              "GPUDet sequencer: put in front of L2 slice i (instance i); with "
              "gpudet.serial_overlap applies serial-mode atomics in the per-slice order they "
              "were numbered at issue (global warp id), parking early ones; passes everything "
              "else on (all of it when gpudet.enable is false)",
              [](const char* name, const StageContext& c) -> std::unique_ptr<PathStage> {
                return std::make_unique<GpuDetSequencerModule>(name, c, c.ctx.platform.gpudet);
              }};
  t.any_link = true;
  return t;
}

} // namespace tlmgpu
