#include "workloads/graph/tests/temp_files.hpp"
#include "workloads/io/tests/compress.hpp"
#include "workloads/ml/digits.hpp"

#include <catch2/catch.hpp>

#include <array>
#include <fstream>
#include <sstream>

#include <zlib.h>

using namespace tlmgpu::ml;
using tlmgpu::test::compress;
using tlmgpu::test::shared_data;
using tlmgpu::test::TempDir;

namespace {

std::string write_gz(const TempDir& dir, const std::string& name, const std::string& text) {
  const std::string path = dir.path(name);
  gzFile f = gzopen(path.c_str(), "wb");
  REQUIRE(f != nullptr);
  if (!text.empty()) gzwrite(f, text.data(), static_cast<unsigned>(text.size()));
  gzclose(f);
  return path;
}

// One valid row: pixels 0..63 mod 17, then the label.
std::string row(int label, int columns = 65) {
  std::ostringstream out;
  for (int i = 0; i < columns - 1; ++i)
    out << (i % 17) << ',';
  out << label << '\n';
  return out.str();
}

} // namespace

TEST_CASE("digits.csv.gz: 1797 rows, 64 pixels, labels 0-9", "[ml][digits]") {
  const DigitsData d = read_digits(shared_data("digits.csv.gz"));
  CHECK(d.rows == 1797);
  CHECK(d.pixels.size() == 1797 * 64);
  CHECK(d.labels.size() == 1797);
  // Per-class counts of scikit-learn's load_digits().
  std::array<int, 10> count{};
  for (uint8_t l : d.labels)
    ++count.at(l);
  CHECK(count == std::array<int, 10>{178, 182, 177, 183, 181, 182, 181, 179, 174, 180});
  // First row of the file: "0,0,5,13,9,1,0,0,..." label 0.
  CHECK(d.row(0)[2] == 5);
  CHECK(d.row(0)[3] == 13);
  CHECK(d.labels[0] == 0);
  CHECK(d.labels[1] == 1);
  for (uint8_t p : d.pixels)
    CHECK(p <= 16);
}

TEST_CASE("hand-written digits files", "[ml][digits]") {
  TempDir dir;
  const DigitsData d = read_digits(write_gz(dir, "ok.csv.gz", row(3) + row(7) + "\n"));
  CHECK(d.rows == 2);
  CHECK(d.labels == std::vector<uint8_t>{3, 7});
  CHECK(d.row(1)[16] == 16);
  // Plain and every other compression, recognised by content (issue 18).
  for (tlmgpu::io::Compression c : tlmgpu::test::kAllCompressions) {
    INFO(tlmgpu::io::compression_name(c));
    const DigitsData other = read_digits(dir.write("digits.csv", compress(c, row(4) + row(9))));
    CHECK(other.labels == std::vector<uint8_t>{4, 9});
  }
  // CRLF line ends are accepted.
  std::string crlf = row(5);
  crlf.insert(crlf.size() - 1, "\r");
  CHECK(read_digits(write_gz(dir, "crlf.csv.gz", crlf)).rows == 1);
}

TEST_CASE("malformed digits files give file:line errors", "[ml][digits]") {
  TempDir dir;
  struct Bad {
    std::string name, text, expected;
  };
  std::string header_then_row = "p0";
  for (int i = 1; i < 64; ++i)
    header_then_row += ",p" + std::to_string(i);
  header_then_row += ",label\n" + row(1);
  const Bad cases[] = {
      {"short.gz", row(1) + row(2, 64), ":2: expected 65 columns, found 64"},
      {"long.gz", row(1).substr(0, row(1).size() - 1) + ",2\n", ":1: more than 65 columns"},
      {"label.gz", row(10), ":1: label 10 outside 0..9"},
      {"pixel.gz", "17," + row(1).substr(2), ":1: column 1: pixel value 17 outside 0..16"},
      {"word.gz", row(1) + "x" + row(1), ":2: column 1: expected an integer, found 'x0'"},
      {"negative.gz", "-1," + row(1).substr(2), ":1: column 1: expected an integer"},
      {"empty_field.gz", ",0" + row(1).substr(1), ":1: column 1: expected an integer, found ''"},
      {"header.gz", header_then_row, ":1: column 1: expected an integer, found 'p0'"},
      {"empty.gz", "", ": no data rows"},
  };
  for (const Bad& c : cases) {
    const std::string path = write_gz(dir, c.name, c.text);
    try {
      read_digits(path);
      FAIL("accepted " << c.name);
    } catch (const DigitsFormatError& e) {
      const std::string what = e.what();
      INFO(what);
      CHECK(what.rfind(path, 0) == 0);
      CHECK(what.find(c.expected) != std::string::npos);
      CHECK(what.find('\n') == std::string::npos);
    }
  }
}

TEST_CASE("missing and truncated digits files", "[ml][digits]") {
  TempDir dir;
  const std::string missing = dir.path("none.csv.gz");
  CHECK_THROWS_WITH(read_digits(missing), missing + ": cannot open: No such file or directory");

  std::string many;
  for (int i = 0; i < 200; ++i)
    many += row(i % 10);
  const std::string full = write_gz(dir, "full.csv.gz", many);
  std::ifstream in(full, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string cut = dir.write("cut.csv.gz", bytes.substr(0, bytes.size() / 2));
  CHECK_THROWS_WITH(read_digits(cut),
                    Catch::Contains("cut.csv.gz:") && Catch::Contains("decompression failed"));
}
