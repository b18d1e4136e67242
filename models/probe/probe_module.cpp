#include "models/probe/probe_module.hpp"

#include "tlmgpu/sim/payload.hpp"

namespace tlmgpu {

ProbeModule::ProbeModule(sc_core::sc_module_name n, const StageContext& c)
    : PathStage(n), up_("up"), down_("down"), stats_(c.sm_stats, basename()),
      requests_(stats_.counter("requests", "requests", "requests that crossed this stage")),
      loads_(stats_.counter("loads", "requests", "of them loads")),
      stores_(stats_.counter("stores", "requests", "of them stores")),
      atomics_(stats_.counter("atomics", "requests", "of them value-returning atomics")),
      reds_(stats_.counter("reds", "requests", "of them reds (LAB and PHI packets included)")),
      other_(stats_.counter("other", "requests", "of them anything else (fences, fills, ...)")) {
  up_.register_b_transport(this, &ProbeModule::b_transport);
  up_.register_nb_transport_fw(this, &ProbeModule::nb_transport_fw);
  up_.register_transport_dbg(this, &ProbeModule::transport_dbg);
  down_.register_nb_transport_bw(this, &ProbeModule::nb_transport_bw);
}

void ProbeModule::count(tlm::tlm_generic_payload& t) {
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

void ProbeModule::b_transport(tlm::tlm_generic_payload& t, sc_core::sc_time& d) {
  count(t);
  down_->b_transport(t, d);
}

// AT: BEGIN_REQ is a new request; the other phases only pass through.
tlm::tlm_sync_enum ProbeModule::nb_transport_fw(tlm::tlm_generic_payload& t, tlm::tlm_phase& ph,
                                                sc_core::sc_time& d) {
  if (ph == tlm::BEGIN_REQ) count(t);
  return down_->nb_transport_fw(t, ph, d);
}

tlm::tlm_sync_enum ProbeModule::nb_transport_bw(tlm::tlm_generic_payload& t, tlm::tlm_phase& ph,
                                                sc_core::sc_time& d) {
  return up_->nb_transport_bw(t, ph, d);
}

unsigned ProbeModule::transport_dbg(tlm::tlm_generic_payload& t) {
  return down_->transport_dbg(t);
}

StageType probe_stage_type() {
  return {"probe", "pass-through: counts the requests crossing it by kind",
          [](const char* name, const StageContext& c) -> std::unique_ptr<PathStage> {
            return std::make_unique<ProbeModule>(name, c);
          }};
}

} // namespace tlmgpu
