// Streaming-multiprocessor parameters: count and clock, the unified L1/shared
// SRAM, and the resources that bound occupancy and issue (Titan V values from
// the DAB paper's Table I and GPGPU-Sim's SM7_TITANV config, seed-001 5.1/5.2).
#pragma once

#include "tlmgpu/params.hpp"

#include <cstdint>
#include <string>

namespace tlmgpu {

struct SmSpec {
  uint32_t count = 0, warp_size = 0, unified_sram_bytes = 0;
  double clock_mhz = 0;
  uint32_t max_threads = 0, max_warps = 0, max_ctas = 0, registers = 0, schedulers = 0;
  uint32_t max_threads_per_block = 0, max_shared_per_block = 0;
  std::string scheduler, cta_placement, blocking_writes, inject_fault, stages;
  uint32_t alu_latency = 0, fence_latency = 0, write_slots = 0, cta_groups = 0, lsu_queue = 0;

  template <class V>
  void visit(V& v) {
    v.param(count, "count", 80, Range{1, 4096}, "", "streaming multiprocessors");
    v.param(clock_mhz, "clock_mhz", 1200.0, Range{1, 100000}, "MHz", "core clock");
    v.param(warp_size, "warp_size", 32, Range{32, 64}, "lanes",
            "threads per warp: 32 (NVIDIA warps) or 64 (AMD GCN wavefronts)");
    v.param(unified_sram_bytes, "unified_sram_bytes", 131072, Range{0, 1 << 30}, "bytes",
            "unified L1 + shared memory SRAM per SM; l1.bytes + shared_mem.bytes must fit");
    v.param(max_threads, "max_threads", 2048, Range{1, 1 << 20}, "threads",
            "resident threads per SM (occupancy limit)");
    v.param(max_warps, "max_warps", 64, Range{1, 1 << 15}, "warps",
            "resident warps per SM (warp slots)");
    v.param(max_ctas, "max_ctas", 32, Range{1, 1 << 15}, "CTAs", "resident CTAs per SM");
    v.param(registers, "registers", 65536, Range{1, 1 << 24}, "registers",
            "32-bit registers per SM (occupancy limit)");
    v.param(schedulers, "schedulers", 4, Range{1, 64}, "",
            "warp schedulers per SM, one issue each per cycle");
    v.choice(scheduler, "scheduler", "gto", {"gto", "lrr"},
             "warp scheduling policy: greedy-then-oldest or loose round robin");
    v.param(max_threads_per_block, "max_threads_per_block", 1024, Range{1, 1 << 20}, "threads",
            "largest block a kernel may launch with");
    v.param(max_shared_per_block, "max_shared_per_block", 98304, Range{0, 1 << 30}, "bytes",
            "largest shared memory (static + dynamic) one block may use");
    v.param(alu_latency, "alu_latency", 4, Range{1, 1000}, "cycles",
            "dependent-issue latency of an ALU instruction (DAB notes 5.2: int/fp add 4)");
    v.param(fence_latency, "fence_latency", 20, Range{0, 100000}, "cycles",
            "cost of a device/system-scope fence beyond draining the warp's memory operations");
    v.choice(cta_placement, "cta_placement", "round_robin", {"round_robin", "deterministic"},
             "CTA dispatch: next free SM round robin, or CTA i always on SM i % count (DAB)");
    v.param(cta_groups, "cta_groups", 0, Range{0, 1 << 20}, "groups",
            "deterministic placement: CTA i belongs to group i % cta_groups and runs on SM "
            "(i % cta_groups) % count, each SM taking its CTAs in ascending order; 0 = count "
            "(one group per SM). A count that does not depend on the GPU makes the groups the "
            "same on every SM count (DAB's dab.keying = group)");
    v.choice(blocking_writes, "blocking_writes", "none", {"none", "reds", "all"},
             "which writes a warp waits for: none (hardware: ST and RED retire once the LD/ST "
             "unit takes them), reds (a PTX simulator's atom with an unused destination, as the "
             "papers' GPGPU-Sim baselines), all (stores too: the model before issue 11)");
    v.param(write_slots, "write_slots", 256, Range{1, 1 << 16}, "requests",
            "non-blocking store/red line requests the LD/ST unit keeps in flight per SM; a "
            "global memory instruction waits while they are all taken");
    v.param(lsu_queue, "lsu_queue", 0, Range{0, 1 << 20}, "requests",
            "AT: line requests the LD/ST unit holds that the memory path has not taken yet; a "
            "global memory instruction issues only while fewer wait (its requests then all "
            "enter). 0: unbounded, the model before issue 13 item 4 (docs/timing.md)");
    v.text(stages, "stages", "",
           "memory-path stages between the LD/ST unit and the L1, comma-separated, nearest the "
           "LD/ST unit first (types: 'tlmgpu list'; e.g. \"probe\"). Stages the platform "
           "implies (lab, when lab.entries > 0) are added nearest the L1 unless listed");
    v.choice(inject_fault, "inject_fault", "none", {"none", "fence_skips_writes", "relaxed_orders"},
             "test hook: a fence that does not wait for the warp's posted stores and reds, or "
             "release/acquire accesses treated as relaxed (broken memory models the "
             "message-passing tests must catch)");
  }
  void derive() {
    // Lane masks are 64 bits and every mechanism is written for a whole warp
    // of 32 or a wavefront of 64; other widths have no hardware to match.
    if (warp_size != 32 && warp_size != 64)
      throw ConfigError("sm.warp_size (" + std::to_string(warp_size) +
                        ") must be 32 (warps) or 64 (wavefronts)");
    if (cta_groups != 0 && cta_placement != "deterministic")
      throw ConfigError("sm.cta_groups (" + std::to_string(cta_groups) +
                        ") needs sm.cta_placement = deterministic");
    if (max_threads_per_block > max_threads)
      throw ConfigError("sm.max_threads_per_block (" + std::to_string(max_threads_per_block) +
                        ") exceeds sm.max_threads (" + std::to_string(max_threads) + ")");
    if (schedulers > max_warps)
      throw ConfigError("sm.schedulers (" + std::to_string(schedulers) +
                        ") exceeds sm.max_warps (" + std::to_string(max_warps) +
                        "): a scheduler would own no warp slot");
  }
};

} // namespace tlmgpu
