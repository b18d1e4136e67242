// Generic sectored, set-associative, LRU tag+data array (kernel-free).
//
// Shared by the L1 and L2 cores and by the SM-side buffers (LAB, PHI). It
// keeps real bytes plus per-byte valid and dirty masks; policies (write
// through/back, allocate or not, what a miss fetches) belong to the users.
//
// Geometry: line address = byte address with the offset bits cleared;
// set = (line / line_bytes) % sets; replacement takes an invalid way first
// (lowest index), else the way with the smallest LRU stamp. Stamps come from
// one counter per array, so replacement is deterministic.
// sets == 0 is a disabled array: find() returns null and allocate() throws.
#pragma once

#include "tlmgpu/zeroed_array.hpp"

#include "tlmgpu/types.hpp"
#include "tlmgpu/u64_index.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <vector>

namespace tlmgpu {

// One bit per byte of a line (up to kMaxLineBytes).
class ByteMask {
public:
  static constexpr unsigned kBits = kMaxLineBytes;

  void set(unsigned i) { w_[i >> 6] |= bit(i); }
  void reset(unsigned i) { w_[i >> 6] &= ~bit(i); }
  bool test(unsigned i) const { return (w_[i >> 6] & bit(i)) != 0; }

  // Bits [off, off + n).
  void set_range(unsigned off, unsigned n) {
    for_range(off, n, [this](unsigned i, uint64_t m) { w_[i] |= m; });
  }
  void reset_range(unsigned off, unsigned n) {
    for_range(off, n, [this](unsigned i, uint64_t m) { w_[i] &= ~m; });
  }
  bool all(unsigned off, unsigned n) const {
    bool ok = true;
    for_range(off, n, [&](unsigned i, uint64_t m) { ok = ok && (w_[i] & m) == m; });
    return ok;
  }
  bool any(unsigned off, unsigned n) const {
    bool hit = false;
    for_range(off, n, [&](unsigned i, uint64_t m) { hit = hit || (w_[i] & m) != 0; });
    return hit;
  }
  bool any() const { return (w_[0] | w_[1] | w_[2] | w_[3]) != 0; }
  bool none() const { return !any(); }
  unsigned count() const {
    unsigned c = 0;
    for (uint64_t w : w_)
      c += static_cast<unsigned>(std::popcount(w));
    return c;
  }
  void clear() { w_ = {}; }

  ByteMask& operator|=(const ByteMask& o) {
    for (unsigned i = 0; i < kWords; ++i)
      w_[i] |= o.w_[i];
    return *this;
  }
  ByteMask& operator&=(const ByteMask& o) {
    for (unsigned i = 0; i < kWords; ++i)
      w_[i] &= o.w_[i];
    return *this;
  }
  // Clears every bit set in `o`.
  ByteMask& remove(const ByteMask& o) {
    for (unsigned i = 0; i < kWords; ++i)
      w_[i] &= ~o.w_[i];
    return *this;
  }
  friend ByteMask operator|(ByteMask a, const ByteMask& b) { return a |= b; }
  friend ByteMask operator&(ByteMask a, const ByteMask& b) { return a &= b; }
  bool operator==(const ByteMask&) const = default;

