// `random-traffic`: one seeded random-traffic generator per SM (or fewer),
// each on a private region plus one shared contended counter; every returned
// value is checked at completion, and device memory is compared with the
// reference at the end. `latency`: the load-latency microbenchmark.
#pragma once

#include "workloads/workload.hpp"

namespace tlmgpu {

WorkloadEntry random_traffic_workload();
WorkloadEntry latency_workload();

} // namespace tlmgpu
