// Platform loading: defaults, strict keys, types, ranges, extends, --set,
// effective-config round trip and cross-block constraints.
#include "tlmgpu/config.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <unistd.h>

using namespace tlmgpu;
namespace fs = std::filesystem;

namespace {

// A scratch directory of fixture files, removed at the end of the test.
struct TempDir {
  fs::path root;
  TempDir() {
    static std::atomic<int> counter{0};
    root = fs::temp_directory_path() /
           ("tlmgpu_config_test_" + std::to_string(::getpid()) + "_" + std::to_string(counter++));
    fs::create_directories(root);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(root, ec);
  }
  std::string write(const std::string& name, const std::string& text) const {
    const fs::path p = root / name;
    fs::create_directories(p.parent_path());
    std::ofstream(p) << text;
    return p.string();
  }
};

// The message of the ConfigError `f` throws ("" if it does not throw).
template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

std::string load_error(const std::string& path, const std::vector<std::string>& sets = {}) {
  return error_of([&] { load_platform(path, sets); });
}

} // namespace

TEST_CASE("config: an empty platform is all defaults", "[config]") {
  TempDir t;
  const PlatformSpec spec = load_platform(t.write("empty.json", "{}"), {});
  CHECK(spec.name == "unnamed");
  CHECK(spec.l2.ways == 24);
  CHECK(spec.dram.scheduler == "frfcfs");
  CHECK(spec.l1.write_allocate == false);
  CHECK(spec.sm.clock_mhz == 1200.0);
  CHECK(spec.l2.sets == 98304 / (24 * 128));
  CHECK(spec.l2.sectors_per_line == 4);
  CHECK(spec.l1.sets == 32768 / (64 * 128));
  CHECK(effective_config(spec) == effective_config(defaults<PlatformSpec>()));
}

TEST_CASE("config: values in the file are read", "[config]") {
  TempDir t;
  const PlatformSpec spec =
      load_platform(t.write("p.json", R"({"name": "p", "l2": {"ways": 16, "clock_mhz": 900},
                          "l1": {"write_allocate": true, "write_policy": "write_back"}})"),
                    {});
  CHECK(spec.name == "p");
  CHECK(spec.l2.ways == 16);
  CHECK(spec.l2.clock_mhz == 900.0); // an integer is a valid float
  CHECK(spec.l1.write_allocate);
  CHECK(spec.l1.write_policy == "write_back");
  CHECK(spec.l2.latency == 102); // untouched keys keep their defaults
}

TEST_CASE("config: unknown keys name the path and suggest the nearest key", "[config]") {
  TempDir t;
  const std::string p = t.write("x.json", R"({"l2": {"wayz": 16}})");
  CHECK(load_error(p) == "unknown key 'l2.wayz' in " + p + " (did you mean 'l2.ways'?)");

  const std::string far = t.write("far.json", R"({"l2": {"colour": 1}})");
  CHECK(load_error(far) == "unknown key 'l2.colour' in " + far);

  // A key put at the wrong level points to where it belongs.
  const std::string lvl = t.write("lvl.json", R"({"ways": 4})");
  CHECK_THAT(load_error(lvl), Catch::Contains("did you mean 'l1.ways', 'lab.ways' or 'l2.ways'?"));

  const std::string grp = t.write("grp.json", R"({"l3": {}})");
  CHECK_THAT(load_error(grp), Catch::Contains("unknown key 'l3'"));
}

TEST_CASE("config: wrong types are errors with file and key", "[config]") {
  TempDir t;
  auto err = [&](const std::string& json) { return load_error(t.write("x.json", json)); };
  const std::string f = (t.root / "x.json").string();
  CHECK(err(R"({"l2": {"ways": "abc"}})") ==
        f + ": l2.ways: expected an unsigned integer, got \"abc\"");
  CHECK(err(R"({"l2": {"ways": -1}})") == f + ": l2.ways: expected an unsigned integer, got -1");
  CHECK(err(R"({"l2": {"ways": 4.5}})") == f + ": l2.ways: expected an unsigned integer, got 4.5");
  CHECK(err(R"({"l2": {"ways": true}})") ==
        f + ": l2.ways: expected an unsigned integer, got true");
  CHECK(err(R"({"l1": {"write_allocate": 1}})") ==
        f + ": l1.write_allocate: expected true or false, got 1");
  CHECK(err(R"({"sm": {"clock_mhz": "fast"}})") ==
        f + ": sm.clock_mhz: expected a number, got \"fast\"");
  CHECK(err(R"({"name": 7})") == f + ": name: expected a string, got 7");
  CHECK(err(R"({"l2": 5})") == f + ": l2: expected an object (a group of parameters), got 5");
  CHECK(err(R"([1, 2])") == f + ": expected a JSON object at the top level, got [1,2]");
}

