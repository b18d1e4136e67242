// Die area of the GPU and of the units a platform may place (seed-003 §5.3,
// thesis §4.4.4, §5.4.5, §6.4.5). Reported in stats.json metrics only; no
// timing depends on it.
#pragma once

#include "tlmgpu/params.hpp"

namespace tlmgpu {

struct AreaSpec {
  double gpu_die_mm2 = 0, scu_mm2 = 0, iru_partition_mm2 = 0;

  template <class V>
  void visit(V& v) {
    v.param(gpu_die_mm2, "gpu_die_mm2", 815, Range{0, 1e6}, "mm^2",
            "GPU die without the units (815: Titan V's GV100; gtx980 398, GM204; tx1 85.4, "
            "implied by the thesis' 3.65 mm^2 = 4.1 % [A]); a unit's share is "
            "unit / (die + units), which matches the thesis' percentages");
    v.param(scu_mm2, "scu_mm2", 13.27, Range{0, 1e6}, "mm^2",
            "SCU with filtering and grouping, when placed (thesis §4.4.4: 13.27 at width 4 on "
            "GTX 980, 3.65 at width 1 on TX1; 32 nm synthesis)");
    v.param(iru_partition_mm2, "iru_partition_mm2", 5.98, Range{0, 1e6}, "mm^2",
            "one IRU partition, per partition placed (thesis §5.4.5: 5.98, 4 x 5.98 = 23.9 on "
            "GTX 980)");
  }
  void derive() {}
};

} // namespace tlmgpu
