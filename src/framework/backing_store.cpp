#include "tlmgpu/backing_store.hpp"

#include <algorithm>
#include <cstring>

namespace tlmgpu {

BackingStore::Page* BackingStore::find_slow(uint64_t page_no) const {
  auto it = pages_.find(page_no);
  if (it == pages_.end()) return nullptr;
  last_no_ = page_no;
  last_ = it->second.get();
  return last_;
}

BackingStore::Page& BackingStore::create(uint64_t page_no) {
  auto& slot = pages_[page_no];
  slot = std::make_unique<Page>();
  last_no_ = page_no;
  last_ = slot.get();
  return *last_;
}

// Walks [a, a+n) one page-sized chunk at a time and calls f(page_no, offset,
// done, len) where `done` is the index of the chunk's first byte in the buffer.
template <class F>
static void for_each_chunk(Addr a, size_t n, F&& f) {
  size_t done = 0;
  while (done < n) {
    const uint64_t page_no = a / BackingStore::kPageBytes;
    const size_t off = static_cast<size_t>(a % BackingStore::kPageBytes);
    const size_t len = std::min(n - done, BackingStore::kPageBytes - off);
    f(page_no, off, done, len);
    done += len;
    a += len;
  }
}

void BackingStore::read(Addr a, uint8_t* dst, size_t n) const {
  for_each_chunk(a, n, [&](uint64_t page_no, size_t off, size_t done, size_t len) {
    if (const Page* p = find(page_no))
      std::memcpy(dst + done, p->bytes.data() + off, len);
    else
      std::memset(dst + done, 0, len);
  });
}

void BackingStore::write(Addr a, const uint8_t* src, size_t n) {
  for_each_chunk(a, n, [&](uint64_t page_no, size_t off, size_t done, size_t len) {
    std::memcpy(get_or_create(page_no).bytes.data() + off, src + done, len);
  });
}

void BackingStore::write_masked(Addr a, const uint8_t* src, const uint8_t* byte_enable, size_t n) {
  for_each_chunk(a, n, [&](uint64_t page_no, size_t off, size_t done, size_t len) {
    const uint8_t* be = byte_enable + done;
    // An all-disabled chunk must not allocate: partial stores and evictions
    // often carry masks with whole empty regions.
    if (std::all_of(be, be + len, [](uint8_t b) { return b == 0; })) return;
    uint8_t* d = get_or_create(page_no).bytes.data() + off;
    for (size_t i = 0; i < len; ++i)
      if (be[i]) d[i] = src[done + i];
  });
}

} // namespace tlmgpu
