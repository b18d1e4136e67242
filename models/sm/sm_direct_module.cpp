// The functional floor (issue 13, sim.functional_memory): in functional mode
// no time passes and a plain memory path (crossbar, L2, DRAM, an L1 that
// atomics bypass) answers every access exactly as the device's memory image
// would, so the LD/ST unit may perform a warp's global access lane by lane
// on the image instead of coalescing it into line requests and walking the
// hierarchy. Same class as sm_module.cpp; split only to keep files small.
//
// Why the values are the same as the hierarchy's: the coalescer keeps lanes
// in ascending order (a store's highest lane wins a byte; lanes of an atomic
// that hit one word become successive requests in lane order, applied one
// after another at L2), and in functional mode every request of an
// instruction completes inside the issue, so instructions apply in issue
// order. Lane order on the image is that same order.
#include "models/sm/sm_module.hpp"
#include "tlmgpu/atomic_ops.hpp"

#include <bit>
#include <cstring>

using namespace sc_core;

namespace tlmgpu {

std::string SmModule::plain_path() const {
  if (!stages_.empty())
    return "the SM's memory path has stages (sm.stages or the topology's \"stages\")";
  if (ctx_.net.coherence != AtomicProtocol::Bypass)
    return "l1.atomic_mode keeps atomic data in the L1";
  return "";
}

void SmModule::use_direct_memory(BackingStore& memory) {
  direct_ = &memory;
  direct_instructions_ =
      &stats_.counter("direct_instructions", "instructions",
                      "functional: global instructions performed straight on the memory image "
                      "(sim.functional_memory); they send no line request");
}

// Performs `in` on the image and returns true, or returns false when an
// access must take the path (a lane in a device window: registers, not
// memory). Bounds and alignment were checked (check_bounds, check_lanes).
bool SmModule::issue_direct(uint32_t slot, const WarpInstr& in) {
  bool memory_only = true; // device windows lie below DeviceMemory::kBase
  in.mask.for_each(
      [&](unsigned l) { memory_only = memory_only && in.addr[l] >= DeviceMemory::kBase; });
  if (!memory_only) return false;
  ++*direct_instructions_;
  using K = WarpInstr::Kind;
  Lanes<uint64_t>& results = warps_[slot].warp->results();
  const uint32_t size = in.size;
  // Lane values are little-endian bit patterns, as in a payload's bytes.
  static_assert(std::endian::native == std::endian::little);
  switch (in.kind) {
  case K::Load:
    in.mask.for_each([&](unsigned l) {
      uint64_t v = 0;
      if (const uint8_t* p = direct_->readable(in.addr[l])) std::memcpy(&v, p, size);
      results[l] = v;
    });
    break;
  case K::Store:
    in.mask.for_each(
        [&](unsigned l) { std::memcpy(direct_->writable(in.addr[l]), &in.operand[l], size); });
    break;
  case K::Atomic:
  case K::Red: {
    const bool keep = in.kind == K::Atomic;
    in.mask.for_each([&](unsigned l) {
      uint64_t old = 0;
      try {
        old = apply_atomic(in.op, in.type, direct_->writable(in.addr[l]), in.operand[l],
                           in.compare[l]);
      } catch (const std::exception& e) {
        fail(slot, e.what());
      }
      if (keep) results[l] = old;
    });
    break;
  }
  default:
    return false;
  }
  return true;
}

} // namespace tlmgpu
