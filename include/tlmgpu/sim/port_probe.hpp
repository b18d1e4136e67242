// A probe any TargetPort can carry (issue 12 item 6): it sees every request
// that arrives (b_transport, or BEGIN_REQ accepted) and every response that
// leaves (b_transport returning, or BEGIN_RESP sent), with the kernel's time.
// Observers (the trace writer, a user's monitor) attach after elaboration by
// walking the module tree (attach_port_probes), so no block knows them; a
// port without probes pays one empty-vector test per transaction.
#pragma once

#include <systemc>
#include <tlm>

#include <functional>

namespace tlmgpu {

class TargetPort;

class PortProbe {
public:
  virtual ~PortProbe() = default;
  virtual void request(const TargetPort& port, const tlm::tlm_generic_payload& t) = 0;
  virtual void response(const TargetPort& port, const tlm::tlm_generic_payload& t) = 0;
};

// Calls `pick` for every TargetPort below `root` (every top-level object when
// null); attaches the probe it returns (nullptr: none).
void attach_port_probes(const std::function<PortProbe*(TargetPort&)>& pick,
                        sc_core::sc_object* root = nullptr);

} // namespace tlmgpu
