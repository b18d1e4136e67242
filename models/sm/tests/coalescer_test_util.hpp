// Helpers shared by the coalescer tests (32-lane warps and 64-lane wavefronts).
#pragma once

#include "models/sm/coalescer.hpp"

#include <vector>

namespace tlmgpu::test {

// A global memory instruction over `addr` (32 lanes unless a test says otherwise).
inline WarpInstr instr(WarpInstr::Kind k, const Lanes<Addr>& addr, uint8_t size = 4,
                       Mask m = Mask::all(32)) {
  WarpInstr in;
  in.kind = k;
  in.addr = addr;
  in.size = size;
  in.mask = m;
  in.type = size == 8 ? DataType::U64 : DataType::U32;
  return in;
}

// base + lane * stride in every lane.
inline Lanes<Addr> linear(Addr base, Addr stride) {
  return Lanes<Addr>::generate([&](unsigned l) { return base + l * stride; });
}

// The requests, copied out of the coalescer's reused buffer.
inline std::vector<LineRequest> run(Coalescer& c, const WarpInstr& in) {
  auto s = c.coalesce(in);
  return {s.begin(), s.end()};
}

} // namespace tlmgpu::test
