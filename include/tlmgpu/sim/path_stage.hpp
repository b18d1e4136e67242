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

#include "tlmgpu/issue_gate.hpp"
#include "tlmgpu/sim/context.hpp"
#include "tlmgpu/sram_claim.hpp"

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

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
  // Does this stage drain at CTA barriers? If any stage of the path does,
  // the SM sends each warp's barrier down the path as a Fence request
  // (FenceKind::Barrier, scope Cta) and the warp arrives at the answer.
  virtual bool orders_barriers() const { return false; }
  // SRAM this stage takes from the SM's L1 data cache (GpuModule re-splits
  // the unified SRAM per launch with it).
  virtual SramClaim sram_claim() const { return {}; }
  // A say over which warp instructions issue (issue_gate.hpp), or none. At
  // most one stage of a path may have one.
  virtual IssueGate* issue_gate() { return nullptr; }
};

// A stage that forwards every call unchanged (b_transport, the 4-phase
// protocol both ways, debug) and lets a subclass look at each new request:
// on_request() sees every b_transport and every BEGIN_REQ. The probe stage
// and tests' stages are this; a stage that holds or makes requests is not.
class PassThroughStage : public PathStage {
public:
  explicit PassThroughStage(sc_core::sc_module_name n);
  tlm::tlm_target_socket<>& upstream() override { return up_; }
  tlm::tlm_initiator_socket<>& downstream() override { return down_; }

protected:
  virtual void on_request(tlm::tlm_generic_payload& t) = 0;

private:
  void b_transport(tlm::tlm_generic_payload& t, sc_core::sc_time& d);
  tlm::tlm_sync_enum fw(tlm::tlm_generic_payload& t, tlm::tlm_phase& ph, sc_core::sc_time& d);
  tlm::tlm_sync_enum bw(tlm::tlm_generic_payload& t, tlm::tlm_phase& ph, sc_core::sc_time& d);
  unsigned dbg(tlm::tlm_generic_payload& t);

  tlm_utils::simple_target_socket<PassThroughStage> up_;
  tlm_utils::simple_initiator_socket<PassThroughStage> down_;
};

// What a stage is built with: the run's context, its SM, and the SM's stats
// group (the stage declares its own group under it, named like the module).
struct StageContext {
  SimContext& ctx;
  uint16_t sm;
  StatGroup& sm_stats;
  double sm_clock_mhz; // the clock of the SM whose path the stage is on
};

using StageFactory =
    std::function<std::unique_ptr<PathStage>(const char* name, const StageContext&)>;

struct StageType {
  std::string name, description;
  StageFactory make;
  // Built into every SM whose platform it returns true for, nearest the L1,
  // unless sm.stages lists it (then it sits where listed). The LAB: lab.entries > 0.
  std::function<bool(const PlatformSpec&)> implied = {};
  // Throws ConfigError if a platform cannot have this stage (the LAB
  // without lab.entries), before anything elaborates.
  std::function<void(const PlatformSpec&)> check = {};
  // May also sit on any link of the topology (a block type with ports `up`
  // and `down`, include/tlmgpu/sim/builder.hpp): a stage that needs no SM.
  bool any_link = false;
};

// Registers a stage type (built-in ones: register_builtin_stages; a test or
// an embedding program may add its own before the simulation elaborates).
// Re-registering a name replaces it.
void register_stage(StageType t);
const std::vector<StageType>& stage_types();
// The stage types of `list` ("a,b", spaces allowed; "" = none), checked:
// an unknown name is a ConfigError naming sm.stages and the closest type.
std::vector<const StageType*> parse_stages(const std::string& list,
                                           const std::string& key = "sm.stages");
// The stages an SM of platform `p` builds: sm.stages, then the implied types
// it does not list; each checked against `p` (StageType::check).
std::vector<const StageType*> path_stages(const PlatformSpec& p);
// The same for a path given as `list` (a topology block's "stages"); `key`
// names it in errors.
std::vector<const StageType*> path_stages(const PlatformSpec& p, const std::string& list,
                                          const std::string& key);

} // namespace tlmgpu
