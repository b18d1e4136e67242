// Per-access energies (pJ) for the energy breakdown of LAB Fig. 7. Defaults
// are the LAB paper's Table II (Titan V, seed-000 §6.1); the units the paper
// leaves open are our assumptions (§6.1 "Units" and pitfall 12), stated in
// every description and in models/energy/README.md.
#pragma once

#include "tlmgpu/params.hpp"

#include <string>

namespace tlmgpu {

struct EnergySpec {
  double alu_op = 0, l1_read = 0, l1_write = 0, l1_reference_bytes = 0, smem_access = 0,
         l2_read = 0, l2_write = 0, noc_flit = 0, dram_access = 0, lab_inf_read = 0,
         lab_inf_write = 0;
  // The SCU, IRU and static power (seed-003 §5.3: the thesis gives no
  // absolute energy, so every value here is an assumption [A]; README.md).
  double scu_element_stage = 0, scu_coalescer_access = 0, scu_hash_access = 0, iru_element = 0,
         iru_hash_access = 0, iru_ring_hop = 0, gpu_static_w = 0, scu_static_w = 0,
         iru_static_w = 0;
  std::string lab_energy;

  template <class V>
  void visit(V& v) {
    v.param(alu_op, "alu_op", 3.7, Range{0, 1e9}, "pJ/warp instruction",
            "Table II 'non-memory operation', charged per executed warp instruction that is not "
            "a memory, barrier or fence instruction (assumption: per warp, not per thread)");
    v.param(l1_read, "l1_read", 1.4097, Range{0, 1e9}, "pJ/access",
            "Table II L1D (32 KB) read, per L1 request (hit or miss probe)");
    v.param(l1_write, "l1_write", 1.7044, Range{0, 1e9}, "pJ/access",
            "Table II L1D (32 KB) write, per fill and per store request");
    v.param(l1_reference_bytes, "l1_reference_bytes", 32768, Range{1, 1e12}, "bytes",
            "array size the l1_read/l1_write energies refer to (scales the LAB formula)");
    v.param(smem_access, "smem_access", 1.4097, Range{0, 1e9}, "pJ/access",
            "shared memory, per warp shared-memory instruction (Table II has no row: the L1D "
            "read energy of the same unified SRAM is our assumption)");
    v.param(l2_read, "l2_read", 193.59, Range{0, 1e9}, "pJ/access",
            "Table II L2 read, per L2 load and atomic request");
    v.param(l2_write, "l2_write", 234.0675, Range{0, 1e9}, "pJ/access",
            "Table II L2 write, per L2 store request, fill and atomic request (an RMW writes)");
    v.param(noc_flit, "noc_flit", 254, Range{0, 1e9}, "pJ/flit",
            "Table II NOC, per 40 B flit per traversal (assumption, seed-000 pitfall 12)");
    v.param(dram_access, "dram_access", 501, Range{0, 1e9}, "pJ/32 B",
            "Table II main memory, per 32 B transferred (assumption, seed-000 pitfall 12)");
    v.choice(lab_energy, "lab_energy", "formula", {"formula", "printed_rows"},
             "finite LAB energy: formula = L1 energy x LAB bytes / l1_reference_bytes; "
             "printed_rows = Table II's rows verbatim (LAB-8 and -16 are 2x the formula, "
             "seed-000 pitfall 11)");
    v.param(lab_inf_read, "lab_inf_read", 45.1097, Range{0, 1e9}, "pJ/access",
            "Table II LAB (Size Inf) read, per LAB access");
    v.param(lab_inf_write, "lab_inf_write", 54.5417, Range{0, 1e9}, "pJ/access",
            "Table II LAB (Size Inf) write, per LAB access (every access merges)");
    v.param(scu_element_stage, "scu_element_stage", 0.5, Range{0, 1e9}, "pJ/element-stage",
            "SCU pipeline, per element per stage: address generation (input elements), data "
            "fetch (generated elements), data store (elements written) [A: a 32-bit register "
            "and FIFO slot at 32 nm, 0.78 V; the thesis gives no number]");
    v.param(scu_coalescer_access, "scu_coalescer_access", 1.0, Range{0, 1e9}, "pJ/lookup",
            "SCU coalescing unit, per element group looked up (a line read issued or merged "
            "into one in flight) [A: a search of 32 line tags at 32 nm]");
    v.param(scu_hash_access, "scu_hash_access", 1.0, Range{0, 1e9}, "pJ/line",
            "SCU filtering/grouping unit, per hash set line it reads or writes (its request "
            "buffer and way compare; the line's L2 and NoC energy are charged there) [A: "
            "l1_read scaled to the 18 KB hash request buffer, rounded up]");
    v.param(iru_element, "iru_element", 0.5, Range{0, 1e9}, "pJ/element",
            "IRU partition, per element classified (prefetcher, classifier, pipeline) [A: as "
            "scu_element_stage]");
    v.param(iru_hash_access, "iru_hash_access", 3.89, Range{0, 1e9}, "pJ/access",
            "IRU reordering hash, per element inserted or merged (a read and a write of one "
            "bank) [A: (l1_read + l1_write) x 40 KB / 32 KB, a bank of the 80 KB slice, as the "
            "LAB formula scales Table II by capacity]");
    v.param(iru_ring_hop, "iru_ring_hop", 63.5, Range{0, 1e9}, "pJ/element-hop",
            "IRU ring, per element or secondary word per hop [A: noc_flit's energy per byte "
            "(254 pJ / 40 B) x 10 B, the thesis' element size]");
    v.param(gpu_static_w, "gpu_static_w", 0, Range{0, 1e6}, "W",
            "GPU static (leakage) power, charged over the simulated time (0: the LAB paper's "
            "dynamic-only energy; gtx980/tx1 set it, models/energy/README.md) [A]");
    v.param(scu_static_w, "scu_static_w", 0, Range{0, 1e6}, "W",
            "SCU static power, over the simulated time when a platform places an SCU [A]");
    v.param(iru_static_w, "iru_static_w", 0, Range{0, 1e6}, "W",
            "static power of one IRU partition, over the simulated time, per partition "
            "placed [A]");
  }
  void derive() {}
};

} // namespace tlmgpu
