// io::LineReader: every compression read transparently, recognised by its
// magic bytes whatever the file name; damaged and truncated streams are an
// InputError naming the line being read, never a silently short file.
#include "workloads/graph/tests/temp_files.hpp"
#include "workloads/io/input_file.hpp"
#include "workloads/io/tests/compress.hpp"

#include <catch2/catch.hpp>

#include <limits>

using namespace tlmgpu;
using namespace tlmgpu::io;
using tlmgpu::test::compress;
using tlmgpu::test::TempDir;

namespace {

std::vector<std::string> read_lines(const std::string& path, Compression* seen = nullptr) {
  LineReader in(path);
  std::vector<std::string> lines;
  std::string_view line;
  while (in.next(line))
    lines.emplace_back(line);
  if (seen) *seen = in.compression();
  return lines;
}

// Large enough to span several decompression chunks (64 KiB).
std::string many_lines() {
  std::string text;
  for (int i = 0; i < 30000; ++i)
    text += std::to_string(i) + " " + std::to_string(i * 7 % 1000) + (i % 3 ? "\n" : "\r\n");
  return text;
}

} // namespace

TEST_CASE("LineReader reads every compression by its magic bytes", "[io]") {
  TempDir dir;
  const std::string text = many_lines();
  for (Compression c : test::kAllCompressions) {
    INFO("compression " << compression_name(c));
    // A misleading name on purpose: the content decides.
    const std::string path = dir.write("data.txt", compress(c, text));
    Compression seen = Compression::none;
    const std::vector<std::string> lines = read_lines(path, &seen);
    CHECK(seen == c);
    REQUIRE(lines.size() == 30000);
    CHECK(lines[0] == "0 0"); // CRLF: the '\r' is dropped
    CHECK(lines[29999] == "29999 993");
    CHECK(read_head(path, 7) == "0 0\r\n1 ");
  }
}

TEST_CASE("concatenated gzip and bzip2 streams read as one", "[io]") {
  TempDir dir;
  for (Compression c :
       {Compression::gzip, Compression::bzip2, Compression::xz, Compression::zstd}) {
    INFO("compression " << compression_name(c));
    const std::string path = dir.write("cat", compress(c, "a\nb\n") + compress(c, "c\n"));
    CHECK(read_lines(path) == std::vector<std::string>{"a", "b", "c"});
  }
}

TEST_CASE("truncated or damaged compressed input is an error with a line", "[io]") {
  TempDir dir;
  const std::string text = many_lines();
  for (Compression c :
       {Compression::gzip, Compression::xz, Compression::bzip2, Compression::zstd}) {
    INFO("compression " << compression_name(c));
    const std::string packed = compress(c, text);
    for (size_t keep : {packed.size() / 2, packed.size() - 3}) {
      const std::string path = dir.write("cut", packed.substr(0, keep));
      try {
        read_lines(path);
        FAIL("a truncated stream was read to the end");
      } catch (const InputError& e) {
        CHECK(e.line() >= 1);
        CHECK_THAT(e.problem(), Catch::Contains("decompression failed (" +
                                                std::string(compression_name(c)) + ")"));
      }
    }
    std::string damaged = packed;
    for (size_t i = packed.size() / 3; i < packed.size() / 3 + 64; ++i)
      damaged[i] = static_cast<char>(damaged[i] ^ 0x5a);
    CHECK_THROWS_AS(read_lines(dir.write("bad", damaged)), InputError);
  }
}

TEST_CASE("text that starts like a magic number stays text", "[io]") {
  TempDir dir;
  Compression seen = Compression::gzip;
  CHECK(read_lines(dir.write("bz.txt", "BZh9 is a gene\nx y\n"), &seen).size() == 2);
  CHECK(seen == Compression::none);
  CHECK(read_lines(dir.write("empty.txt", "")).empty());
  CHECK(read_lines(dir.write("nonl.txt", "a b")) == std::vector<std::string>{"a b"});
}

TEST_CASE("LineReader limits and errors", "[io]") {
  TempDir dir;
  CHECK_THROWS_WITH(LineReader(dir.path("none")), "cannot open: No such file or directory");
  const std::string path =
      dir.write("long.gz", compress(Compression::gzip, "ok\n" + std::string(100, 'x')));
  LineReader in(path, 50);
  std::string_view line;
  REQUIRE(in.next(line));
  try {
    in.next(line);
    FAIL("a line over the limit was accepted");
  } catch (const InputError& e) {
    CHECK(e.line() == 2);
    CHECK_THAT(e.problem(), Catch::Contains("line longer than 50 bytes"));
  }
}

TEST_CASE("size bounds: exact when plain, deflate's ratio for gzip, none otherwise", "[io]") {
  TempDir dir;
  const std::string text = "1 2\n";
  CHECK(LineReader(dir.write("a", text)).size_bound() == 4);
  const std::string gz = compress(Compression::gzip, text);
  CHECK(LineReader(dir.write("b", gz)).size_bound() == gz.size() * 1032);
  CHECK(LineReader(dir.write("c", compress(Compression::xz, text))).size_bound() ==
        std::numeric_limits<uint64_t>::max());
}

TEST_CASE("strip_compression_suffix", "[io]") {
  CHECK(strip_compression_suffix("web-Google.txt.gz") == "web-Google.txt");
  CHECK(strip_compression_suffix("a.mtx.XZ") == "a.mtx");
  CHECK(strip_compression_suffix("dir.gz/out.x.bz2") == "dir.gz/out.x");
  CHECK(strip_compression_suffix("g.graph.zst") == "g.graph");
  CHECK(strip_compression_suffix("plain.gml") == "plain.gml");
}
