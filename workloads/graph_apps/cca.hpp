#pragma once

#include "workloads/workload.hpp"

namespace tlmgpu {
WorkloadEntry cca_workload();
} // namespace tlmgpu
