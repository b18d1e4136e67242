#include "workloads/ml/digits.hpp"

#include "workloads/io/input_file.hpp"

#include <charconv>
#include <string_view>

namespace tlmgpu::ml {

namespace {

// A row is 65 numbers of at most two digits plus commas: about 200 bytes.
// Anything much longer is not this file.
constexpr size_t kLineBuffer = 4096;
constexpr size_t kColumns = kDigitsPixels + 1;
// The real file has 1797 rows; the cap stops a bogus input from growing
// without bound while leaving room for larger versions of the data set.
constexpr size_t kMaxRows = size_t{1} << 24;

std::string format(const std::string& file, uint64_t line, const std::string& problem) {
  return line == 0 ? file + ": " + problem : file + ":" + std::to_string(line) + ": " + problem;
}

std::string shown(std::string_view field) {
  std::string out;
  for (char c : field.substr(0, 20))
    out += (c >= 0x20 && c < 0x7f) ? c : '?';
  return "'" + out + (field.size() > 20 ? "...'" : "'");
}

} // namespace

DigitsFormatError::DigitsFormatError(const std::string& file, uint64_t line,
                                     const std::string& problem)
    : std::runtime_error(format(file, line, problem)) {}

DigitsData read_digits(const std::string& path) {
  DigitsData data;
  uint64_t line_no = 0;
  auto fail = [&](const std::string& problem) { throw DigitsFormatError(path, line_no, problem); };
  try {
    io::LineReader in(path, kLineBuffer);
    std::string_view line;
    while (in.next(line)) {
      line_no = in.line_number();
      if (line.empty()) continue; // e.g. a blank last line; it carries no row
      if (data.rows >= kMaxRows) fail("more than " + std::to_string(kMaxRows) + " rows");
      size_t column = 0;
      while (true) {
        const size_t comma = line.find(',');
        const std::string_view field = line.substr(0, comma);
        if (column >= kColumns) fail("more than " + std::to_string(kColumns) + " columns");
        unsigned value = 0;
        const auto [ptr, ec] = std::from_chars(field.data(), field.data() + field.size(), value);
        if (ec != std::errc() || ptr != field.data() + field.size())
          fail("column " + std::to_string(column + 1) + ": expected an integer, found " +
               shown(field));
        if (column < kDigitsPixels) {
          if (value > kDigitsMaxPixel)
            fail("column " + std::to_string(column + 1) + ": pixel value " + std::to_string(value) +
                 " outside 0..16");
          data.pixels.push_back(static_cast<uint8_t>(value));
        } else {
          if (value >= kDigitsClasses) fail("label " + std::to_string(value) + " outside 0..9");
          data.labels.push_back(static_cast<uint8_t>(value));
        }
        ++column;
        if (comma == std::string_view::npos) break;
        line.remove_prefix(comma + 1);
      }
      if (column != kColumns)
        fail("expected " + std::to_string(kColumns) + " columns, found " + std::to_string(column));
      ++data.rows;
    }
  } catch (const io::InputError& e) {
    throw DigitsFormatError(path, e.line(), e.problem());
  }
  if (data.rows == 0) throw DigitsFormatError(path, 0, "no data rows");
  return data;
}

} // namespace tlmgpu::ml