TEST_CASE("config: out-of-range values show the range", "[config]") {
  TempDir t;
  const std::string f = t.write("x.json", R"({"l2": {"ways": 0}})");
  CHECK(load_error(f) == f + ": l2.ways: 0 is out of range [1, 1024]");
  const std::string big = t.write("big.json", R"({"l2": {"ways": 5000000000}})");
  CHECK(load_error(big) == big + ": l2.ways: 5000000000 is out of range [1, 1024]");
  const std::string fl = t.write("fl.json", R"({"sm": {"clock_mhz": 0.5}})");
  CHECK(load_error(fl) == fl + ": sm.clock_mhz: 0.5 is out of range [1, 100000]");
}

TEST_CASE("config: a bad choice lists the options", "[config]") {
  TempDir t;
  const std::string f = t.write("x.json", R"({"dram": {"scheduler": "lifo"}})");
  CHECK(load_error(f) ==
        f + ": dram.scheduler: expected one of \"frfcfs\", \"fcfs\", got \"lifo\"");
}

TEST_CASE("config: malformed JSON reports file, line and column", "[config]") {
  TempDir t;
  const std::string f = t.write("bad.json", "{\n  \"l2\": {\n    \"ways\": 16,\n  }\n}\n");
  const std::string e = load_error(f);
  CHECK_THAT(e, Catch::StartsWith(f + ":4:3: malformed JSON: "));
  CHECK(e.find('\n') == std::string::npos);

  const std::string empty = t.write("empty.json", "");
  CHECK_THAT(load_error(empty), Catch::StartsWith(empty + ":1:1: malformed JSON: "));

  const std::string dup = t.write("dup.json", R"({"l2": {"ways": 4, "ways": 8}})");
  CHECK(load_error(dup) == dup + ": duplicate key 'l2.ways'");
}

TEST_CASE("config: a missing platform file is named", "[config]") {
  TempDir t;
  const std::string f = (t.root / "nope.json").string();
  CHECK(load_error(f) == "cannot open platform file '" + f + "': No such file or directory");
}

TEST_CASE("config: extends merges deeply, the child wins", "[config]") {
  TempDir t;
  t.write("base.json", R"({"name": "base", "description": "the base",
                          "l2": {"ways": 16, "latency": 200}, "dram": {"channels": 12}})");
  t.write("mid.json", R"({"extends": "base.json", "l2": {"latency": 150}, "sm": {"count": 40}})");
  const std::string child =
      t.write("variants/child.json", R"({"extends": "../mid.json", "name": "child",
                                         "l2": {"ways": 8}})");
  const PlatformSpec spec = load_platform(child, {});
  CHECK(spec.name == "child");
  CHECK(spec.description == "the base");
  CHECK(spec.l2.ways == 8);
  CHECK(spec.l2.latency == 150);
  CHECK(spec.dram.channels == 12);
  CHECK(spec.sm.count == 40);
  CHECK(spec.l2.slice_bytes == 98304); // default where no file says anything
}

TEST_CASE("config: errors name the file the value came from", "[config]") {
  TempDir t;
  const std::string base = t.write("base.json", R"({"l2": {"wayz": 4}})");
  const std::string child =
      t.write("child.json", R"({"extends": "base.json", "sm": {"count": 2}})");
  CHECK(load_error(child) == "unknown key 'l2.wayz' in " + base + " (did you mean 'l2.ways'?)");
  t.write("base.json", R"({"l2": {"ways": 0}})");
  CHECK(load_error(child) == base + ": l2.ways: 0 is out of range [1, 1024]");
  t.write("base.json", R"({"sm": {"count": 4}})");
  t.write("child.json", R"({"extends": "base.json", "sm": {"count": 0}})");
  CHECK(load_error(child) == child + ": sm.count: 0 is out of range [1, 4096]");
}

