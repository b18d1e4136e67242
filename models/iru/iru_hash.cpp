#include "models/iru/iru_hash.hpp"

#include <algorithm>
#include <bit>
#include <stdexcept>

namespace tlmgpu {

IruMerge iru_merge_of(const std::string& name) {
  if (name == "none") return IruMerge::None;
  if (name == "min_u32") return IruMerge::MinU32;
  if (name == "add_f32") return IruMerge::AddF32;
  throw std::invalid_argument("IRU merge op '" + name + "' is not none, min_u32 or add_f32");
}

const char* iru_merge_name(IruMerge m) {
  static const char* const n[] = {"none", "min_u32", "add_f32"};
  return n[int(m)];
}

IruRouting::IruRouting(uint32_t partitions, uint32_t sets_per_partition, uint32_t banks,
                       uint32_t line_bytes)
    : partitions_(partitions), sets_(sets_per_partition), banks_(banks), line_(line_bytes) {
  if (!partitions || !sets_per_partition || !banks || !line_bytes)
    throw std::invalid_argument("IRU routing: partitions, sets, banks and line must be > 0");
}

IruRouting::Place IruRouting::place(uint32_t index) const {
  const uint64_t block = block_of(index);
  // splitmix64's finaliser: neighbouring blocks land on unrelated sets and
  // partitions, so a strided index pattern does not pile onto one set.
  uint64_t h = block + 0x9e3779b97f4a7c15ull;
  h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ull;
  h = (h ^ (h >> 27)) * 0x94d049bb133111ebull;
  h ^= h >> 31;
  const uint32_t set = uint32_t((h / partitions_) % sets_);
  return {block, uint32_t(h % partitions_), set, set % banks_};
}

IruHashSlice::IruHashSlice(uint32_t sets, uint32_t slots, uint32_t residue)
    : sets_(sets), slots_(slots), residue_(residue) {
  for (Set& s : sets_)
    s.e.reserve(slots);
}

void IruHashSlice::clear() {
  for (Set& s : sets_)
    s.e.clear();
  held_ = 0;
  full_.clear();
}

void IruHashSlice::remember(bool on) {
  if (!on)
    for (Set& s : sets_)
      s.residue.clear(), s.next = 0;
  remember_ = on && residue_;
}

IruHashSlice::Insert IruHashSlice::insert(uint32_t set, uint64_t block, const IruElement& e,
                                          IruMerge m) {
  Set& s = sets_.at(set);
  if (remember_ && std::find(s.residue.begin(), s.residue.end(), e.index) != s.residue.end())
    return Insert::Remembered;
  if (m != IruMerge::None)
    for (IruElement& x : s.e) {
      if (x.index != e.index) continue;
      if (m == IruMerge::MinU32) {
        if (e.secondary < x.secondary) x.secondary = e.secondary, x.position = e.position;
      } else {
        x.secondary = std::bit_cast<uint32_t>(std::bit_cast<float>(x.secondary) +
                                              std::bit_cast<float>(e.secondary));
      }
      return Insert::Merged;
    }
  if (s.e.size() >= slots_) return Insert::Full;
  if (s.e.empty())
    s.tag = block;
  else if (block != s.tag)
    ++conflicts_;
  s.e.push_back(e);
  ++held_;
  if (s.e.size() == slots_) full_.push_back(set);
  return Insert::Added;
}

int IruHashSlice::oldest_full() {
  while (!full_.empty() && sets_[full_.front()].e.size() < slots_)
    full_.pop_front(); // taken (in part) by a collect since it filled
  return full_.empty() ? -1 : int(full_.front());
}

uint32_t IruHashSlice::take(uint32_t set, uint32_t k, std::vector<IruElement>& out) {
  Set& s = sets_.at(set);
  const uint32_t n = std::min<uint32_t>(k, uint32_t(s.e.size()));
  out.insert(out.end(), s.e.begin(), s.e.begin() + n);
  if (remember_)
    for (uint32_t i = 0; i < n; ++i) {
      if (s.residue.size() < residue_)
        s.residue.push_back(s.e[i].index);
      else
        s.residue[s.next] = s.e[i].index, s.next = (s.next + 1) % residue_;
    }
  s.e.erase(s.e.begin(), s.e.begin() + n);
  held_ -= n;
  return n;
}

uint32_t IruHashSlice::collect(uint32_t k, std::vector<IruElement>& out) {
  std::vector<uint32_t> order;
  for (uint32_t i = 0; i < sets_.size(); ++i)
    if (!sets_[i].e.empty()) order.push_back(i);
  std::stable_sort(order.begin(), order.end(),
                   [&](uint32_t a, uint32_t b) { return sets_[a].e.size() > sets_[b].e.size(); });
  uint32_t got = 0;
  for (uint32_t s : order)
    if (got < k && size(s) <= k - got) got += take(s, size(s), out);
  for (uint32_t s : order) // what no whole set fits: split the largest left
    if (got < k && size(s)) got += take(s, k - got, out);
  return got;
}

} // namespace tlmgpu
