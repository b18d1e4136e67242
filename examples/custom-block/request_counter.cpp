#include "request_counter.hpp"

#include "tlmgpu/sim/payload.hpp"

#include <bit>

namespace custom {

RequestCounter::RequestCounter(sc_core::sc_module_name n, const tlmgpu::StageContext& c)
    : PassThroughStage(n), stats_(c.sm_stats, basename()),
      requests_(stats_.counter("requests", "requests", "requests from the LD/ST unit to the L1")),
      sectors_(stats_.counter("sectors", "sectors", "sectors those requests touch")),
      fences_(stats_.counter("fences", "requests", "of them fences and kernel-end releases")) {
  // A formula is evaluated when the stats are written, per kernel and in
  // total, so it needs no bookkeeping here.
  stats_.formula("sectors_per_request", "sectors", "sectors per data request (1..4: coalescing)",
                 [this](tlmgpu::StatView v) {
                   return tlmgpu::ratio(double(sectors_.value(v)),
                                        double(requests_.value(v) - fences_.value(v)));
                 });
}

void RequestCounter::on_request(tlm::tlm_generic_payload& t) {
  const tlmgpu::GpuAccess& a = tlmgpu::access_of(t);
  ++requests_;
  if (a.kind == tlmgpu::AccessKind::Fence)
    ++fences_;
  else
    sectors_ += std::popcount(a.sector_mask);
}

tlmgpu::StageType request_counter_stage_type() {
  return {
      "request_counter", "example (examples/custom-block): counts requests and sectors",
      [](const char* name, const tlmgpu::StageContext& c) -> std::unique_ptr<tlmgpu::PathStage> {
        return std::make_unique<RequestCounter>(name, c);
      }};
}

} // namespace custom
