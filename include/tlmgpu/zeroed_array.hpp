// A fixed-size array of T whose elements start as all-zero bytes (kernel-free).
//
// Why not std::vector<T>(n): value-initialising n elements writes every byte
// at construction. A platform's caches and scratchpads are large and mostly
// untouched by a run (Titan V: about 40 MB of line storage in 80 L1s and 48
// L2 slices, 7.5 MB of shared memory), so an array of kMapBytes or more is
// mapped as fresh zero pages of its own (mmap), and a page is only paid for
// when something on it is first written (issue 13: the cache arrays' memset
// was 1 % of the AT histogram's instructions, plus the page faults). calloc
// does that only above glibc's mmap threshold (128 KB): an L1's 90 KB array
// and an SM's 96 KB scratchpad were zeroed by memset, 15 % of a small run's
// instructions. Smaller arrays come from calloc.
//
// T must be an implicit-lifetime type whose all-zero bytes are its initial
// state (checked below as far as the language allows: trivially copyable
// and destructible).
#pragma once

#include <sys/mman.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <new>
#include <type_traits>

namespace tlmgpu {

template <class T>
class ZeroedArray {
  static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>,
                "ZeroedArray holds plain data only");

public:
  ZeroedArray() = default;
  static constexpr size_t kMapBytes = size_t{64} << 10;

  explicit ZeroedArray(size_t n) : size_(n) {
    if (n == 0) return;
    if (n > SIZE_MAX / sizeof(T)) throw std::bad_alloc();
    const size_t bytes = n * sizeof(T);
    void* p = nullptr;
    if (bytes >= kMapBytes) {
      p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      if (p == MAP_FAILED) throw std::bad_alloc();
    } else if (!(p = std::calloc(n, sizeof(T)))) {
      throw std::bad_alloc();
    }
    data_ = std::unique_ptr<T, Free>(static_cast<T*>(p), Free{bytes >= kMapBytes ? bytes : 0});
  }

  size_t size() const { return size_; }
  T* data() { return data_.get(); }
  const T* data() const { return data_.get(); }
  T& operator[](size_t i) { return data_.get()[i]; }
  const T& operator[](size_t i) const { return data_.get()[i]; }
  T* begin() { return data(); }
  T* end() { return data() + size_; }
  const T* begin() const { return data(); }
  const T* end() const { return data() + size_; }

private:
  struct Free {
    size_t mapped = 0; // bytes mapped by mmap; 0: from calloc
    void operator()(T* p) const {
      if (mapped)
        munmap(p, mapped);
      else
        std::free(p);
    }
  };
  std::unique_ptr<T, Free> data_;
  size_t size_ = 0;
};

} // namespace tlmgpu
