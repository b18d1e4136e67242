// A fixed-size array of T whose elements start as all-zero bytes, taken from
// calloc (kernel-free).
//
// Why not std::vector<T>(n): value-initialising n elements writes every byte
// at construction. A platform's caches are large and mostly untouched by a
// run (Titan V: about 40 MB of line storage in 80 L1s and 48 L2 slices), and
// calloc of a large block maps fresh zero pages instead, so a page is only
// paid for when a line on it is first written (issue 13: the cache arrays'
// memset was 1 % of the AT histogram's instructions, plus the page faults).
//
// T must be an implicit-lifetime type whose all-zero bytes are its initial
// state (checked below as far as the language allows: trivially copyable
// and destructible).
#pragma once

#include <cstddef>
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
  explicit ZeroedArray(size_t n) : size_(n) {
    if (n == 0) return;
    void* p = std::calloc(n, sizeof(T));
    if (!p) throw std::bad_alloc();
    data_.reset(static_cast<T*>(p));
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
    void operator()(T* p) const { std::free(p); }
  };
  std::unique_ptr<T, Free> data_;
  size_t size_ = 0;
};

} // namespace tlmgpu
