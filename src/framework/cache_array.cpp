#include "tlmgpu/cache_array.hpp"

#include <cstring>
#include <string>

namespace tlmgpu {

CacheArray::CacheArray(uint32_t sets, uint32_t ways, uint32_t line_bytes, uint32_t sector_bytes)
    : sets_(sets), ways_(ways), line_bytes_(line_bytes), sector_bytes_(sector_bytes) {
  auto bad = [](const std::string& why) { throw std::invalid_argument("CacheArray: " + why); };
  if (!std::has_single_bit(line_bytes) || line_bytes > kMaxLineBytes)
    bad("line_bytes " + std::to_string(line_bytes) +
        " must be a power of two <= " + std::to_string(kMaxLineBytes));
  if (sector_bytes == 0 || !std::has_single_bit(sector_bytes) || sector_bytes > line_bytes)
    bad("sector_bytes " + std::to_string(sector_bytes) +
        " must be a power of two dividing the line");
  if (line_bytes / sector_bytes > 32) bad("at most 32 sectors per line (sector masks are 32-bit)");
  if (sets != 0 && ways == 0) bad("ways must be >= 1");
  lines_ = ZeroedArray<CacheLine>(size_t{sets} * ways);
  tags_.assign(lines_.size(), kNoTag);
  stamps_.assign(lines_.size(), 0);
  line_shift_ = static_cast<unsigned>(std::countr_zero(line_bytes));
  sector_shift_ = static_cast<unsigned>(std::countr_zero(sector_bytes));
  sets_pow2_ = std::has_single_bit(sets);
  indexed_ = ways >= kIndexWays;
  if (indexed_) {
    used_words_ = (ways + 63) / 64;
    used_.assign(size_t{sets} * used_words_, 0);
    if (const uint32_t tail = ways % 64) // ways past the last never look free
      for (size_t set = 0; set < sets; ++set)
        used_[set * used_words_ + used_words_ - 1] = ~uint64_t{0} << tail;
  }
}

void CacheArray::index_by_partition(uint32_t chunk_bytes, uint32_t partitions) {
  if (!std::has_single_bit(chunk_bytes) || chunk_bytes < line_bytes_)
    throw std::invalid_argument("CacheArray: partition chunk of " + std::to_string(chunk_bytes) +
                                " bytes must be a power of two >= the line (" +
                                std::to_string(line_bytes_) + ")");
  if (valid_lines() != 0)
    throw std::logic_error("CacheArray: index_by_partition on an array that holds lines");
  partitions_ = partitions;
  chunk_shift_ = static_cast<unsigned>(std::countr_zero(chunk_bytes));
  set_bits_ = static_cast<unsigned>(std::countr_zero(sets_)); // the fold's digit (pow2 sets)
  lines_per_chunk_ = chunk_bytes >> line_shift_;
  part_shift_ = std::has_single_bit(partitions) ? std::countr_zero(partitions) : -1;
  part_magic_ = partitions > 1 ? ~uint64_t{0} / partitions + 1 : 0;
}

uint32_t CacheArray::first_free_way(size_t set) const {
  const uint64_t* used = &used_[set * used_words_];
  for (uint32_t i = 0; i < used_words_; ++i)
    if (~used[i]) return i * 64 + static_cast<uint32_t>(std::countr_one(used[i]));
  return ways_;
}

// The valid way with the smallest stamp, the lowest on a tie (every way of
// the set is valid when this is asked).
uint32_t CacheArray::lru_way(size_t base) const {
  const uint64_t* stamps = &stamps_[base];
  uint32_t lru = 0;
  for (uint32_t w = 1; w < ways_; ++w)
    if (stamps[w] < stamps[lru]) lru = w;
  return lru;
}

CacheLine& CacheArray::allocate(Addr line, CacheLine* victim_out, bool* evicted) {
  if (sets_ == 0) throw std::logic_error("CacheArray::allocate on a disabled array");
  if (evicted) *evicted = false;
  const size_t set = set_of(line), base = set * ways_;
  const Addr* tags = &tags_[base];
  const uint64_t* stamps = &stamps_[base];
  uint32_t free_way = ways_, lru = ways_; // first invalid way; least recently used valid way
  if (indexed_) {
    size_t slot;
    if (index_.find(line, slot) != U64Index::kNone)
      throw std::logic_error("CacheArray::allocate of a line already present");
    free_way = first_free_way(set);
    if (free_way == ways_) lru = lru_way(base);
  }
  for (uint32_t w = 0; !indexed_ && w < ways_; ++w) {
    if (tags[w] == kNoTag) {
      if (free_way == ways_) free_way = w;
    } else if (tags[w] == line) {
      throw std::logic_error("CacheArray::allocate of a line already present");
    } else if (lru == ways_ || stamps[w] < stamps[lru]) {
      lru = w;
    }
  }
  CacheLine* v = free_way < ways_ ? &lines_[base + free_way] : nullptr;
  if (!v) {
    v = &lines_[base + lru];
    if (evicted) *evicted = true;
    if (victim_out) *victim_out = *v;
  }
  v->line = line;
  v->valid = true;
  const size_t pos = size_t(v - lines_.data());
  if (indexed_) {
    if (tags_[pos] != kNoTag) index_.erase(tags_[pos]); // the victim
    size_t slot;
    index_.find(line, slot);
    index_.insert(slot, line, uint32_t(pos));
    mark_used(pos, true);
  }
  tags_[pos] = line;
  v->valid_bytes.clear();
  v->dirty_bytes.clear();
  v->meta = 0;
  v->owned = false;
  std::memset(v->data.data(), 0, line_bytes_);
  touch(*v);
  return *v;
}

void CacheArray::copy_sectors(uint32_t sector_mask, const uint8_t* src, uint8_t* dst) const {
  // Runs of adjacent sectors are copied at once (a full line is one memcpy).
  while (sector_mask != 0) {
    const unsigned first = static_cast<unsigned>(std::countr_zero(sector_mask));
    const unsigned run = static_cast<unsigned>(std::countr_one(sector_mask >> first));
    const size_t off = size_t{first} * sector_bytes_, n = size_t{run} * sector_bytes_;
    std::memcpy(dst + off, src + off, n);
    sector_mask = run + first >= 32 ? 0 : sector_mask & ~(((uint32_t{1} << run) - 1) << first);
  }
}

size_t CacheArray::valid_lines() const {
  size_t n = 0;
  for_each_valid([&](const CacheLine&) { ++n; });
  return n;
}

} // namespace tlmgpu
