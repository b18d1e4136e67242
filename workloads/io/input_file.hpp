// Input files as they are distributed: a gzip, xz, bzip2 or zstd stream is
// recognised by its magic bytes (never by the file name, which is often
// wrong: a SNAP download renamed to .txt is still gzip) and decompressed on
// the fly; anything else is read as it is. The graph readers and the digits
// reader both read through LineReader, so every input format gets the same
// compression support and the same line accounting for error messages.
//
// Why bounded: a reader must turn any malformed input into one error naming
// a line. std::getline would grow a line to the size of a binary file, so
// lines are capped (max_line_bytes).
#pragma once

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>

namespace tlmgpu::io {

// A problem with the input itself (cannot open, damaged compressed stream,
// line too long). line() is the 1-based line it concerns, 0 for the whole
// file; the caller turns it into its own "<file>:<line>: <problem>" error.
class InputError : public std::runtime_error {
public:
  InputError(uint64_t line, const std::string& problem)
      : std::runtime_error(problem), line_(line), problem_(problem) {}
  uint64_t line() const { return line_; }
  const std::string& problem() const { return problem_; }

private:
  uint64_t line_;
  std::string problem_;
};

enum class Compression { none, gzip, xz, bzip2, zstd };
std::string_view compression_name(Compression c); // "", "gzip", "xz", "bzip2", "zstd"

// `path` without a trailing .gz, .xz, .bz2 or .zst (case-insensitive), so
// that "web-Google.txt.gz" is still recognised as a .txt edge list.
std::string strip_compression_suffix(const std::string& path);

class ByteSource; // the decompressor, in decoders.hpp

class LineReader {
public:
  static constexpr size_t kDefaultMaxLine = size_t{1} << 26;

  // Throws InputError(0, "cannot open: <reason>"), also for anything that is
  // not a regular file (a FIFO would block forever).
  explicit LineReader(const std::string& path, size_t max_line_bytes = kDefaultMaxLine);
  ~LineReader();

  // Next line without its terminator ("\n" or "\r\n"); false at end of file.
  // The view stays valid until the next call. Throws InputError naming the
  // line being read when the stream is damaged or the line too long.
  bool next(std::string_view& line);
  // 1-based number of the line last returned (after EOF: the last line).
  uint64_t line_number() const { return line_number_; }
  const std::string& path() const { return path_; }
  Compression compression() const { return compression_; }
  uint64_t file_size() const { return file_size_; } // bytes on disk (only regular files open)
  // Most bytes the decompressed text can hold, for checking header counts
  // before reserving: the file size when plain, 1032 x the file size for
  // gzip (deflate's largest ratio), unbounded (max) for xz, bzip2 and zstd.
  uint64_t size_bound() const;

private:
  bool refill();

  std::string path_;
  size_t max_line_;
  Compression compression_ = Compression::none;
  std::unique_ptr<ByteSource> source_;
  uint64_t file_size_ = 0;
  uint64_t line_number_ = 0;
  std::unique_ptr<char[]> buffer_;
  size_t pos_ = 0, end_ = 0;
  bool eof_ = false;
  std::string line_;
};

// The first up to n decompressed bytes of a file (format sniffing). Throws
// InputError like LineReader.
std::string read_head(const std::string& path, size_t n);

} // namespace tlmgpu::io
