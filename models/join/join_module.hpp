// Several initiators onto one target (a memory partition's L2 slice shared by
// the crossbar and a unit beside it, models/iru): requests in round-robin
// order over the inputs, each answer back through the input its request
// came in by (the payload's route stack, as the crossbar does).
//
//   in[0] ──┐
//   in[1] ──┼──► out ──► target        (lt, functional: straight through;
//   ...   ──┘                           at: one request at a time, no latency)
//
// It adds no time and holds at most one request per input: back-pressure
// from the target reaches every input unchanged.
#pragma once

#include "tlmgpu/sim/builder.hpp"
#include "tlmgpu/sim/context.hpp"
#include "tlmgpu/sim/ports.hpp"

#include <memory>
#include <vector>

namespace tlmgpu {

class JoinModule : public sc_core::sc_module {
public:
  JoinModule(sc_core::sc_module_name n, StatGroup& parent, unsigned inputs);
  std::vector<std::unique_ptr<TargetPort>> in; // port `in[i]`
  InitiatorPort out;                           // port `out`

private:
  void serve(); // at: hand input heads on, round robin, while `out` has room
  void on_response(Payload& t);
  unsigned next_ = 0; // the input served first next time
  StatGroup stats_;
};

// The block type `join` (join_blocks.cpp).
BlockType join_block_type();

} // namespace tlmgpu