TEST_CASE("config: extends errors", "[config]") {
  TempDir t;
  const std::string orphan = t.write("orphan.json", R"({"extends": "gone.json"})");
  const std::string gone = (t.root / "gone.json").string();
  CHECK(load_error(orphan) ==
        orphan + ": extends: cannot open '" + gone + "': No such file or directory");

  const std::string a = t.write("a.json", R"({"extends": "b.json"})");
  const std::string b = t.write("b.json", R"({"extends": "a.json"})");
  CHECK(load_error(a) == b + ": extends: cycle: " + a + " -> " + b + " -> " + a);

  const std::string self = t.write("self.json", R"({"extends": "self.json"})");
  CHECK_THAT(load_error(self), Catch::Contains("cycle"));

  const std::string num = t.write("num.json", R"({"extends": 3})");
  CHECK_THAT(load_error(num), Catch::StartsWith(num + ": extends: expected a platform file name"));

  CHECK_THAT(error_of([] {
               platform_from_json(nlohmann::json{{"extends", "x.json"}}, "doc");
             }),
             Catch::StartsWith("doc: extends: "));
}

TEST_CASE("config: --set overrides files and is checked like them", "[config]") {
  TempDir t;
  const std::string base = t.write("base.json", R"({"l2": {"ways": 16}})");
  const std::string child = t.write("child.json", R"({"extends": "base.json"})");
  const PlatformSpec spec =
      load_platform(child, {"l2.ways=8", "dram.scheduler=fcfs", "name=my platform",
                            "sm.clock_mhz=1500.5", "l1.write_allocate=true"});
  CHECK(spec.l2.ways == 8);
  CHECK(spec.dram.scheduler == "fcfs");
  CHECK(spec.name == "my platform"); // not JSON: taken as a string
  CHECK(spec.sm.clock_mhz == 1500.5);
  CHECK(spec.l1.write_allocate);

  CHECK(load_error(child, {"l2.wayz=8"}) ==
        "unknown key 'l2.wayz' in --set (did you mean 'l2.ways'?)");
  CHECK(load_error(child, {"l2.ways=abc"}) ==
        "--set: l2.ways: expected an unsigned integer, got \"abc\"");
  CHECK(load_error(child, {"l2.ways=0"}) == "--set: l2.ways: 0 is out of range [1, 1024]");
  CHECK(load_error(child, {"l1.write_allocate=yes"}) ==
        "--set: l1.write_allocate: expected true or false, got \"yes\"");
  CHECK_THAT(load_error(child, {"l2.ways"}), Catch::Contains("expected key=value"));
  // A repeated key is an error, like a repeated --arg (the last one used to win silently).
  CHECK(load_error(child, {"l2.ways=8", "l2.ways=12"}) ==
        "--set l2.ways is given twice (a later value would silently win)");
  CHECK_THAT(load_error(child, {"l2=3"}), Catch::Contains("'l2' is a group"));

  // A group the file wrote as a scalar is reported against that file.
  const std::string scalar = t.write("scalar.json", R"({"l2": 4})");
  CHECK(load_error(scalar, {"l2.ways=8"}) ==
        scalar + ": l2: expected an object (a group of parameters), got 4");
}

TEST_CASE("config: the effective config loads back to the same spec", "[config]") {
  TempDir t;
  const std::string f = t.write("p.json", R"({"name": "rt", "l2": {"ways": 16, "clock_mhz": 1455.5},
                                              "dram": {"page_policy": "closed"}})");
  const PlatformSpec spec = load_platform(f, {"l1.bytes=0", "sim.quantum_cycles=77"});
  const nlohmann::json eff = effective_config(spec);
  CHECK(eff["l2"]["ways"] == 16);
  CHECK(eff["l1"]["bytes"] == 0);
  CHECK(eff["dram"]["page_policy"] == "closed");
  CHECK(eff["address_map"]["interleave_bytes"] == 256); // defaults are written too

  const PlatformSpec again = load_platform(t.write("eff.json", eff.dump(2)), {});
  CHECK(effective_config(again) == eff);
  CHECK(again.l2.sets == spec.l2.sets);
  CHECK(again.l1.sets == 0);
  CHECK(again.sm.clock_mhz == spec.sm.clock_mhz);
  CHECK(effective_config(platform_from_json(eff, "memory")) == eff);
}

