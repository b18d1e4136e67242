// Shared plumbing of the text graph readers: a bounded line reader that knows
// its file and line for error messages, field splitting, and strict number
// parsing. Internal to workloads/graph; the public entry points are in
// readers.hpp.
//
// Why strict: a reader must turn any malformed file into one GraphFormatError,
// and stream >> silently accepts "12abc", so it is not used.
#pragma once

#include "workloads/graph/csr_graph.hpp"
#include "workloads/io/input_file.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace tlmgpu::graph::detail {

// io::LineReader (which decompresses gzip, xz, bzip2 and zstd transparently)
// with the graph readers' error type: every problem is a GraphFormatError
// "<path>:<line>: <problem>".
class LineReader {
public:
  // Throws GraphFormatError("<path>: cannot open: <reason>") for a missing file.
  explicit LineReader(const std::string& path);

  // Next line without its terminator ("\n" or "\r\n"); false at end of file.
  // The view stays valid until the next call.
  bool next(std::string_view& line);
  // 1-based number of the line last returned (after EOF: the last line).
  uint64_t line_number() const { return in_.line_number(); }
  // Most bytes the (decompressed) text can hold; see io::LineReader.
  uint64_t size_bound() const { return in_.size_bound(); }
  uint64_t file_size() const { return in_.file_size(); }
  io::Compression compression() const { return in_.compression(); }
  const std::string& path() const { return in_.path(); }

  [[noreturn]] void fail(const std::string& problem) const { fail_at(line_number(), problem); }
  [[noreturn]] void fail_at(uint64_t line, const std::string& problem) const;

private:
  static io::LineReader open(const std::string& path);
  io::LineReader in_;
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
// Rejects a header that claims more items than the file could hold, given that
// each item needs at least `min_bytes` of text, or more than `limit` (`note`
// says where the limit came from, GraphBuildOptions::limit_note). Called
// before anything is reserved, so a lying header costs nothing.
// For compressed input the bound is deflate's largest ratio (gzip) or none.
void check_claimed(const LineReader& in, uint64_t claimed, uint64_t min_bytes,
                   std::string_view what, uint64_t limit, std::string_view note = {});
// How many of `claimed` items to reserve: all when check_claimed had a size
// bound to check them against, otherwise a modest start (vectors grow).
uint64_t reservable(const LineReader& in, uint64_t claimed);

// Fills name/source for a file-based edge list: the name is the file stem
// without a compression suffix, the source names the format and compression.
void describe(EdgeList& list, const LineReader& in, std::string_view format);

} // namespace tlmgpu::graph::detail
