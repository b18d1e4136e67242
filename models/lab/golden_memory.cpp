#include "models/lab/golden_memory.hpp"

#include "tlmgpu/atomic_ops.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace tlmgpu {

uint64_t GoldenMemory::apply(Addr addr, AtomicOp op, DataType t, uint64_t operand,
                             uint64_t compare) {
  const unsigned size = size_of(t);
  if (addr % size != 0) throw std::logic_error("GoldenMemory::apply: misaligned word");
  Block& b = blocks_[addr & ~Addr(kBlock - 1)];
  const unsigned off = unsigned(addr % kBlock);
  const uint8_t mask = uint8_t(((1u << size) - 1) << off);
  if ((b.valid & mask) != mask) {
    // First touch since the last clear: the coherent value. Bytes already
    // tracked (the other half of a block) keep their golden value.
    std::array<uint8_t, kBlock> fresh{};
    read_(addr, fresh.data(), size);
    ++reads_;
    for (unsigned i = 0; i < size; ++i)
      if (!(b.valid & (1u << (off + i)))) b.bytes[off + i] = fresh[i];
    b.valid |= mask;
  }
  return apply_atomic(op, t, &b.bytes[off], operand, compare);
}

void GoldenMemory::perform(GpuAccess& a, Addr line) {
  for (LaneOp& l : a.lanes) {
    l.result = apply(line + l.offset, a.op, a.type, l.operand, l.compare);
  }
}

void GoldenMemory::store(Addr addr, const uint8_t* src, size_t n) {
  while (n > 0) {
    const Addr base = addr & ~Addr(kBlock - 1);
    const unsigned off = unsigned(addr - base);
    const size_t chunk = std::min<size_t>(n, kBlock - off);
    if (auto it = blocks_.find(base); it != blocks_.end()) {
      Block& b = it->second;
      for (unsigned i = 0; i < chunk; ++i)
        if (b.valid & (1u << (off + i))) b.bytes[off + i] = src[i];
    }
    addr += chunk, src += chunk, n -= chunk;
  }
}

size_t GoldenMemory::tracked(Addr addr, size_t n, TrackedBytes& out) const {
  size_t blocks = 0;
  for (size_t done = 0; done < n;) {
    const Addr a = addr + done;
    const Addr base = a & ~Addr(kBlock - 1);
    const unsigned off = unsigned(a - base);
    const size_t chunk = std::min<size_t>(n - done, kBlock - off);
    if (auto it = blocks_.find(base); it != blocks_.end()) {
      bool any = false;
      for (unsigned i = 0; i < chunk; ++i)
        if (it->second.valid & (1u << (off + i))) {
          out.emplace_back(uint16_t(done + i), it->second.bytes[off + i]);
          any = true;
        }
      blocks += any;
    }
    done += chunk;
  }
  return blocks;
}

bool GoldenMemory::peek(Addr addr, unsigned size, uint64_t* value) const {
  if (size > kBlock || addr % size != 0) return false;
  auto it = blocks_.find(addr & ~Addr(kBlock - 1));
  if (it == blocks_.end()) return false;
  const unsigned off = unsigned(addr % kBlock);
  const uint8_t mask = uint8_t(((1u << size) - 1) << off);
  if ((it->second.valid & mask) != mask) return false;
  *value = 0;
  std::memcpy(value, &it->second.bytes[off],
              size); // little-endian, as apply_atomic
  return true;
}

} // namespace tlmgpu