  // Mask from a line-sized byte-enable array (nonzero = enabled).
  // Stores and fills run through here on every access, so both work 8 bytes
  // at a time instead of bit by bit.
  static ByteMask from_enables(const uint8_t* be, unsigned n) {
    ByteMask m;
    unsigned i = 0;
    for (; i + 8 <= n; i += 8) {
      uint64_t v;
      std::memcpy(&v, be + i, 8);
      // 0x80 in each byte that is nonzero, then gather those 8 bits.
      uint64_t t =
          (v | ((v & 0x7f7f7f7f7f7f7f7full) + 0x7f7f7f7f7f7f7f7full)) & 0x8080808080808080ull;
      uint64_t bits = ((t >> 7) * 0x0102040810204080ull) >> 56;
      m.w_[i >> 6] |= bits << (i & 63);
    }
    for (; i < n; ++i)
      if (be[i]) m.set(i);
    return m;
  }
  // dst[i] = src[i] for every byte i in the mask (i < n).
  void copy_masked(uint8_t* dst, const uint8_t* src, unsigned n) const {
    for (unsigned i = 0; i < n; i += 8) {
      const uint64_t bits = (w_[i >> 6] >> (i & 63)) & 0xff;
      if (bits == 0) continue;
      if (bits == 0xff || i + 8 > n) {
        if (bits == 0xff && i + 8 <= n) {
          std::memcpy(dst + i, src + i, 8);
          continue;
        }
        for (unsigned k = 0; k < 8 && i + k < n; ++k)
          if (bits >> k & 1) dst[i + k] = src[i + k];
        continue;
      }
      uint64_t d, s2, m = 0;
      for (unsigned k = 0; k < 8; ++k)
        if (bits >> k & 1) m |= 0xffull << (8 * k);
      std::memcpy(&d, dst + i, 8);
      std::memcpy(&s2, src + i, 8);
      d = (d & ~m) | (s2 & m);
      std::memcpy(dst + i, &d, 8);
    }
  }

private:
  static constexpr unsigned kWords = kBits / 64;
  static uint64_t bit(unsigned i) { return uint64_t{1} << (i & 63); }
  // Calls f(word_index, mask) for each 64-bit word the range [off, off+n) touches.
  template <class F>
  static void for_range(unsigned off, unsigned n, F f) {
    while (n > 0) {
      const unsigned lo = off & 63, take = std::min(n, 64 - lo);
      const uint64_t m = (take == 64 ? ~uint64_t{0} : ((uint64_t{1} << take) - 1)) << lo;
      f(off >> 6, m);
      off += take;
      n -= take;
    }
  }

  std::array<uint64_t, kWords> w_{};
};

struct CacheLine {
  Addr line = 0;
  bool valid = false;
  uint64_t lru = 0; // larger = more recently used
  ByteMask valid_bytes, dirty_bytes;
  uint32_t meta = 0; // free for mechanisms (e.g. a LAB entry's atomic op)
  // hLRC: this L1 holds the line's ownership (models/hlrc).
  bool owned = false;
  std::array<uint8_t, kMaxLineBytes> data{};
};

// Bytes the caller must write downstream: only `dirty` bytes are meaningful.
struct Writeback {
  Addr line = 0;
  std::array<uint8_t, kMaxLineBytes> data{};
  ByteMask dirty;
  bool owned = false; // hLRC: the line was owned; giving it up releases the ownership
};

class CacheArray {
public:
  // Throws std::invalid_argument on bad geometry (line not a power of two or
  // above kMaxLineBytes, sector not dividing the line, more than 32 sectors).
  CacheArray(uint32_t sets, uint32_t ways, uint32_t line_bytes, uint32_t sector_bytes);

  bool enabled() const { return sets_ != 0; }
  uint32_t sets() const { return sets_; }
  uint32_t ways() const { return ways_; }
  uint32_t line_bytes() const { return line_bytes_; }
  uint32_t sector_bytes() const { return sector_bytes_; }
  uint32_t sectors_per_line() const { return line_bytes_ / sector_bytes_; }
  uint32_t all_sectors() const {
    const uint32_t n = sectors_per_line();
    return n == 32 ? ~uint32_t{0} : (uint32_t{1} << n) - 1;
  }

