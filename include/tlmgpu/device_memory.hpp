// Device allocations made by the host program (cudaMalloc-like). The SM
// checks every lane's address against them, so an out-of-bounds access is
// reported with its warp, lane and address instead of silently corrupting
// another buffer.
#pragma once

#include "tlmgpu/memory_budget.hpp"
#include "tlmgpu/types.hpp"

#include <map>
#include <optional>
#include <stdexcept>
#include <string>

namespace tlmgpu {

class DeviceMemory {
public:
  static constexpr Addr kBase = 0x10000000; // keeps address 0 (a null pointer) invalid
  static constexpr Addr kAlign = 256;

  // A fixed range that is not memory (a device window: a unit's registers,
  // below kBase), so kernels may address it.
  void map(Addr base, uint64_t bytes, const std::string& label) {
    allocs_[base] = {bytes, label, true};
  }
  // Every allocation of every workload passes here, so this is where the
  // memory budget catches what a workload did not estimate up front: the
  // backing store holds (at least) every byte the host uploads.
  Addr allocate(uint64_t bytes, const std::string& label = "") {
    if (bytes == 0) throw std::invalid_argument("device malloc of 0 bytes");
    check_memory(sat_add(live_bytes_, bytes),
                 "device memory with '" + label + "' (" + std::to_string(bytes) + " bytes)");
    live_bytes_ += bytes;
    Addr a = next_;
    next_ += (bytes + kAlign - 1) / kAlign * kAlign + kAlign; // a guard gap between buffers
    allocs_[a] = {bytes, label, false};
    return a;
  }
  void release(Addr a) {
    auto it = allocs_.find(a);
    if (it == allocs_.end())
      throw std::invalid_argument("device free of an address that is not an allocation");
    if (!it->second.window) live_bytes_ -= it->second.bytes;
    allocs_.erase(it);
  }
  // True when [a, a+n) lies inside one live allocation.
  bool contains(Addr a, uint64_t n) const {
    auto it = allocs_.upper_bound(a);
    if (it == allocs_.begin()) return false;
    --it;
    return a >= it->first && a + n <= it->first + it->second.bytes;
  }
  size_t live() const { return allocs_.size(); }

private:
  struct Alloc {
    uint64_t bytes;
    std::string label;
    bool window;
  };
  std::map<Addr, Alloc> allocs_;
  Addr next_ = kBase;
  uint64_t live_bytes_ = 0; // allocated, not mapped windows
};

} // namespace tlmgpu
