// A window of registers with real bytes: loads read them, stores write the
// enabled bytes, atomics and reds perform their lanes on them (the same
// operations as the L2's atomic unit, include/tlmgpu/atomic_ops.hpp).
// Kernel-free; MmioRegsModule puts it behind a target port.
#pragma once

#include "tlmgpu/atomic_ops.hpp"
#include "tlmgpu/types.hpp"

#include <cstring>
#include <stdexcept>
#include <vector>

namespace tlmgpu {

class MmioRegsCore {
public:
  MmioRegsCore(Addr base, uint32_t bytes) : base_(base), regs_(bytes, 0) {}

  // One line-sized request at `line` (inside the window): `data` is the
  // payload's line buffer, `be` its byte enables (stores; null = all).
  void serve(GpuAccess& a, Addr line, uint8_t* data, const uint8_t* be, unsigned len) {
    uint8_t* r = at(line, len);
    switch (a.kind) {
    case AccessKind::Load:
      std::memcpy(data, r, len);
      ++reads_;
      break;
    case AccessKind::Store:
    case AccessKind::Eviction:
      for (unsigned i = 0; i < len; ++i)
        if (!be || be[i]) r[i] = data[i];
      ++writes_;
      break;
    case AccessKind::Atomic:
    case AccessKind::Red:
      for (LaneOp& op : a.lanes) {
        op.result = apply_atomic(a.op, a.type, r + op.offset, op.operand, op.compare);
      }
      ++atomics_;
      break;
    default: // fences and flushes have nothing to drain here
      break;
    }
  }
  // Host access (untimed): `n` bytes at `a`.
  void debug(Addr a, uint8_t* p, unsigned n, bool write) {
    uint8_t* r = at(a, n);
    write ? std::memcpy(r, p, n) : std::memcpy(p, r, n);
  }
  uint64_t reads() const { return reads_; }
  uint64_t writes() const { return writes_; }
  uint64_t atomics() const { return atomics_; }

private:
  uint8_t* at(Addr a, unsigned n) {
    if (a < base_ || a + n > base_ + regs_.size())
      throw std::out_of_range("access outside the register window");
    return regs_.data() + (a - base_);
  }
  Addr base_;
  std::vector<uint8_t> regs_;
  uint64_t reads_ = 0, writes_ = 0, atomics_ = 0;
};

} // namespace tlmgpu
