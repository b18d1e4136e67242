// A stage of an SM's memory path (architecture §6a): an sc_module with a
// target socket facing the LD/ST unit and an initiator socket towards the
// L1. It may absorb, merge, delay or forward requests, in every timing mode
// (b_transport for functional and lt, the 4-phase protocol for at).
//
//   SM LD/ST ──► stage_0.upstream ... stage_0.downstream ──► stage_1 ... ──► L1
//
// A platform lists its stages by type in `sm.stages` (comma-separated,
// first = nearest the LD/ST unit); the SM builds them from this registry
// and binds the chain. The SM knows only the registry, never a stage type.
// docs/writing-blocks.md says how to write one.
#pragma once

#include "tlmgpu/sim/context.hpp"

#include <systemc>
#include <tlm>

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace tlmgpu {

class PathStage : public sc_core::sc_module {
public:
  using sc_core::sc_module::sc_module;
  virtual tlm::tlm_target_socket<>& upstream() = 0;
  virtual tlm::tlm_initiator_socket<>& downstream() = 0;
};

// What a stage is built with: the run's context, its SM, and the SM's stats
// group (the stage declares its own group under it, named like the module).
struct StageContext {
  SimContext& ctx;
  uint16_t sm;
  StatGroup& sm_stats;
};

using StageFactory =
    std::function<std::unique_ptr<PathStage>(const char* name, const StageContext&)>;

struct StageType {
  std::string name, description;
  StageFactory make;
};

// Registers a stage type (built-in ones: register_builtin_stages; a test or
// an embedding program may add its own before the simulation elaborates).
// Re-registering a name replaces it.
void register_stage(StageType t);
const std::vector<StageType>& stage_types();
// The stage types of `list` ("a,b", spaces allowed; "" = none), checked:
// an unknown name is a ConfigError naming sm.stages and the closest type.
std::vector<const StageType*> parse_stages(const std::string& list);

} // namespace tlmgpu
