#include "workloads/graph/text_input.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <limits>

namespace tlmgpu::graph::detail {

namespace {

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

} // namespace

io::LineReader LineReader::open(const std::string& path) {
  try {
    return io::LineReader(path);
  } catch (const io::InputError& e) {
    throw GraphFormatError(path, e.line(), e.problem());
  }
}

LineReader::LineReader(const std::string& path) : in_(open(path)) {}

void LineReader::fail_at(uint64_t line, const std::string& problem) const {
  throw GraphFormatError(path(), line, problem);
}

bool LineReader::next(std::string_view& line) {
  try {
    return in_.next(line);
  } catch (const io::InputError& e) {
    fail_at(e.line(), e.problem());
  }
}

void split_fields(std::string_view line, std::vector<std::string_view>& fields) {
  fields.clear();
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && is_space(line[i]))
      ++i;
    const size_t start = i;
    while (i < line.size() && !is_space(line[i]))
      ++i;
    if (i > start) fields.push_back(line.substr(start, i - start));
  }
}

bool is_blank(std::string_view line) {
  for (char c : line)
    if (!is_space(c)) return false;
  return true;
}

std::string quote(std::string_view text) {
  constexpr size_t kMaxShown = 40;
  std::string out = "'";
  for (size_t i = 0; i < text.size() && i < kMaxShown; ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c >= 0x20 && c < 0x7f) {
      out += static_cast<char>(c);
    } else {
      char hex[8];
      std::snprintf(hex, sizeof hex, "\\x%02x", c);
      out += hex;
    }
  }
  if (text.size() > kMaxShown) out += "...";
  return out + "'";
}

uint64_t parse_count(const LineReader& in, std::string_view token, std::string_view what) {
  uint64_t value = 0;
  const char* end = token.data() + token.size();
  const auto [ptr, ec] = std::from_chars(token.data(), end, value);
  if (!token.empty() && token[0] == '-' && token.size() > 1 &&
      std::isdigit(static_cast<unsigned char>(token[1])))
    in.fail("negative " + std::string(what) + " " + quote(token));
  if (ec == std::errc::result_out_of_range)
    in.fail(std::string(what) + " " + quote(token) + " is out of range");
  if (ec != std::errc() || ptr != end)
    in.fail("expected " + std::string(what) + ", found " + quote(token));
  return value;
}

VertexId parse_vertex_1based(const LineReader& in, std::string_view token, uint64_t n) {
  const uint64_t id = parse_count(in, token, "vertex id");
  if (id < 1 || id > n)
    in.fail("vertex id " + std::to_string(id) + " out of range 1.." + std::to_string(n));
  return static_cast<VertexId>(id - 1);
}

void check_claimed(const LineReader& in, uint64_t claimed, uint64_t min_bytes,
                   std::string_view what, uint64_t limit, std::string_view note) {
  // n items of >= min_bytes each, the last possibly without its newline.
  const uint64_t size = in.size_bound();
  const uint64_t fits =
      size == std::numeric_limits<uint64_t>::max() ? size : (size + 1) / min_bytes;
  if (claimed > fits) {
    const std::string file = in.compression() == io::Compression::none
                                 ? "a file of " + std::to_string(size) + " bytes"
                                 : "a " + std::string(io::compression_name(in.compression())) +
                                       " file of " + std::to_string(in.file_size()) +
                                       " bytes (at most " + std::to_string(size) + " decompressed)";
    in.fail("header claims " + std::to_string(claimed) + " " + std::string(what) + " but " + file +
            " holds at most " + std::to_string(fits));
  }
  if (claimed > limit)
    in.fail("header claims " + std::to_string(claimed) + " " + std::string(what) +
            ", above the limit of " + std::to_string(limit) + std::string(note));
}

uint64_t reservable(const LineReader& in, uint64_t claimed) {
  // Without a bound from the file size a header is only checked against the
  // limits, which may be far above what the file holds: grow instead.
  constexpr uint64_t kUncheckedReserve = uint64_t{1} << 20;
  return in.size_bound() == std::numeric_limits<uint64_t>::max()
             ? std::min(claimed, kUncheckedReserve)
             : claimed;
}

void describe(EdgeList& list, const LineReader& in, std::string_view format) {
  const std::string path = in.path();
  list.name = std::filesystem::path(io::strip_compression_suffix(path)).stem().string();
  const std::string_view zip = io::compression_name(in.compression());
  list.source =
      path + " (" + std::string(format) + (zip.empty() ? "" : ", " + std::string(zip)) + ")";
}

} // namespace tlmgpu::graph::detail
