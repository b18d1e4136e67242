// Internal to workloads/io: the raw file and the decompressors behind
// LineReader. Public entry points are in input_file.hpp.
#pragma once

#include "workloads/io/input_file.hpp"

#include <cstdio>
#include <memory>
#include <span>
#include <vector>

namespace tlmgpu::io {

// The file's bytes in chunks. The first chunk is read at construction so
// that the compression can be sniffed from it without seeking (pipes).
class FileInput {
public:
  explicit FileInput(std::FILE* file);
  // Bytes not handed out yet, reading the next chunk when none are left;
  // empty at the end of the file. The span stays valid until the next call,
  // and its bytes count as consumed. Throws InputError(0, "read error").
  std::span<const uint8_t> take();
  // The start of the file (at most one chunk), without consuming it.
  std::span<const uint8_t> head() const { return {buffer_.data(), end_}; }

private:
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> file_;
  std::vector<uint8_t> buffer_;
  size_t pos_ = 0, end_ = 0;
};

class ByteSource {
public:
  virtual ~ByteSource() = default;
  // Up to n decompressed bytes, at least one unless at the end (0). Throws
  // InputError(0, problem) for a damaged or truncated stream; the
  // LineReader adds the line.
  virtual size_t read(char* out, size_t n) = 0;
};

// Recognises the compression from the magic bytes at the start of the file.
Compression sniff_compression(std::span<const uint8_t> head);
std::unique_ptr<ByteSource> make_source(Compression c, std::unique_ptr<FileInput> in);

} // namespace tlmgpu::io
