// Per-SM L1 data cache parameters. Latencies are in SM clock cycles.
#pragma once

#include "tlmgpu/params.hpp"

#include <cstdint>
#include <string>

namespace tlmgpu {

// How the L1 treats atomics and what it buffers (l1.atomic_mode); read once
// at construction, so no block compares the strings per request.
// Scoped: the HRF-scoped L1 of seed-002 (write-combining, an sFIFO of dirty
// lines drained by device-scope releases, flash invalidation by acquires).
enum class AtomicProtocol : uint8_t { Bypass, Phi, Hlrc, Scoped };

struct L1Spec {
  uint32_t bytes = 0, ways = 0, line_bytes = 0, sector_bytes = 0, latency = 0, mshr_entries = 0,
           mshr_max_merge = 0, input_queue = 0;
  std::string write_policy, atomic_mode, carveout, write_allocate_fetch, inject_fault, rsp;
  int32_t carveout_adjust_bytes = 0;
  std::string pa_full;
  uint32_t size_factor = 1, sfifo_entries = 16, pa_entries = 16, predictor_entries = 32;
  bool write_allocate = false;

  template <class V>
  void visit(V& v) {
    v.param(bytes, "bytes", 32768, Range{0, 1 << 30}, "bytes",
            "data capacity with l1.carveout = fixed (0 disables the L1); with bytes/ways it also "
            "fixes the number of sets, which a carve-out keeps (it changes ways)");
    v.choice(carveout, "carveout", "fixed", {"fixed", "volta_adaptive"},
             "fixed: L1 = l1.bytes; volta_adaptive: L1 = sm.unified_sram_bytes - the smallest "
             "Volta shared-memory step holding the kernel's resident CTAs (per launch). A LAB "
             "takes its lines from this L1 either way");
    v.param(size_factor, "size_factor", 1, Range{1, 16}, "",
            "multiplies the carved-out L1 (the LAB paper's Cache*2 baseline = 2)");
    v.param(carveout_adjust_bytes, "carveout_adjust_bytes", 0, Range{-(1 << 30), 1 << 30}, "bytes",
            "added to the carved-out L1 (Cache-8KB = -8192, Cache+8KB = 8192)");
    v.param(ways, "ways", 64, Range{1, 1024}, "", "associativity");
    v.param(line_bytes, "line_bytes", 128, Range{32, 256}, "bytes", "line size (power of two)");
    v.param(sector_bytes, "sector_bytes", 32, Range{4, 256}, "bytes",
            "sector size (power of two, divides the line)");
    v.param(latency, "latency", 28, Range{0, 100000}, "cycles",
            "hit latency; also added to every miss");
    v.param(mshr_entries, "mshr_entries", 256, Range{1, 65536}, "entries",
            "outstanding line misses");
    v.param(mshr_max_merge, "mshr_max_merge", 8, Range{1, 1024}, "requests",
            "requests merged into one MSHR entry");
    v.param(input_queue, "input_queue", 16, Range{1, 65536}, "requests",
            "request queue from the LD/ST unit (AT backpressure)");
    v.choice(write_policy, "write_policy", "write_through", {"write_through", "write_back"},
             "global stores: write-through (NVIDIA) or write-back");
    v.param(write_allocate, "write_allocate", false, Range{}, "",
            "allocate a line on a store miss; NVIDIA L1 does not. atomic_mode = phi implies "
            "true");
    v.choice(write_allocate_fetch, "write_allocate_fetch", "on_write", {"on_write", "lazy_on_read"},
             "write-allocate store miss: on_write fetches the missing sectors it writes partly "
             "before writing (GPGPU-Sim F); lazy_on_read writes at once, keeps per-byte valid "
             "bits and fetches a sector only when a load needs bytes it lacks (GPGPU-Sim L)");
    v.choice(atomic_mode, "atomic_mode", "bypass", {"bypass", "phi", "hlrc", "scoped"},
             "L1 protocol policy: bypass (atomics performed at L2, NVIDIA), phi (commutative "
             "reds buffered as update-only L1 lines, seed-000 PHI), hlrc (line ownership, "
             "atomics performed in the owner's L1, seed-000 hLRC) or scoped (HRF-scoped L1 of "
             "seed-002: write-combining, dirty lines in an sFIFO drained by device/system "
             "releases, flash invalidation by device/system acquires; implies write_back, "
             "write_allocate and lazy_on_read)");
    v.param(sfifo_entries, "sfifo_entries", 16, Range{1, 4096}, "lines",
            "atomic_mode = scoped: dirty lines the sFIFO tracks; dirtying one more writes the "
            "oldest back to L2 (seed-002 Table 1: 16)");
    v.choice(rsp, "rsp", "none", {"none", "brsp", "srsp", "srsp_opt"},
             "atomic_mode = scoped: remote scope promotion (seed-002 §1.7, §2). none: a remote "
             "atomic (rem_acq/rem_rel/rem_ar) is a plain device-scope one (the negative "
             "control); brsp: it also flushes every other L1's sFIFO before it (acquire) and "
             "invalidates every other L1 after it, holding every L1 (seed-002 §1.7); srsp: "
             "cta-scope releases leave an LR-TBL marker, a remote acquire flushes only the "
             "L1s holding a marker for its line, up to the marker, and a remote release puts "
             "the line in every other L1's PA-TBL, whose next cta-scope acquire of it is "
             "performed at L2 and invalidates that L1 (seed-002 §2); srsp_opt: srsp with the "
             "same-CU shortcut (a remote operation whose line this L1's LR-TBL marks runs as "
             "the cta-scope one) and the owner predictor (a SelFlush goes to the L1 that last "
             "acked one for its line, then to the rest if it misfired; seed-002 §2.6)");
    v.param(
        pa_entries, "pa_entries", 16, Range{1, 4096}, "lines",
        "l1.rsp = srsp, srsp_opt: PA-TBL entries (lines whose next cta-scope acquire is promoted; "
        "seed-002 §2.1 recommends 16)");
    v.param(predictor_entries, "predictor_entries", 32, Range{1, 4096}, "lines",
            "l1.rsp = srsp_opt: owner predictor entries per L1, replaced least recently used "
            "and cleared at kernel boundaries (seed-002 §2.6 recommends 16-64)");
    v.choice(pa_full, "pa_full", "eager", {"eager", "lazy"},
             "l1.rsp = srsp, srsp_opt: a remote release that finds the PA-TBL full; eager: that L1 "
             "flash-invalidates at once (bRSP's action) and empties the table; lazy: every "
             "cta-scope acquire of that L1 is promoted until its next invalidation "
             "(seed-002 §2.4)");
    v.choice(inject_fault, "inject_fault", "none",
             {"none", "skip_release_drain", "skip_acquire_invalidate", "skip_remote_flush",
              "skip_remote_invalidate", "skip_lr_marker", "skip_pa_insert", "blind_shortcut"},
             "atomic_mode = scoped, for the tests that must catch it: a device/system release "
             "leaves the sFIFO undrained, an acquire leaves the L1's copies valid, a remote "
             "acquire does not flush the other L1s, or a remote release does not invalidate "
             "them (l1.rsp = brsp or srsp); srsp: a cta-scope release pushes no LR-TBL "
             "marker, or a remote release inserts nothing in the PA-TBLs; srsp_opt: the same-CU "
             "shortcut is taken without an LR-TBL hit (every remote access runs at cta scope)");
  }

  uint32_t sets = 0, sectors_per_line = 0;
  void derive();
  AtomicProtocol protocol() const {
    return atomic_mode == "phi"      ? AtomicProtocol::Phi
           : atomic_mode == "hlrc"   ? AtomicProtocol::Hlrc
           : atomic_mode == "scoped" ? AtomicProtocol::Scoped
                                     : AtomicProtocol::Bypass;
  }
  // Does the protocol keep state in the L1 (so it needs l1 ways > 0)?
  bool protocol_needs_l1() const { return protocol() != AtomicProtocol::Bypass; }
  // sRSP's LR-TBL and PA-TBL (l1.rsp = srsp or srsp_opt).
  bool selective_rsp() const { return rsp == "srsp" || rsp == "srsp_opt"; }
};

} // namespace tlmgpu
