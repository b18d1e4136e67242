// FNV-1a, 64 bit (Fowler, Noll, Vo; offset basis 0xcbf29ce484222325, prime
// 0x100000001b3): the fingerprint of a run's outputs (OutputHash) and of the
// identities that seed the jitter streams (jitter.hpp). Not cryptographic:
// it tells runs apart, it does not resist anyone.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>

namespace tlmgpu {

inline constexpr uint64_t kFnvOffset = 0xcbf29ce484222325ull;

inline uint64_t fnv1a64(const void* data, size_t n, uint64_t h = kFnvOffset) {
  const auto* p = static_cast<const unsigned char*>(data);
  for (size_t i = 0; i < n; ++i)
    h = (h ^ p[i]) * 0x100000001b3ull;
  return h;
}

// 16 lowercase hex digits, as stats.json writes a hash.
inline std::string hash_hex(uint64_t h) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

// Every buffer a device's host program copied back from the device, in
// program order: each copy adds its length (8 bytes, little endian) and then
// its bytes, so the hash tells apart splits of the same bytes. A program that
// copies nothing back has the offset basis as its hash.
class OutputHash {
public:
  void add(const void* data, size_t n) {
    unsigned char len[8];
    for (int i = 0; i < 8; ++i)
      len[i] = static_cast<unsigned char>(uint64_t(n) >> (8 * i));
    h_ = fnv1a64(data, n, fnv1a64(len, 8, h_));
    ++buffers_;
  }
  uint64_t value() const { return h_; }
  uint64_t buffers() const { return buffers_; }

private:
  uint64_t h_ = kFnvOffset;
  uint64_t buffers_ = 0;
};

} // namespace tlmgpu
