// The node fabric as a SystemC block (README.md): one target socket that the
// GPUs' stream engines bind to; a copy arrives as a blocking transport with
// a FabricTransfer extension and returns when its last chunk has arrived.
// The links are this module's children, each with its statistics per
// direction; the router queues a chunk on every hop of its path at once
// (cut-through), which hop-by-hop sockets could not express without turning
// the model into store-and-forward.
#pragma once

#include "models/fabric/fabric_core.hpp"
#include "tlmgpu/stats.hpp"

#include <systemc>
#include <tlm>
#include <tlm_utils/multi_passthrough_target_socket.h>

#include <memory>
#include <vector>

namespace tlmgpu {

// What a copy is: host memory -> GPU, GPU -> host memory, or GPU -> GPU.
struct FabricTransfer : tlm::tlm_extension<FabricTransfer> {
  enum class Route { HostToGpu, GpuToHost, Peer };
  Route route = Route::HostToGpu;
  uint32_t gpu = 0;    // the GPU end (Peer: the destination)
  uint32_t peer = 0;   // Peer: the source GPU
  uint32_t memory = 0; // host memory index (fabric.host_memory)
  uint64_t bytes = 0;
  bool staged = false; // set by the fabric: a peer copy without NVLink went through the host
  tlm::tlm_extension_base* clone() const override { return new FabricTransfer(*this); }
  void copy_from(const tlm::tlm_extension_base& o) override {
    *this = static_cast<const FabricTransfer&>(o);
  }
};

// Copies that move at the same time, each on its own path, in one
// transport (the remote accesses of a managed-memory wave, one copy per GPU
// or host memory holding pages the wave maps remotely): it returns when the
// last has arrived; their chunks interleave as separate copies' do. A peer
// copy between GPUs without NVLink crosses the host cut-through here (a
// remote access is not staged in host memory).
struct FabricBundle : tlm::tlm_extension<FabricBundle> {
  std::vector<FabricTransfer> copies;
  tlm::tlm_extension_base* clone() const override { return new FabricBundle(*this); }
  void copy_from(const tlm::tlm_extension_base& o) override {
    *this = static_cast<const FabricBundle&>(o);
  }
};

class LinkModule : public sc_core::sc_module {
public:
  LinkModule(sc_core::sc_module_name n, const FabricCore& core, uint32_t link, StatGroup& parent);

private:
  StatGroup stats_;
};

class FabricModule : public sc_core::sc_module {
public:
  // `whole_transfers`: one reservation per copy instead of per chunk (the
  // loosely-timed mode: no interleaving of concurrent copies).
  FabricModule(sc_core::sc_module_name n, const FabricSpec& spec, uint32_t gpus,
               bool whole_transfers, StatGroup& parent);
  tlm_utils::multi_passthrough_target_socket<FabricModule> in;
  const FabricCore& core() const { return core_; }

private:
  void b_transport(int id, tlm::tlm_generic_payload& t, sc_core::sc_time& delay);
  // Moves `bytes` over `path` chunk by chunk from now; returns when done.
  void move(const FabricCore::Path& path, uint64_t bytes);
  // Moves bytes[i] over paths[i] for every i at once; returns when all are done.
  void move_all(const std::vector<FabricCore::Path>& paths, const std::vector<uint64_t>& bytes);
  FabricCore::Path path_of(const FabricTransfer& x) const; // one leg, cut-through
  void bundle(FabricBundle& b);
  FabricCore core_;
  bool whole_;
  StatGroup stats_;
  std::vector<std::unique_ptr<LinkModule>> links_;
  Counter &copies_, &staged_;
};

} // namespace tlmgpu
