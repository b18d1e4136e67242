#include "models/probe/probe_module.hpp"

#include "tlmgpu/sim/payload.hpp"

namespace tlmgpu {

ProbeModule::ProbeModule(sc_core::sc_module_name n, const StageContext& c)
    : PassThroughStage(n), stats_(c.sm_stats, basename()),
      requests_(stats_.counter("requests", "requests", "requests that crossed this stage")),
      loads_(stats_.counter("loads", "requests", "of them loads")),
      stores_(stats_.counter("stores", "requests", "of them stores")),
      atomics_(stats_.counter("atomics", "requests", "of them value-returning atomics")),
      reds_(stats_.counter("reds", "requests", "of them reds (LAB and PHI packets included)")),
      other_(stats_.counter("other", "requests", "of them anything else (fences, fills, ...)")) {}

void ProbeModule::on_request(tlm::tlm_generic_payload& t) {
  ++requests_;
  switch (access_of(t).kind) {
  case AccessKind::Load:
    ++loads_;
    break;
  case AccessKind::Store:
    ++stores_;
    break;
  case AccessKind::Atomic:
    ++atomics_;
    break;
  case AccessKind::Red:
    ++reds_;
    break;
  default:
    ++other_;
    break;
  }
}

} // namespace tlmgpu
