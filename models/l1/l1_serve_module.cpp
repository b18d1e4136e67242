// What a request of the SM does at this L1, stated once (issue 11 item 5).
//
//   request ──► serve(t, replay, now) ──► Step { kind, fetch_sectors, writeback }
//                                            │
//          ┌─────────────────────────────────┴──────────────────────────┐
//   b_transport (functional, lt; l1_module.cpp)          attempt (at; l1_module.cpp)
//   a nested blocking fetch / forward,                   an MSHR entry and a fill packet,
//   time booked on the pipe and the links                or the request down the queue
//
// serve() decides: which protocol policy owns the request (a device window,
// PHI's update-only lines, hLRC's owned lines, the plain VI cache), what the
// core does with it (hit, miss sectors, forward), and which dirty bytes must
// reach L2 before it. The two timing adapters only carry the Step out: they
// never look at the access kind again, so a new policy or access kind is one
// case here, not one in each timing style. What stays per style is timing:
// the MSHR table and miss queue (at), MSHR ready cycles and link booking (lt),
// and how hLRC's ownership request travels (l1_hlrc_module.cpp: a nested
// blocking call whose grant is installed on return, or an MSHR entry and a
// packet whose grant arrives later).
#include "models/l1/l1_module.hpp"

#include <string>

namespace tlmgpu {

L1Module::Step L1Module::serve(Payload& t, bool replay, Cycle now) {
  GpuAccess& a = access_of(t);
  const Addr line = t.get_address();
  Step s;
  if (ctx_.address_map.device_of(line) >= 0) { // registers, not memory: never cached here
    s.kind = Step::Kind::Forward;
    return s;
  }
  if (core_.phi_eligible(a)) { // PHI: performed in an update-only line
    a.serviced_by = GpuAccess::Level::L1;
    s.writeback = core_.phi_update(a, line).writeback;
    s.phi_partials = true; // victims and op-mismatch partials, behind the write-back
    return s;
  }
  s.not_before = phi_release(a, line, now); // PHI: an update-only line's partials go first
  if (rsp_ && srsp_promoted(a, line)) {     // sRSP: at L2, then invalidate (l1_rsp_module.cpp)
    srsp_release(a, line, s);               // an acq_rel's release half leaves its marker
    s.writeback = core_.atomic(line, a.sector_mask);
    a.serviced_by = GpuAccess::Level::L2;
    s.kind = Step::Kind::Remote;
    return s;
  }
  L1Outcome out;
  if (a.kind == AccessKind::Load) {
    a.serviced_by = GpuAccess::Level::L1;
    out = core_.load(line, a.sector_mask, t.get_data_ptr(), replay);
    if (out.kind == L1Outcome::Kind::Miss && !core_.enabled()) {
      a.serviced_by = GpuAccess::Level::L2;
      s.kind = Step::Kind::Bypass; // no L1 for this kernel (carve-out left 0 ways)
      return s;
    }
  } else if (a.kind == AccessKind::Store) {
    out = core_.store(line, t.get_data_ptr(), t.get_byte_enable_ptr(), replay);
    if (out.sfifo_overflow) s.overflow.push_back(std::move(*out.sfifo_overflow));
    if (rsp_ && out.kind == L1Outcome::Kind::Hit) srsp_release(a, line, s); // sRSP marker
  } else if (a.is_rmw() && hlrc_) {
    if (core_.local_atomic(a, line)) { // hLRC: owned here, performed here
      a.serviced_by = GpuAccess::Level::L1;
      return s;
    }
    // Ask the line's home for its ownership. Our copy is dropped first; its
    // dirty bytes (write_back only) reach L2 before the request.
    s.writeback = core_.atomic(line, core_.array().all_sectors());
    s.kind = Step::Kind::Own;
    return s;
  } else if (a.is_rmw()) {
    // Performed at L2: dirty bytes of the dropped sectors must get there
    // first (write-back L1 only). sRSP: a cta-scope release's marker first.
    if (rsp_) srsp_release(a, line, s);
    out.writeback = core_.atomic(line, a.sector_mask);
    out.kind = L1Outcome::Kind::Forward;
  } else {
    throw SimError("L1 " + std::string(name()) + ": unsupported access kind " +
                   std::string(to_string(a.kind)));
  }
  s.writeback = std::move(out.writeback);
  s.fetch_sectors = out.fetch_sectors;
  switch (out.kind) {
  case L1Outcome::Kind::Hit:
    s.kind = Step::Kind::Done;
    break;
  case L1Outcome::Kind::Miss:
    s.kind = Step::Kind::Fetch;
    break;
  case L1Outcome::Kind::Forward:
    // A remote atomic with l1.rsp: the policy's, around the forward.
    s.kind = a.remote && a.is_rmw() && rsp_ ? Step::Kind::Remote : Step::Kind::Forward;
    break;
  }
  return s;
}

} // namespace tlmgpu
