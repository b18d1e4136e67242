#pragma once

#include "tlmgpu/simt/warp.hpp"
#include "workloads/workload.hpp"

namespace tlmgpu {

struct HistogramArgs;
using WarpTaskFactory = WarpTask (*)(Warp&, HistogramArgs);

WorkloadEntry histogram_workload();
WorkloadEntry histogram_shared_workload();

} // namespace tlmgpu
