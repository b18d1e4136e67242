#include "models/join/join_module.hpp"

#include "tlmgpu/invariant.hpp"
#include "tlmgpu/sim/payload.hpp"

using namespace sc_core;

namespace tlmgpu {

JoinModule::JoinModule(sc_module_name n, StatGroup& parent, unsigned inputs)
    : sc_module(n), out(
                        "out", 1, [this](Payload& t) { on_response(t); }, [this] { serve(); }),
      stats_(parent, basename()) {
  for (unsigned i = 0; i < inputs; ++i) {
    TargetPort::Hooks h;
    h.b_transport = [this](Payload& t, sc_time& d) { out.b_transport(t, d); };
    h.debug = [this](Payload& t) { return out.debug(t); };
    h.on_request = [this] { serve(); };
    in.push_back(std::make_unique<TargetPort>(("in_" + std::to_string(i)).c_str(), 1, h));
    in.back()->publish(stats_);
  }
}

void JoinModule::serve() {
  for (bool moved = true; moved;) {
    moved = false;
    for (unsigned k = 0; k < in.size() && out.can_send(); ++k) {
      const unsigned i = (next_ + k) % in.size();
      if (!in[i]->has_request()) continue;
      auto& t = static_cast<GpuPayload&>(in[i]->front());
      in[i]->pop();
      t.push_route(uint16_t(i)); // the answer goes back by this input
      out.send(t);
      next_ = (i + 1) % in.size(), moved = true;
      break;
    }
  }
}

void JoinModule::on_response(Payload& t) {
  const uint16_t i = static_cast<GpuPayload&>(t).pop_route();
  TLMGPU_CHECK(i < in.size());
  in[i]->respond(t, SC_ZERO_TIME);
}

} // namespace tlmgpu
