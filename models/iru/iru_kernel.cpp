#include "models/iru/iru_kernel.hpp"

#include <stdexcept>

namespace tlmgpu {

WarpTask load_iru(Warp& w, const IruDevice& d, IruLoad& out, unsigned want) {
  if (w.lane_count() != 32 || w.active() != Mask::all(32))
    throw std::invalid_argument("load_iru: every lane of a 32-lane warp must take part "
                                "(a block size that is a multiple of 32; the IRU hands out "
                                "32 indices per reply, so 64-wide wavefronts are refused)");
  if (!d.partitions) throw std::invalid_argument("load_iru: no IRU partitions (IruDevice)");
  const Addr win = d.window + (w.global_warp() % d.partitions) * d.window_bytes;
  const Mask all = w.active();
  out.index = co_await w.load<uint32_t>(address_of<uint32_t>(win, lane_index()), all);
  out.active = out.index != Lanes<uint32_t>(kIruInactive);
  out.secondary = Lanes<uint32_t>(0u), out.position = Lanes<uint32_t>(kIruInactive);
  if (out.active.empty()) co_return; // an all-inactive reply has nothing more
  if (want & kIruSecondary)
    out.secondary =
        co_await w.load<uint32_t>(address_of<uint32_t>(win + d.line_bytes, lane_index()), all);
  if (want & kIruPosition)
    out.position =
        co_await w.load<uint32_t>(address_of<uint32_t>(win + 2 * d.line_bytes, lane_index()), all);
}

} // namespace tlmgpu
