#include "models/mmio/mmio_regs_module.hpp"

#include "tlmgpu/sim/payload.hpp"

using namespace sc_core;

namespace tlmgpu {

MmioRegsModule::MmioRegsModule(sc_module_name n, SimContext& ctx, const MmioSpec& spec, Addr base,
                               uint32_t bytes, StatGroup& parent)
    : sc_module(n), up("up", 8,
                       TargetPort::Hooks{[this](Payload& t, sc_time& d) {
                                           serve(t);
                                           if (ctx_.timed()) d += clk_.cycles(spec_.latency);
                                         },
                                         [this](Payload& t) {
                                           core_.debug(t.get_address(), t.get_data_ptr(),
                                                       t.get_data_length(), t.is_write());
                                           return t.get_data_length();
                                         },
                                         [this] { serve_queued(); }}),
      ctx_(ctx), spec_(spec), clk_(spec.clock_mhz), core_(base, bytes), stats_(parent, basename()) {
  stats_.formula("reads", "requests", "loads served",
                 [this](StatView) { return double(core_.reads()); });
  stats_.formula("writes", "requests", "stores served",
                 [this](StatView) { return double(core_.writes()); });
  stats_.formula("atomics", "requests", "atomics and reds performed",
                 [this](StatView) { return double(core_.atomics()); });
  up.publish(stats_);
}

void MmioRegsModule::serve(Payload& t) {
  try {
    core_.serve(access_of(t), t.get_address(), t.get_data_ptr(), t.get_byte_enable_ptr(),
                t.get_data_length());
  } catch (const std::out_of_range& e) {
    throw SimError(std::string(name()) + ": " + e.what());
  }
  t.set_response_status(tlm::TLM_OK_RESPONSE);
}

// at: each request is performed on arrival, answered `latency` cycles later.
void MmioRegsModule::serve_queued() {
  while (up.has_request()) {
    Payload& t = up.front();
    up.pop();
    serve(t);
    up.respond(t, ctx_.timed() ? clk_.cycles(spec_.latency) : SC_ZERO_TIME);
  }
}

} // namespace tlmgpu
