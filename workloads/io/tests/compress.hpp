// Test helper: `text` compressed in memory with the same libraries the
// readers decompress with, so tests can write compressed samples into temp
// files instead of committing binary ones.
#pragma once

#include "workloads/io/input_file.hpp"

#include <stdexcept>
#include <string>

#include <bzlib.h>
#include <lzma.h>
#include <zlib.h>
#include <zstd.h>

namespace tlmgpu::test {

inline std::string compress(io::Compression c, const std::string& text) {
  std::string out;
  switch (c) {
  case io::Compression::none:
    return text;
  case io::Compression::gzip: {
    z_stream z{};
    if (deflateInit2(&z, 9, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
      throw std::runtime_error("deflateInit2");
    out.resize(deflateBound(&z, text.size()));
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
    z.avail_in = static_cast<uInt>(text.size());
    z.next_out = reinterpret_cast<Bytef*>(out.data());
    z.avail_out = static_cast<uInt>(out.size());
    if (deflate(&z, Z_FINISH) != Z_STREAM_END) throw std::runtime_error("deflate");
    out.resize(z.total_out);
    deflateEnd(&z);
    return out;
  }
  case io::Compression::xz: {
    out.resize(lzma_stream_buffer_bound(text.size()));
    size_t pos = 0;
    if (lzma_easy_buffer_encode(
            6, LZMA_CHECK_CRC64, nullptr, reinterpret_cast<const uint8_t*>(text.data()),
            text.size(), reinterpret_cast<uint8_t*>(out.data()), &pos, out.size()) != LZMA_OK)
      throw std::runtime_error("lzma_easy_buffer_encode");
    out.resize(pos);
    return out;
  }
  case io::Compression::bzip2: {
    unsigned size = static_cast<unsigned>(text.size() + text.size() / 100 + 600);
    out.resize(size);
    if (BZ2_bzBuffToBuffCompress(out.data(), &size, const_cast<char*>(text.data()),
                                 static_cast<unsigned>(text.size()), 9, 0, 0) != BZ_OK)
      throw std::runtime_error("BZ2_bzBuffToBuffCompress");
    out.resize(size);
    return out;
  }
  case io::Compression::zstd: {
    out.resize(ZSTD_compressBound(text.size()));
    const size_t n = ZSTD_compress(out.data(), out.size(), text.data(), text.size(), 3);
    if (ZSTD_isError(n)) throw std::runtime_error("ZSTD_compress");
    out.resize(n);
    return out;
  }
  }
  return out;
}

inline constexpr io::Compression kAllCompressions[] = {io::Compression::none, io::Compression::gzip,
                                                       io::Compression::xz, io::Compression::bzip2,
                                                       io::Compression::zstd};

// The usual file suffix of each compression ("" for none).
inline std::string compression_suffix(io::Compression c) {
  switch (c) {
  case io::Compression::gzip:
    return ".gz";
  case io::Compression::xz:
    return ".xz";
  case io::Compression::bzip2:
    return ".bz2";
  case io::Compression::zstd:
    return ".zst";
  case io::Compression::none:
    break;
  }
  return "";
}

} // namespace tlmgpu::test
