#include "models/host/host_module.hpp"

#include <sstream>

namespace tlmgpu {

HostModule::HostModule(sc_core::sc_module_name n, SimContext& ctx, GpuModule& gpu)
    : sc_module(n), ctx_(ctx), gpu_(gpu) {
  SC_HAS_PROCESS(HostModule);
  SC_THREAD(run);
}

void HostModule::run() {
  if (program) program(*this);
  gpu_.synchronize(); // the program's last kernel counts even without an explicit sync
  finished_ = true;
}

Addr HostModule::malloc(uint64_t bytes, const std::string& label) {
  try {
    return gpu_.device_memory.allocate(bytes, label);
  } catch (const std::exception& e) {
    throw SimError(std::string("host: ") + e.what());
  }
}

void HostModule::check_range(Addr a, size_t n, const char* what) const {
  if (n == 0 || gpu_.device_memory.contains(a, n)) return;
  std::ostringstream os;
  os << "host: " << what << " of " << n << " bytes at 0x" << std::hex << a
     << " is outside every device allocation";
  throw SimError(os.str());
}

void HostModule::copy_to_device(Addr dst, const void* src, size_t n) {
  check_range(dst, n, "copy to device");
  gpu_.debug_write(dst, static_cast<const uint8_t*>(src), n);
}

void HostModule::copy_from_device(void* dst, Addr src, size_t n) {
  check_range(src, n, "copy from device");
  gpu_.debug_read(src, static_cast<uint8_t*>(dst), n);
  ctx_.outputs.add(dst, n); // whatever the program reads back is its output
}

void HostModule::memset(Addr dst, uint8_t value, size_t n) {
  check_range(dst, n, "memset");
  std::vector<uint8_t> buf(n, value);
  gpu_.debug_write(dst, buf.data(), n);
}

} // namespace tlmgpu
