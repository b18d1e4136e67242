// The host CPU side: an SC_THREAD that runs the workload's host program
// (cudaMalloc / cudaMemcpy / kernel launch / synchronize, as C++ calls).
// Copies are functional (no transfer time is modelled yet) and go through the
// L2 slices, which hold the newest data.
#pragma once

#include "models/gpu/gpu_module.hpp"

#include <functional>
#include <vector>

namespace tlmgpu {

class HostModule : public sc_core::sc_module {
public:
  HostModule(sc_core::sc_module_name n, SimContext& ctx, GpuModule& gpu);

  std::function<void(HostModule&)> program; // set by the workload before sc_start
  bool finished() const { return finished_; }

  // Device memory
  Addr malloc(uint64_t bytes, const std::string& label = "");
  void free(Addr a) { gpu_.device_memory.release(a); }
  void copy_to_device(Addr dst, const void* src, size_t n);
  // Also adds the bytes to the device's output hash (SimContext::outputs).
  void copy_from_device(void* dst, Addr src, size_t n);
  void memset(Addr dst, uint8_t value, size_t n);
  template <class T>
  Addr upload(const std::vector<T>& v, const std::string& label = "") {
    Addr a = malloc(v.size() * sizeof(T), label);
    copy_to_device(a, v.data(), v.size() * sizeof(T));
    return a;
  }
  template <class T>
  std::vector<T> download(Addr a, size_t count) {
    std::vector<T> v(count);
    copy_from_device(v.data(), a, count * sizeof(T));
    return v;
  }

  // Kernels: launch is asynchronous (one stream), synchronize waits.
  void launch(KernelLaunch k) { gpu_.launch(std::move(k)); }
  void synchronize() { gpu_.synchronize(); }
  GpuModule& gpu() { return gpu_; }
  // The device this host program drives: for the units it programs beside
  // kernels (ScuModule::of, IruControl::of).
  SimContext& context() { return ctx_; }

private:
  void run();
  void check_range(Addr a, size_t n, const char* what) const;
  SimContext& ctx_;
  GpuModule& gpu_;
  bool finished_ = false;
};

} // namespace tlmgpu
