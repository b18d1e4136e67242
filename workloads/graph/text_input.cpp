#include "workloads/graph/text_input.hpp"

#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <limits>

namespace tlmgpu::graph::detail {

namespace {

// Longest accepted line. A METIS vertex with millions of neighbours needs tens
// of megabytes; anything longer is a binary file or a missing newline.
constexpr size_t kMaxLineBytes = size_t{1} << 26;
constexpr size_t kReadChunk = size_t{1} << 16;

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

} // namespace

LineReader::LineReader(const std::string& path)
    : path_(path), file_(std::fopen(path.c_str(), "rb"), &std::fclose), buffer_(kReadChunk) {
  if (!file_) throw GraphFormatError(path, 0, std::string("cannot open: ") + std::strerror(errno));
  std::error_code ec;
  const auto size = std::filesystem::file_size(path, ec);
  // Pipes and the like have no size; treat them as unbounded (limits still apply).
  file_size_ = ec ? std::numeric_limits<uint64_t>::max() : size;
}

void LineReader::fail_at(uint64_t line, const std::string& problem) const {
  throw GraphFormatError(path_, line, problem);
}

bool LineReader::refill() {
  if (eof_) return false;
  end_ = std::fread(buffer_.data(), 1, buffer_.size(), file_.get());
  pos_ = 0;
  if (end_ == 0) {
    if (std::ferror(file_.get())) fail_at(line_number_ + 1, "read error");
    eof_ = true;
    return false;
  }
  return true;
}

bool LineReader::next(std::string_view& line) {
  line_.clear();
  bool any = false;
  for (;;) {
    if (pos_ == end_ && !refill()) break;
    any = true;
    const char* start = buffer_.data() + pos_;
    const void* nl = std::memchr(start, '\n', end_ - pos_);
    const size_t take = nl ? static_cast<const char*>(nl) - start : end_ - pos_;
    if (line_.size() + take > kMaxLineBytes)
      fail_at(line_number_ + 1,
              "line longer than " + std::to_string(kMaxLineBytes) + " bytes (binary file?)");
    line_.append(start, take);
    pos_ += take;
    if (nl) {
      ++pos_;
      break;
    }
  }
  if (!any) return false;
  ++line_number_;
  if (!line_.empty() && line_.back() == '\r') line_.pop_back();
  line = line_;
  return true;
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

Weight parse_int_weight(const LineReader& in, std::string_view token) {
  const uint64_t w = parse_count(in, token, "weight");
  if (w > std::numeric_limits<Weight>::max())
    in.fail("weight " + std::to_string(w) + " does not fit 32 bits");
  return static_cast<Weight>(w);
}

Weight parse_real_weight(const LineReader& in, std::string_view token) {
  double value = 0;
  const char* end = token.data() + token.size();
  const auto [ptr, ec] = std::from_chars(token.data(), end, value);
  if (ec != std::errc() || ptr != end || !std::isfinite(value))
    in.fail("expected a weight, found " + quote(token));
  if (value < 0) in.fail("negative weight " + quote(token));
  const double rounded = std::nearbyint(value);
  if (rounded > static_cast<double>(std::numeric_limits<Weight>::max()))
    in.fail("weight " + quote(token) + " does not fit 32 bits");
  return static_cast<Weight>(rounded);
}

void check_claimed(const LineReader& in, uint64_t claimed, uint64_t min_bytes,
                   std::string_view what, uint64_t limit) {
  // n items of >= min_bytes each, the last possibly without its newline.
  const uint64_t size = in.file_size();
  const uint64_t fits =
      size == std::numeric_limits<uint64_t>::max() ? size : (size + 1) / min_bytes;
  if (claimed > fits)
    in.fail("header claims " + std::to_string(claimed) + " " + std::string(what) +
            " but a file of " + std::to_string(size) + " bytes holds at most " +
            std::to_string(fits));
  if (claimed > limit)
    in.fail("header claims " + std::to_string(claimed) + " " + std::string(what) +
            ", above the limit of " + std::to_string(limit));
}

void describe(EdgeList& list, const std::string& path, std::string_view format) {
  list.name = std::filesystem::path(path).stem().string();
  list.source = path + " (" + std::string(format) + ")";
}

} // namespace tlmgpu::graph::detail
