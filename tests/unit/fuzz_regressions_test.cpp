// Every input saved from fuzzing (tests/data/fuzz/<harness>/, scripts/fuzz.sh)
// replayed through the same code as its harness (fuzz/fuzz_targets.hpp): an
// input that once crashed a reader must now be accepted or rejected with the
// documented error. Runs in the normal suite and under the sanitizer gate.
#include "fuzz/fuzz_targets.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace fs = std::filesystem;
using namespace tlmgpu;

namespace {

struct GraphHarness {
  const char* name;
  fuzz::GraphReader read;
  const char* suffix;
};

const GraphHarness kGraphHarnesses[] = {
    {"mtx", &graph::read_matrix_market, ".mtx"}, {"edge_list", &graph::read_edge_list, ".txt"},
    {"metis", &graph::read_metis, ".graph"},     {"dimacs", &graph::read_dimacs_gr, ".gr"},
    {"tntp", &graph::read_tntp, ".tntp"},        {"gml", &graph::read_gml, ".gml"},
};

std::vector<fs::path> saved(const std::string& harness) {
  std::vector<fs::path> files;
  const fs::path dir = fs::path(TLMGPU_SOURCE_DIR) / "tests/data/fuzz" / harness;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.is_regular_file()) files.push_back(e.path());
  std::sort(files.begin(), files.end());
  return files;
}

std::string bytes_of(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

} // namespace

TEST_CASE("fuzz regressions: graph readers", "[fuzz]") {
  for (const GraphHarness& h : kGraphHarnesses)
    for (const fs::path& input : saved(h.name)) {
      INFO(input.string());
      // The harness wrote each input under its reader's suffix, and the
      // first byte's low bit chose the build policy.
      const std::string bytes = bytes_of(input);
      const fs::path copy =
          fs::temp_directory_path() / ("tlmgpu_fuzz_" + std::to_string(::getpid()) + h.suffix);
      std::ofstream(copy, std::ios::binary) << bytes;
      CHECK_NOTHROW(fuzz::graph_file(h.read, copy.string(), !bytes.empty() && (bytes[0] & 1)));
      fs::remove(copy);
    }
}

TEST_CASE("fuzz regressions: platform, sweep spec and results readers", "[fuzz]") {
  for (const fs::path& input : saved("platform")) {
    INFO(input.string());
    CHECK_NOTHROW(fuzz::platform_file(input.string()));
  }
  for (const fs::path& input : saved("sweep_spec")) {
    INFO(input.string());
    CHECK_NOTHROW(fuzz::sweep_spec_text(bytes_of(input)));
  }
  for (const fs::path& input : saved("results")) {
    INFO(input.string());
    CHECK_NOTHROW(fuzz::results_text(bytes_of(input)));
  }
}