TEST_CASE("config: cross-block constraints name the keys", "[config]") {
  TempDir t;
  const std::string f = t.write("p.json", "{}");
  CHECK(load_error(f, {"l1.bytes=65536"}) ==
        f + ": l1.bytes + shared_mem.bytes = 65536 + 98304 = 163840 exceeds "
            "sm.unified_sram_bytes (131072)");
  CHECK(load_error(f, {"l1.line_bytes=64"}) ==
        f + ": l1.line_bytes (64) must equal l2.line_bytes (128)");
  CHECK(load_error(f, {"l1.sector_bytes=64"}) ==
        f + ": l1.sector_bytes (64) must equal l2.sector_bytes (32)");
  CHECK(load_error(f, {"address_map.interleave_bytes=384"}) ==
        f + ": address_map.interleave_bytes (384) must be a power of two");
  CHECK(load_error(f, {"address_map.interleave_bytes=64"}) ==
        f + ": address_map.interleave_bytes (64) must be at least l2.line_bytes (128)");
  CHECK_THAT(load_error(f, {"dram.banks=15"}), Catch::Contains("dram.bank_groups"));
}

TEST_CASE("config: cache geometry is checked and derived", "[config]") {
  TempDir t;
  const std::string f = t.write("p.json", "{}");
  CHECK(load_error(f, {"l2.line_bytes=96"}) == f + ": l2.line_bytes (96) must be a power of two");
  CHECK(load_error(f, {"l2.sector_bytes=24"}) ==
        f + ": l2.sector_bytes (24) must be a power of two");
  CHECK(load_error(f, {"l2.line_bytes=32", "l2.sector_bytes=64"}) ==
        f + ": l2.sector_bytes (64) must divide l2.line_bytes (32)");
  CHECK(load_error(f, {"l2.line_bytes=256", "l2.sector_bytes=4"}) ==
        f + ": l2.line_bytes / l2.sector_bytes = 256 / 4 = 64 sectors per line; at most 32 are "
            "supported");
  CHECK(load_error(f, {"l2.slice_bytes=100000"}) ==
        f + ": l2.slice_bytes (100000) must be a multiple of l2.ways * l2.line_bytes = 24 * 128 = "
            "3072 (a whole number of sets; 100000 / 3072 leaves 1696)");
  CHECK(load_error(f, {"l2.slice_bytes=2048"}) ==
        f + ": l2.slice_bytes (2048) is smaller than one set: l2.ways * l2.line_bytes = 24 * 128 = "
            "3072");
  CHECK_THAT(load_error(f, {"l1.bytes=10000"}),
             Catch::StartsWith(f + ": l1.bytes (10000) must be a multiple of l1.ways"));

  const PlatformSpec off = load_platform(f, {"l1.bytes=0"});
  CHECK(off.l1.sets == 0); // a disabled L1 has no sets
  CHECK(off.l1.sectors_per_line == 4);
  const PlatformSpec odd = load_platform(f, {"l2.ways=16", "l2.slice_bytes=6144"});
  CHECK(odd.l2.sets == 3); // sets need not be a power of two
}

TEST_CASE("config: describe rows and blocks", "[config]") {
  const auto rows = describe_block("l2");
  bool has_ways = false;
  for (const ParamRow& r : rows)
    has_ways |= r.path == "l2.ways" && r.range == "[1, 1024]";
  CHECK(has_ways);
  CHECK(block_names() == std::vector<std::string>{"sim", "sm", "l1", "lab", "dab", "gpudet",
                                                  "shared_mem", "xbar", "l2", "dram", "address_map",
                                                  "mmio", "scu", "iru", "energy", "area",
                                                  "jitter"});
  for (const std::string& b : block_names())
    CHECK_FALSE(describe_block(b).empty());
  CHECK_THAT(error_of([] { describe_block("l3"); }),
             Catch::StartsWith("unknown block 'l3' (did you mean 'l1'?)"));

  const std::string table = render_describe(rows);
  CHECK_THAT(table, Catch::StartsWith("KEY "));
  CHECK_THAT(table, Catch::Contains("l2.ways"));
  CHECK_THAT(table, Catch::Contains("associativity"));
}

TEST_CASE("config: suggestions only for plausible typos", "[config]") {
  CHECK(edit_distance("ways", "wayz") == 1);
  CHECK(edit_distance("rnu", "run") == 1); // a swap is one edit
  CHECK(edit_distance("", "abc") == 3);
  const std::vector<std::string> keys = {"ways", "latency", "line_bytes", "clock_mhz"};
  CHECK(closest_match("wayz", keys) == "ways");
  CHECK(closest_match("Latency", keys) == "latency");
  CHECK(closest_match("line_byte", keys) == "line_bytes");
  CHECK(closest_match("clock", keys) == "clock_mhz");
  CHECK(closest_match("colour", keys) == "");
  CHECK(closest_match("x", keys) == "");
}