  Addr line_of(Addr a) const { return a & ~Addr{line_bytes_ - 1}; }
  // The array holds the lines of one of `partitions` memory partitions that
  // take turns chunk by chunk (`chunk_bytes` each, a power of two >= the
  // line): sets are then indexed by the line's number inside its partition,
  // not by its address, XOR-folded. An L2 slice sees only every
  // partitions-th chunk, so the address bits that choose the slice would
  // otherwise also choose the set, and some sets would never be used ("set
  // camping": with the xor hash and a power-of-two slice count, half of
  // them; GPGPU-Sim indexes its L2 by the partition address for the same
  // reason). The fold XORs the number's higher set-sized digits into the
  // lowest, as hashed set indices do: with a slice count that is not a
  // power of two (titanv's 48), regions a power-of-two stride apart
  // otherwise land on a few sets. Consecutive lines still take distinct
  // sets. Call before use.
  void index_by_partition(uint32_t chunk_bytes, uint32_t partitions);
  // On every lookup: a shift, and a mask when the set count is a power of
  // two (it is on every platform so far), not two 64-bit divisions.
  uint32_t set_of(Addr line) const {
    Addr index = line >> line_shift_;
    if (partitions_ > 1) {
      // The chunk's number inside the partition: chunk / partitions, by a
      // multiply when the count is not a power of two (exact for every
      // chunk below 2^64 / partitions).
      const Addr chunk = line >> chunk_shift_;
      const Addr local = part_shift_ >= 0 ? chunk >> part_shift_
                                          : Addr((unsigned __int128)chunk * part_magic_ >> 64);
      index = (local << (chunk_shift_ - line_shift_)) | (index & (lines_per_chunk_ - 1));
      if (sets_pow2_ && sets_ > 1) {
        Addr folded = 0;
        for (; index != 0; index >>= set_bits_)
          folded ^= index;
        index = folded; // the mask below keeps the lowest digit
      }
    }
    return static_cast<uint32_t>(sets_pow2_ ? index & (sets_ - 1) : index % sets_);
  }
  // Sectors covering bytes [off, off+n) of a line.
  uint32_t sectors_of(unsigned off, unsigned n) const {
    uint32_t m = 0;
    // Shifts: sector_bytes_ is a power of two, and a division here was a
    // real one on every atomic lane (issue 13).
    for (unsigned s = off >> sector_shift_; s <= (off + n - 1) >> sector_shift_; ++s)
      m |= uint32_t{1} << s;
    return m;
  }

  CacheLine* find(Addr line) {
    if (sets_ == 0) return nullptr;
    if (indexed_) {
      size_t slot;
      const uint32_t i = index_.find(line, slot);
      return i == U64Index::kNone ? nullptr : &lines_[i];
    }
    // Tags live in their own dense array: a 64-way lookup then reads 512
    // bytes instead of touching 64 full lines (it is on every access).
    const size_t base = size_t{set_of(line)} * ways_;
    const Addr* tags = &tags_[base];
    // Most lookups of a wide set miss (an atomic passing the L1): test 8
    // tags per branch, a loop the compiler turns into vector compares.
    uint32_t w = 0;
    for (; w + 8 <= ways_; w += 8) {
      bool hit = false;
      for (uint32_t k = 0; k < 8; ++k)
        hit |= tags[w + k] == line;
      if (hit) break;
    }
    for (; w < ways_; ++w)
      if (tags[w] == line) return &lines_[base + w];
    return nullptr;
  }
  const CacheLine* find(Addr line) const { return const_cast<CacheArray*>(this)->find(line); }

  void touch(CacheLine& l) {
    l.lru = ++clock_;
    stamps_[size_t(&l - lines_.data())] = l.lru;
  }

  // Write-backs of every dirty line, which stay valid and become clean (a
  // flush at a release point; L1 and L2 share it).
  std::vector<Writeback> take_dirty() {
    std::vector<Writeback> out;
    for_each_valid([&](CacheLine& l) {
      if (l.dirty_bytes.none()) return;
      Writeback& wb = out.emplace_back();
      wb.line = l.line;
      wb.data = l.data;
      wb.dirty = l.dirty_bytes;
      l.dirty_bytes.clear();
    });
    return out;
  }

  // Installs `line` (which must not be present) as the most recently used
  // way, with empty masks, zero data and meta 0. If a valid line is evicted,
  // *evicted is set and (when victim_out is not null) a copy is stored there.
  CacheLine& allocate(Addr line, CacheLine* victim_out, bool* evicted);

  void invalidate(CacheLine& l) {
    Addr& tag = tags_[size_t(&l - lines_.data())];
    if (indexed_ && tag != kNoTag) {
      index_.erase(tag);
      mark_used(size_t(&l - lines_.data()), false);
    }
    tag = kNoTag;
    l.valid = false;
    l.valid_bytes.clear();
    l.dirty_bytes.clear();
    l.meta = 0;
    l.owned = false;
  }

