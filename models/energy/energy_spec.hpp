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
  }
  void derive() {}
};

} // namespace tlmgpu
