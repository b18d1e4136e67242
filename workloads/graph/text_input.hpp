// Shared plumbing of the text graph readers: a bounded line reader that knows
// its file and line for error messages, field splitting, and strict number
// parsing. Internal to workloads/graph; the public entry points are in
// readers.hpp.
//
// Why strict and bounded: a reader must turn any malformed file into one
// GraphFormatError. std::getline would happily grow a line to the size of a
// binary file and stream >> silently accepts "12abc", so neither is used.
#pragma once

#include "workloads/graph/csr_graph.hpp"

#include <cstdio>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace tlmgpu::graph::detail {

class LineReader {
public:
  // Throws GraphFormatError("<path>: cannot open: <reason>") for a missing file.
  explicit LineReader(const std::string& path);

  // Next line without its terminator ("\n" or "\r\n"); false at end of file.
  // The view stays valid until the next call.
  bool next(std::string_view& line);
  // 1-based number of the line last returned (after EOF: the last line).
  uint64_t line_number() const { return line_number_; }
  uint64_t file_size() const { return file_size_; }
  const std::string& path() const { return path_; }

  [[noreturn]] void fail(const std::string& problem) const { fail_at(line_number_, problem); }
  [[noreturn]] void fail_at(uint64_t line, const std::string& problem) const;

private:
  bool refill();

  std::string path_;
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> file_;
  uint64_t file_size_ = 0;
  uint64_t line_number_ = 0;
  std::vector<char> buffer_;
  size_t pos_ = 0, end_ = 0;
  bool eof_ = false;
  std::string line_;
};

// Whitespace (space, tab, \v, \f, \r) separated fields of `line`.
void split_fields(std::string_view line, std::vector<std::string_view>& fields);
bool is_blank(std::string_view line);

// `text` made safe for a one-line message: quoted, control bytes escaped,
// long tokens shortened.
std::string quote(std::string_view text);

// A non-negative decimal integer; `what` names it in the error ("vertex count").
uint64_t parse_count(const LineReader& in, std::string_view token, std::string_view what);
// A 1-based vertex id in 1..n, returned 0-based.
VertexId parse_vertex_1based(const LineReader& in, std::string_view token, uint64_t n);
// A non-negative integer weight that fits 32 bits.
Weight parse_int_weight(const LineReader& in, std::string_view token);
// A finite non-negative real, rounded to the nearest integer weight.
Weight parse_real_weight(const LineReader& in, std::string_view token);

// Rejects a header that claims more items than the file could hold, given that
// each item needs at least `min_bytes` of text, or more than `limit`. Called
// before anything is reserved, so a lying header costs nothing.
void check_claimed(const LineReader& in, uint64_t claimed, uint64_t min_bytes,
                   std::string_view what, uint64_t limit);

// Fills name/source for a file-based edge list.
void describe(EdgeList& list, const std::string& path, std::string_view format);

} // namespace tlmgpu::graph::detail