  template <class F>
  void for_each_valid(F f) {
    for (size_t i = 0; i < tags_.size(); ++i) // the dense tags, not every line's page
      if (tags_[i] != kNoTag && lines_[i].valid) f(lines_[i]);
  }
  template <class F>
  void for_each_valid(F f) const {
    for (size_t i = 0; i < tags_.size(); ++i)
      if (tags_[i] != kNoTag && lines_[i].valid) f(lines_[i]);
  }

  // True iff every byte of every sector in `sector_mask` is valid.
  bool sectors_valid(const CacheLine& l, uint32_t sector_mask) const {
    return missing_sectors(l, sector_mask) == 0;
  }
  // The sectors of `sector_mask` that are not fully valid.
  uint32_t missing_sectors(const CacheLine& l, uint32_t sector_mask) const {
    uint32_t miss = 0;
    for (uint32_t m = sector_mask; m != 0; m &= m - 1) {
      const unsigned s = static_cast<unsigned>(std::countr_zero(m));
      if (!l.valid_bytes.all(s * sector_bytes_, sector_bytes_)) miss |= uint32_t{1} << s;
    }
    return miss;
  }
  ByteMask sector_bytes_mask(uint32_t sector_mask) const {
    ByteMask b;
    for (uint32_t m = sector_mask; m != 0; m &= m - 1)
      b.set_range(static_cast<unsigned>(std::countr_zero(m)) * sector_bytes_, sector_bytes_);
    return b;
  }
  // Copies the bytes of `sector_mask` from src into dst (both line-indexed).
  void copy_sectors(uint32_t sector_mask, const uint8_t* src, uint8_t* dst) const;

  size_t valid_lines() const;

private:
  uint32_t sets_, ways_, line_bytes_, sector_bytes_;
  unsigned line_shift_ = 0, sector_shift_ = 0;
  bool sets_pow2_ = false;
  // index_by_partition: 0 or 1 partitions = index by address.
  uint32_t partitions_ = 0;
  unsigned chunk_shift_ = 0, set_bits_ = 0;
  Addr lines_per_chunk_ = 1;
  int part_shift_ = -1;     // log2(partitions_) when a power of two
  uint64_t part_magic_ = 0; // else floor(2^64 / partitions_) + 1
  uint64_t clock_ = 0;
  ZeroedArray<CacheLine> lines_;           // all-zero = invalid, paid for per page when first used
  static constexpr Addr kNoTag = ~Addr{0}; // never a line address (lines are aligned)
  std::vector<Addr> tags_;                 // tags_[i] == lines_[i].line when valid
  // stamps_[i] == lines_[i].lru: the victim search reads these two dense
  // arrays instead of every way's whole line.
  std::vector<uint64_t> stamps_;
  // Sets of kIndexWays or more ways (the Volta L1 with its adaptive carveout
  // has 256) find a line through an index of the valid lines' positions
  // instead of comparing every tag: those scans were 6 % of the AT
  // histogram's instructions, most of them misses (atomics passing the L1).
  static constexpr uint32_t kIndexWays = 64;
  bool indexed_ = false;
  U64Index index_; // line -> index into lines_, when indexed_
  // Indexed sets also keep a bit per way that holds a line (bits past the
  // last way set), so allocate() finds the first free way in a few words
  // instead of scanning 256 tags (issue 13: 1.9 % of the AT histogram).
  uint32_t used_words_ = 0; // per set
  std::vector<uint64_t> used_;
  void mark_used(size_t pos, bool on) {
    uint64_t& w = used_[pos / ways_ * used_words_ + pos % ways_ / 64];
    const uint64_t bit = uint64_t{1} << (pos % ways_ % 64);
    w = on ? w | bit : w & ~bit;
  }
  uint32_t first_free_way(size_t set) const;
  uint32_t lru_way(size_t base) const;
};

} // namespace tlmgpu
