// A platform: every block's spec, read from one JSON file (plus "extends"
// parents and --set overrides) by config.hpp, validated once.
#pragma once

#include "tlmgpu/address_map.hpp"
#include "tlmgpu/jitter.hpp"
#include "tlmgpu/params.hpp"
#include "tlmgpu/topology.hpp"

#include "models/atomic_buffer/atomic_buffer_spec.hpp"
#include "models/dram/dram_spec.hpp"
#include "models/energy/area_spec.hpp"
#include "models/energy/energy_spec.hpp"
#include "models/gpudet/gpudet_spec.hpp"
#include "models/iru/iru_spec.hpp"
#include "models/l1/l1_spec.hpp"
#include "models/l2/l2_spec.hpp"
#include "models/lab/lab_spec.hpp"
#include "models/mmio/mmio_spec.hpp"
#include "models/scu/scu_spec.hpp"
#include "models/shared_mem/shared_mem_spec.hpp"
#include "models/sm/sm_spec.hpp"
#include "models/xbar/xbar_spec.hpp"

#include <string>

namespace tlmgpu {

// Simulation-kernel knobs that belong to the platform (not to one block).
struct SimSpec {
  uint32_t quantum_cycles = 0;
  uint32_t watchdog_cycles = 0;
  uint32_t lt_busy_quantum = 0;
  uint32_t lt_busy_requests = 0;
  bool atomic_profile = false;
  std::string functional_memory;
  template <class V>
  void visit(V& v) {
    // 300, not 1000: within a quantum the SM that runs first books contended
    // resources for its whole quantum before the others (docs/timing.md,
    // "The quantum"); 300 keeps that unfairness below the LAB matrix's
    // error budget for 0-4 % more CPU.
    v.param(quantum_cycles, "quantum_cycles", 300, Range{1, 1e9}, "cycles",
            "LT temporal-decoupling quantum, in core cycles");
    // Without it an SM that runs first in a quantum takes a saturated
    // resource for its whole quantum (docs/timing.md, "Contention syncs").
    v.param(lt_busy_quantum, "lt_busy_quantum", 50, Range{0, 1e9}, "cycles",
            "LT: an SM whose accesses of an issue cycle waited at a busy resource (a link, an "
            "L1/L2 pipeline or atomic unit, a DRAM bank or bus) syncs with the kernel once it "
            "is this many cycles ahead of it, not only at the end of its quantum: the SMs "
            "behind it then book that resource at their own times, so a saturated resource "
            "is shared by arrival time rather than by the order the SMs run in; 0 turns it "
            "off");
    // Cycles alone do not bound a burst: at a kernel's start every SM issues
    // its first loads at cycle 0, and the first SM to run booked ~50 of them
    // before any other SM booked one, an advantage the SMs kept to the end
    // (histogram-shared: SMs 64-79, which SystemC runs first, ended 14 %
    // earlier than SMs 0-15; docs/timing.md, "Contention syncs").
    v.param(lt_busy_requests, "lt_busy_requests", 2, Range{0, 1e9}, "requests",
            "LT: an SM whose accesses waited at a queue other SMs share (a crossbar output, an "
            "L2 slice, a DRAM channel) also syncs with the kernel once it sent this many line "
            "requests since its last sync (and is ahead of the kernel), so a burst issued within "
            "sim.lt_busy_quantum cycles is shared with the "
            "SMs behind it in turns of this many requests, as AT's crossbar takes turns; 0 "
            "turns it off");
    v.param(watchdog_cycles, "watchdog_cycles", 10000000, Range{0, 4e9}, "cycles",
            "deadlock watchdog: a kernel during which no SM issues an instruction and no "
            "port accepts or answers a request for this many core cycles ends the run with a "
            "report of what waits on what (warps, outstanding requests per port, queue "
            "occupancy) instead of running on forever; 0 turns it off");
    v.param(atomic_profile, "atomic_profile", false, Range{}, "",
            "keep the GPU-wide atomic profile (gpu.atomics: ops, unique words and lines, warp "
            "collisions, line reuse distance); it costs about 10 % of a run's time on "
            "atomic-heavy kernels, so it is off unless asked for");
    v.choice(functional_memory, "functional_memory", "auto", {"auto", "direct", "hierarchy"},
             "functional mode only: direct applies each global access of a warp straight to "
             "the device's memory image, lane by lane (no coalescer, caches, network or DRAM: "
             "request, cache, network, DRAM and energy stats stay 0); hierarchy sends it "
             "through the whole memory path as lt/at do; auto is direct when the device allows "
             "it (every block neutral in functional mode, no SM path stages, l1.atomic_mode "
             "none), else hierarchy. Device-window accesses always take the hierarchy");
  }
  void derive() {}
};

struct PlatformSpec {
  std::string name, description;
  SimSpec sim;
  SmSpec sm;
  L1Spec l1;
  LabSpec lab;
  AtomicBufferSpec dab; // deterministic atomic buffering (models/atomic_buffer)
  GpuDetSpec gpudet;    // the GPUDet baseline (models/gpudet)
  SharedMemSpec shared_mem;
  XbarSpec xbar;
  L2Spec l2;
  DramSpec dram;
  AddressMapSpec address_map;
  MmioSpec mmio;
  ScuSpec scu; // stream compaction unit, when the topology places one (models/scu)
  IruSpec iru; // irregular-access reorder unit partitions, when placed (models/iru)
  EnergySpec energy;
  AreaSpec area;     // die and unit areas, reported in the run metrics
  JitterSpec jitter; // non-determinism injection, off by default (jitter.hpp)
  // Which blocks exist and how they are bound: structure, not parameters, so
  // it is not visited; config.cpp reads it (merged onto default_topology()).
  TopologySpec topology;

