// GPUDet's sequencer stage (gpudet_sequencer_module.hpp).
#include "models/gpudet/gpudet_sequencer_module.hpp"

#include "models/gpudet/gpudet_control_module.hpp"

#include <algorithm>
#include <sstream>

using namespace sc_core;

namespace tlmgpu {

GpuDetSequencerModule::GpuDetSequencerModule(sc_module_name n, const StageContext& c,
                                             const GpuDetSpec& spec)
    : PathStage(n), ctx_(c.ctx), spec_(spec), slice_(c.sm), stats_(c.sm_stats, basename()),
      core_(spec.inject_fault == "sequencer_arrival"),
      up_("up", 1u << 20,
          TargetPort::Hooks{[this](Payload& t, sc_time& d) { b_transport(t, d); },
                            [this](Payload& t) { return down_.debug(t); }, [this] { at_take(); }}),
      down_("down", 1u << 20, [this](Payload& t) { at_response(t); }),
      serial_(stats_.counter("serial_requests", "requests",
                             "numbered serial-mode atomics passed on to the slice")),
      parked_(stats_.counter("parked_requests", "requests",
                             "serial-mode atomics that arrived before their turn and waited")),
      waiting_(stats_.histogram("waiting_at_arrival", "requests",
                                "serial-mode atomics waiting in the unit when one arrived", 16,
                                16)) {
  // On a platform without GPUDet the unit passes everything and needs no controller.
  if (spec.enable) GpuDetControl::of(c, spec).attach(this, slice_);
}

// Only GPUDet's numbered serial atomics (gpudet_module.cpp tags them).
bool GpuDetSequencerModule::numbered(Payload& t) const {
  const GpuAccess& a = access_of(t);
  return spec_.enable && a.order_tag != 0 && a.is_rmw();
}

// A numbered request of another slice: the topology bound the units wrong.
void GpuDetSequencerModule::check_slice(Payload& t) const {
  const uint32_t s = ctx_.address_map.slice_of(t.get_address());
  if (s != slice_)
    throw SimError(std::string(name()) + " is instance " + std::to_string(slice_) +
                   " but got a request for L2 slice " + std::to_string(s) +
                   ": bind gpudet_sequencer[i] in front of l2[i]");
}

void GpuDetSequencerModule::b_transport(Payload& t, sc_time& d) {
  if (!numbered(t)) return down_.b_transport(t, d);
  check_slice(t);
  // The callers above took sc_time_stamp() as their base before calling;
  // d stays relative to it even if this thread waits for its turn.
  const sc_time base = sc_time_stamp(), arrival = base + d;
  waiting_.sample(core_.waiting());
  if (core_.arrive(access_of(t).order_tag, &t)) ++parked_;
  while (!core_.ready() || core_.front() != &t)
    wait(turn_); // an earlier number is still on its way
  core_.release();
  ++serial_;
  // Not before the request ahead of it: that one reached the slice first.
  const sc_time leave =
      ctx_.timed() ? std::max({arrival, last_left_, sc_time_stamp()}) : sc_time_stamp();
  last_left_ = leave;
  turn_.notify(SC_ZERO_TIME);
  sc_time rest = leave - sc_time_stamp();
  down_.b_transport(t, rest);
  d = sc_time_stamp() + rest - base;
}

void GpuDetSequencerModule::at_take() {
  while (up_.has_request()) {
    Payload& t = up_.front();
    up_.pop();
    if (!numbered(t)) {
      down_.send(t);
      continue;
    }
    check_slice(t);
    waiting_.sample(core_.waiting());
    if (core_.arrive(access_of(t).order_tag, &t)) ++parked_;
    at_release();
  }
}

void GpuDetSequencerModule::at_release() {
  while (core_.ready()) {
    ++serial_;
    down_.send(*core_.release());
  }
}

void GpuDetSequencerModule::at_response(Payload& t) {
  up_.respond(t, SC_ZERO_TIME);
}

std::string GpuDetSequencerModule::state() const {
  std::ostringstream os;
  os << name() << ": " << core_.waiting() << " serial requests parked, waiting for number "
     << core_.next();
  return os.str();
}

} // namespace tlmgpu
