// The functional memory image behind DRAM: real bytes, so a mechanism that is
// wrong produces a wrong value a test can see (architecture.md section 5).
// Sparse: 4 KiB pages appear on first write; a never-written byte reads as 0.
// Kernel-free and single-threaded (SystemC processes never run concurrently).
#pragma once

#include "tlmgpu/types.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <unordered_map>

namespace tlmgpu {

class BackingStore {
public:
  static constexpr size_t kPageBytes = 4096;

  // Accesses may span any number of pages. Reading never allocates, so a
  // workload that reads uninitialised memory does not grow the image.
  void read(Addr a, uint8_t* dst, size_t n) const;
  void write(Addr a, const uint8_t* src, size_t n);
  // byte_enable[i] != 0 writes byte i (TLM uses 0xff / 0x00). A page is only
  // allocated if at least one of its bytes is enabled.
  void write_masked(Addr a, const uint8_t* src, const uint8_t* byte_enable, size_t n);

  // The bytes of [a, a+n), which must lie in one page (an aligned access of
  // at most a line does): `readable` is null when the page was never written
  // (it reads as 0 and is not allocated); `writable` allocates it. For
  // callers that touch a word at a time (the functional direct path).
  const uint8_t* readable(Addr a) const {
    const Page* p = find(a / kPageBytes);
    return p ? p->bytes.data() + a % kPageBytes : nullptr;
  }
  uint8_t* writable(Addr a) { return get_or_create(a / kPageBytes).bytes.data() + a % kPageBytes; }

  size_t pages() const { return pages_.size(); }
  size_t bytes_allocated() const { return pages_.size() * kPageBytes; }

private:
  struct Page {
    std::array<uint8_t, kPageBytes> bytes{};
  };

  // nullptr if the page was never written.
  Page* find(uint64_t page_no) const {
    return page_no == last_no_ ? last_ : find_slow(page_no); // the one-entry cache first
  }
  Page* find_slow(uint64_t page_no) const;
  Page& get_or_create(uint64_t page_no) {
    Page* p = find(page_no);
    return p ? *p : create(page_no);
  }
  Page& create(uint64_t page_no);

  std::unordered_map<uint64_t, std::unique_ptr<Page>> pages_;
  // One-entry lookup cache: DRAM traffic is line-sized and strongly local, so
  // most accesses hit the page of the previous one. Page addresses are stable
  // (unique_ptr), and pages are never freed, so the cache never dangles. Only
  // existing pages are cached; ~0 is not a valid page number (addresses are
  // 64-bit, page numbers 52-bit).
  mutable uint64_t last_no_ = ~uint64_t{0};
  mutable Page* last_ = nullptr;
};

} // namespace tlmgpu
