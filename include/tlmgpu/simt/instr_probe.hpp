// A probe an SM carries (issue 12 item 6): it sees each warp instruction
// the SM issues and each global memory instruction its LD/ST unit accepts.
// Kernel-free, so kernel-free observers (the atomic profile) implement it;
// GpuModule attaches the atomic profile, the trace writer attaches its own.
#pragma once

#include "tlmgpu/simt/warp_instr.hpp"
#include "tlmgpu/types.hpp"

#include <string>

namespace tlmgpu {

class InstrProbe {
public:
  virtual ~InstrProbe() = default;
  // Issued by one of the SM's schedulers at SM cycle `now` (every kind).
  virtual void issued(uint16_t sm, const WarpInstr& in, Cycle now) {
    (void)sm, (void)in, (void)now;
  }
  // A global load, store, atomic or red taken by the LD/ST unit (coalesced next).
  virtual void memory(uint16_t sm, const WarpInstr& in) { (void)sm, (void)in; }
  // A kernel is launched (probes attached with GpuModule::attach_probe).
  virtual void kernel_begin(const std::string& name) { (void)name; }
};

} // namespace tlmgpu
