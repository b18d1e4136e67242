// Outputs all or nothing (tlmgpu/result_dir.hpp, file_io.hpp, manifest.hpp)
// and the JSON depth limit (json_limits.hpp), without a simulation.
#include "tlmgpu/file_io.hpp"
#include "tlmgpu/json_limits.hpp"
#include "tlmgpu/manifest.hpp"
#include "tlmgpu/result_dir.hpp"

#include <catch2/catch.hpp>

#include <fstream>
#include <unistd.h>

using namespace tlmgpu;
namespace fs = std::filesystem;

namespace {

struct Scratch {
  fs::path root = fs::temp_directory_path() / ("tlmgpu_result_dir_" + std::to_string(getpid()));
  Scratch() {
    fs::remove_all(root);
    fs::create_directories(root);
  }
  ~Scratch() {
    std::error_code ec;
    fs::remove_all(root, ec);
  }
};

std::string slurp(const fs::path& p) {
  std::string s;
  REQUIRE(read_text_file(p.string(), s));
  return s;
}

} // namespace

TEST_CASE("result dir: a new --out appears whole at commit, or not at all", "[output]") {
  Scratch s;
  const fs::path out = s.root / "run";
  {
    ResultDir dir(out);
    CHECK(dir.staging().parent_path() == s.root); // beside: one rename
    write_file_checked(dir.staging() / "a.txt", "alpha");
    CHECK_FALSE(fs::exists(out));
    CHECK(dir.shown(dir.staging() / "a.txt") == out / "a.txt");
    dir.commit();
  }
  CHECK(slurp(out / "a.txt") == "alpha");
  CHECK(verify_manifest(out, {"a.txt"}).empty());
  {
    ResultDir dir(s.root / "abandoned");
    write_file_checked(dir.staging() / "a.txt", "alpha");
  } // no commit: as if an error had been thrown
  CHECK(std::distance(fs::directory_iterator(s.root), fs::directory_iterator()) == 1);
}

TEST_CASE("result dir: a rerun into an existing --out keeps foreign files", "[output]") {
  Scratch s;
  const fs::path out = s.root / "run";
  {
    ResultDir dir(out);
    write_file_checked(dir.staging() / "old.txt", "old");
    write_file_checked(dir.staging() / "same.txt", "1");
    dir.commit();
  }
  std::ofstream(out / "stdout.txt") << "captured by a sweep";
  {
    ResultDir dir(out);
    CHECK(dir.staging().parent_path() == out); // inside: no rename across file systems
    fs::create_directory(dir.staging() / "device_0");
    write_file_checked(dir.staging() / "device_0" / "r.txt", "r");
    write_file_checked(dir.staging() / "same.txt", "2");
    dir.commit();
  }
  CHECK(slurp(out / "same.txt") == "2");
  CHECK(slurp(out / "device_0" / "r.txt") == "r");
  CHECK(slurp(out / "stdout.txt") == "captured by a sweep");
  CHECK_FALSE(fs::exists(out / "old.txt")); // the previous run's, not written again
  CHECK(verify_manifest(out, {"same.txt", "device_0/r.txt"}).empty());
  std::ofstream(out / "same.txt") << "changed";
  CHECK(verify_manifest(out).find("same.txt: 7 bytes, manifest.json says 1") != std::string::npos);
}

TEST_CASE("result dir: --out that is a file is refused before anything is written", "[output]") {
  Scratch s;
  std::ofstream(s.root / "file") << "x";
  CHECK_THROWS_WITH(ResultDir(s.root / "file"), Catch::Contains("exists and is not a directory"));
  CHECK_THROWS_AS(ResultDir(s.root / "file" / "x"), OutputError);
}

TEST_CASE("file writer: a failed write names the file and the reason", "[output]") {
  // /dev/full accepts open() and fails every write with ENOSPC.
  FileWriter f("/dev/full", "out/stats.json");
  f.stream() << std::string(1 << 17, 'x');
  CHECK_THROWS_WITH(f.close(), "cannot write 'out/stats.json': No space left on device");
}

TEST_CASE("json: nesting beyond the limit is an error while parsing", "[json]") {
  auto nested = [](int n) { return std::string(n, '[') + std::string(n, ']'); };
  CHECK(parse_json(nested(kMaxJsonDepth), "f.json").is_array());
  CHECK_THROWS_WITH(parse_json(nested(kMaxJsonDepth + 1), "f.json"),
                    "f.json: JSON nested deeper than 256 levels (the limit)");
  CHECK_THROWS_WITH(parse_json<nlohmann::ordered_json>(nested(100000), "f.json"),
                    Catch::Contains("deeper than 256"));
  CHECK(try_parse_json(nested(100000)).is_discarded());
  CHECK(try_parse_json("{").is_discarded());
}
