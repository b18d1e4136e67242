#include "models/iru/iru_layout.hpp"

#include <algorithm>
#include <stdexcept>

namespace tlmgpu {

IruLayout::IruLayout(uint32_t slices_per_partition, uint32_t line_bytes,
                     std::function<uint32_t(Addr)> slice_of)
    : per_(slices_per_partition), line_(line_bytes), slice_of_(std::move(slice_of)) {
  if (!per_ || !line_ || line_ % 4)
    throw std::invalid_argument("IRU layout: slices per partition and line size must be > 0");
}

std::vector<IruLayout::Line> IruLayout::lines(const IruConfig& c, uint32_t p, uint32_t from) const {
  std::vector<Line> out;
  if (!c.gather.empty() || c.streamed) {
    for (uint32_t i = from; i < c.n;) {
      const Addr a = c.gather[i], l = a / line_ * line_;
      uint32_t j = i + 1;
      while (j < c.n && c.gather[j] == c.gather[j - 1] + 4 && c.gather[j] < l + line_)
        ++j;
      const uint32_t s = slice_of_(l);
      if (s / per_ == p) out.push_back({l, false, i, j, a, s % per_});
      i = j;
    }
    return out;
  }
  auto scan = [&](Addr base, bool secondary) {
    const Addr end = base + 4 * c.n;
    for (Addr l = base / line_ * line_; l < end; l += line_) {
      const uint32_t s = slice_of_(l);
      if (s / per_ != p) continue;
      const Addr lo = std::max(l, base), hi = std::min<Addr>(l + line_, end);
      out.push_back(
          {l, secondary, uint32_t((lo - base) / 4), uint32_t((hi - base) / 4), lo, s % per_});
    }
  };
  scan(c.indices, false);
  if (c.secondary) scan(c.secondary, true);
  std::stable_sort(out.begin(), out.end(), [](const Line& a, const Line& b) {
    return a.first != b.first ? a.first < b.first : !a.secondary && b.secondary;
  });
  return out;
}

std::optional<IruPairing::Whole> IruPairing::add(uint32_t pos, uint32_t word, Cycle at, int which) {
  auto [it, fresh] = half_.try_emplace(pos, Half{word, at, which});
  if (fresh) return std::nullopt;
  if (it->second.which == which)
    throw std::logic_error("IRU pairing: position " + std::to_string(pos) + " arrived twice");
  const Half h = it->second;
  half_.erase(it);
  IruElement e;
  e.index = which == 0 ? word : h.word;
  e.secondary = which == 1 ? word : h.word;
  e.position = pos;
  return Whole{e, std::max(at, h.at)};
}

} // namespace tlmgpu
