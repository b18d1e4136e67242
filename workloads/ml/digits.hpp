// The UCI optical-recognition digits as shipped with scikit-learn
// (../shared/data/digits.csv.gz): 1797 rows of 64 pixel intensities 0..16
// (an 8x8 image, row-major) followed by the label 0..9. The file has no
// header line; every line must be a data row.
//
// Pixels stay uint8: the file holds small integers, and the logreg workload
// decides its own scaling when it turns them into float features.
#pragma once

#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace tlmgpu::ml {

inline constexpr size_t kDigitsPixels = 64;
inline constexpr uint8_t kDigitsMaxPixel = 16;
inline constexpr uint8_t kDigitsClasses = 10;

struct DigitsData {
  size_t rows = 0;
  std::vector<uint8_t> pixels; // rows * kDigitsPixels, row-major
  std::vector<uint8_t> labels; // rows

  std::span<const uint8_t> row(size_t i) const {
    return {pixels.data() + i * kDigitsPixels, kDigitsPixels};
  }
};

// A malformed or unreadable digits file; what() is one line,
// "<file>:<line>: <problem>" ("<file>: <problem>" when no line is involved).
class DigitsFormatError : public std::runtime_error {
public:
  DigitsFormatError(const std::string& file, uint64_t line, const std::string& problem);
};

// Reads the CSV, plain or compressed (gzip, xz, bzip2 or zstd: io::LineReader).
DigitsData read_digits(const std::string& path);

} // namespace tlmgpu::ml
