// Non-determinism injection (docs/timing.md, "Non-determinism injection";
// seed-001 §6.3 and §10.5): the run-to-run variation a real GPU has and a
// simulator, deterministic by construction, lacks: DRAM latency, interconnect
// latency, arbitration ties and dynamic CTA placement. Off by default; a run
// with it off draws nothing and is bit-identical to one without this header.
//
// Each source of a block draws from its own stream, seeded from the run's
// --seed and the source's identity (device, block name, source name), so a
// source added or removed elsewhere never shifts another's numbers, and a
// block's numbers do not depend on how many draws other blocks made.
#pragma once

#include "tlmgpu/hash.hpp"
#include "tlmgpu/params.hpp"

#include <cstdint>
#include <string_view>

namespace tlmgpu {

struct JitterSpec {
  bool enable = false, ties = false, cta_order = false;
  uint32_t dram_cycles = 0, xbar_cycles = 0;

  template <class V>
  void visit(V& v) {
    v.param(enable, "enable", false, Range{}, "",
            "inject seeded non-determinism (--seed picks the streams); off: nothing is drawn "
            "and results are those of a run without injection, bit for bit");
    v.param(dram_cycles, "dram_cycles", 16, Range{0, 100000}, "dram cycles",
            "with enable: each DRAM access (lt, at) completes up to this many DRAM cycles later, "
            "uniform in [0, N] per access");
    v.param(xbar_cycles, "xbar_cycles", 8, Range{0, 100000}, "cycles",
            "with enable: each crossbar packet (lt, at) arrives up to this many interconnect "
            "cycles later, uniform in [0, N] per packet and network; in at, packets between one "
            "input and one output keep their order");
    v.param(ties, "ties", true, Range{}, "",
            "with enable: arbitration ties go to a seeded pick instead of a fixed order (at): "
            "the DRAM scheduler among equally old candidates and the port it admits from "
            "first, the crossbar's order of waking inputs blocked on a full output");
    v.param(cta_order, "cta_order", true, Range{}, "",
            "with enable: dynamic CTA placement (sm.cta_placement = round_robin) gives the next "
            "CTA to a seeded pick among the SMs with a free slot instead of the next one round "
            "robin (every mode); deterministic placement never draws");
  }
  void derive() {}

  // What each source does in this run: nothing unless enabled.
  uint32_t dram() const { return enable ? dram_cycles : 0; }
  uint32_t xbar() const { return enable ? xbar_cycles : 0; }
  bool tie_breaks() const { return enable && ties; }
  bool cta_dispatch() const { return enable && cta_order; }
};

// One source's stream: splitmix64 (Steele et al., "Fast splittable
// pseudorandom number generators", 2014), started at a point derived from the
// seed and the identity. Streams are Weyl sequences at pseudo-random offsets
// of one 2^64 cycle, so two of them overlap only if a run draws a noticeable
// fraction of 2^64 numbers. Our own generator and bounding, not <random>'s
// distributions, so the numbers are the same with every standard library.
class JitterStream {
public:
  JitterStream() = default; // off: draws nothing
  JitterStream(uint64_t seed, std::string_view identity)
      : on_(true), state_(mix(seed ^ mix(fnv1a64(identity.data(), identity.size())))) {}

  bool on() const { return on_; }
  uint64_t next() {
    state_ += 0x9e3779b97f4a7c15ull;
    return mix(state_);
  }
  // Uniform in [0, n), n >= 1 (Lemire's multiply-shift; the bias, n / 2^64,
  // is far below anything a run can observe).
  uint64_t below(uint64_t n) { return uint64_t((unsigned __int128)next() * n >> 64); }
  // An extra latency in [0, max]: 0 without drawing when off or max is 0, so
  // a source switched off leaves no trace.
  uint64_t delay(uint64_t max) { return on_ && max ? below(max + 1) : 0; }

private:
  static uint64_t mix(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  bool on_ = false;
  uint64_t state_ = 0;
};

} // namespace tlmgpu