  template <class V>
  void visit(V& v) {
    v.text(name, "name", "unnamed", "platform name");
    v.text(description, "description", "", "one line about the platform and its sources");
    v.group("sim", sim);
    v.group("sm", sm);
    v.group("l1", l1);
    v.group("lab", lab);
    v.group("dab", dab);
    v.group("gpudet", gpudet);
    v.group("shared_mem", shared_mem);
    v.group("xbar", xbar);
    v.group("l2", l2);
    v.group("dram", dram);
    v.group("address_map", address_map);
    v.group("mmio", mmio);
    v.group("scu", scu);
    v.group("iru", iru);
    v.group("energy", energy);
    v.group("area", area);
    v.group("jitter", jitter);
  }
  // Validates cross-block constraints and computes derived values of every block.
  void derive();

  uint32_t l2_slices() const { return dram.channels * l2.sub_partitions; }
  uint64_t l2_bytes() const { return uint64_t(l2_slices()) * l2.slice_bytes; }
};

// What every block on one GPU's memory network agrees on: the transaction
// format (line and sector size, which platform.cpp checks equal in L1 and L2)
// and the coherence protocol the L1s speak (memory-side blocks serve hLRC's
// ownership traffic only when it is on). Derived once per device and handed
// to each block through SimContext::net, so no block reads another's spec.
// It also says which lines share an L2 slice (every `slices`-th chunk of
// `interleave_bytes`, the address map's), which a slice needs to index its
// sets by the line's number inside the slice.
struct NetworkFormat {
  uint32_t line_bytes = 0, sector_bytes = 0;
  AtomicProtocol coherence = AtomicProtocol::Bypass;
  uint32_t interleave_bytes = 0, slices = 0;
};
inline NetworkFormat network_format(const PlatformSpec& p) {
  return {p.l2.line_bytes, p.l2.sector_bytes, p.l1.protocol(), p.address_map.interleave_bytes,
          p.l2_slices()};
}

// Names of the blocks `tlmgpu describe` knows, and their parameter rows.
std::vector<std::string> block_names();
std::vector<ParamRow> describe_block(const std::string& name); // throws ConfigError if unknown

} // namespace tlmgpu
