// Parameters of the UVM-like managed memory of a runtime node (seed-004
// §7.2, the optional UVM row): pages of `page_bytes` migrate to the GPU that
// faults on them, faults are serviced in batches with a host latency, and
// the pages move over the fabric's path. Read from a node file's "uvm"
// section (include/tlmgpu/node.hpp); only the uvm versions of the programs
// use it.
#pragma once

#include "tlmgpu/params.hpp"

#include <cstdint>
#include <string>

namespace tlmgpu {

struct UvmSpec {
  uint64_t page_bytes = 0;
  uint32_t batch_pages = 0;
  double fault_us = 0;
  std::string service;
  uint32_t thrash_threshold = 0, thrash_pin_threshold = 0;
  double thrash_lapse_us = 0, thrash_nap_us = 0, thrash_pin_ms = 0;
  uint32_t remote_bytes = 0;
  std::string pin_at;

  template <class V>
  void visit(V& v) {
    v.param(page_bytes, "page_bytes", 4096, Range{512, 1 << 21}, "bytes",
            "[P] migration granularity (the paper: on-demand paging at 4 KB)");
    v.param(batch_pages, "batch_pages", 256, Range{1, 1 << 20}, "pages",
            "[E] faults the driver takes from a GPU's fault buffer and services together");
    v.param(fault_us, "fault_us", 30, Range{0, 1e6}, "us",
            "[R] host service latency of one fault batch, before its pages move (seed-004 "
            "§7.2: tens of us)");
    v.choice(service, "service", "per_gpu", {"per_gpu", "shared"},
             "[R] who services fault batches: each GPU's own handler (batches of different "
             "GPUs overlap) or one host handler for all GPUs (they queue)");
    // Thrashing mitigation (README.md, "Thrashing mitigation"): off by
    // default, so the notes' §7.2 model (every touch elsewhere migrates)
    // stays the baseline.
    v.param(thrash_threshold, "thrash_threshold", 0, Range{0, 255}, "events",
            "[R] thrashing mitigation: after this many thrash events (a migration within "
            "thrash_lapse_us of the page's previous one), a page's next fault pins it where it "
            "is (or in host memory) and the GPUs touching it map it remotely (0 = off; the "
            "driver: 3)");
    v.param(thrash_lapse_us, "thrash_lapse_us", 250, Range{0, 1e9}, "us",
            "[R] a migration at most this long after the page's previous one is a thrash event, "
            "and a pinning fault must come this soon after it (the driver: 250; 0 = however "
            "far apart)");
    v.param(thrash_pin_threshold, "thrash_pin_threshold", 0, Range{0, 255}, "periods",
            "[R] the driver's throttling phase: a thrashing page that cannot be pinned where it "
            "is (its users lack an NVLink to its GPU) is first fought over in throttling "
            "periods, the faulting GPUs but one napping, and pinned after this many naps (0 = "
            "pinned at once; the driver: 10)");
    v.param(thrash_nap_us, "thrash_nap_us", 500, Range{1, 250000}, "us",
            "[R] a throttling period: how long the throttled GPUs nap (the driver: 2 x the lapse)");
    v.param(thrash_pin_ms, "thrash_pin_ms", 0, Range{0, 1e9}, "ms",
            "[R] a pinned page is unpinned at its first touch this long after it was pinned, and "
            "migrates again (0 = pinned for the run, as the 250-us-lapse driver, whose epoch "
            "never unpins; later drivers: 300)");
    v.param(remote_bytes, "remote_bytes", 32, Range{1, 1 << 20}, "bytes",
            "[R] bytes one access to a page pinned elsewhere moves over the fabric (an atomic "
            "or a load of one 32 B sector; a kernel streaming a range moves the whole pages)");
    v.choice(pin_at, "pin_at", "driver", {"driver", "hub"},
             "[R] where a thrashing page is pinned: driver = where it is if every GPU touching "
             "it has an NVLink to that GPU, else host memory; hub = else first on another GPU "
             "that every one of them has an NVLink to, moved there (a what-if: the driver does "
             "not look for one)");
  }
  void derive() {}
};

} // namespace tlmgpu
