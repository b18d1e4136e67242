// A sweep is an experiment matrix read from a strict JSON spec (docs/sweeps.md):
// platforms x configs x workloads x inputs x seeds. Each point of the matrix is
// one `tlmgpu run` in its own directory. This file only reads and expands the
// spec; checking configs and workload names against the simulator is the
// CLI's job (it loads platforms exactly like `run`). Kernel-free.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace tlmgpu::sweep {

using KeyValues = std::vector<std::pair<std::string, std::string>>;

struct SweepConfig {
  std::string label;
  KeyValues sets;     // --set key=value, dotted keys, in spec order
  std::string timing; // "" = the sweep's timing
};

struct SweepWorkload {
  std::string label;    // the matrix coordinate ("PR")
  std::string workload; // registry name ("pagerank")
  KeyValues args;       // --arg key=value (without input), in spec order
  // Inputs as written (the coordinate) and as passed to `run` (relative
  // paths resolved against the spec's directory). One empty entry = no input.
  std::vector<std::string> inputs, resolved_inputs;
};

struct SweepSpec {
  std::string file; // as given on the command line, for messages
  std::string name, timing, baseline;
  std::vector<std::string> platforms;     // as written (coordinate)
  std::vector<std::string> platform_args; // as passed to `run -p`
  std::vector<SweepConfig> configs;
  std::vector<SweepWorkload> workloads;
  std::vector<uint64_t> seeds;
  // false: a passed point's stats.json is deleted once its marker holds the
  // summary (a paper-size sweep keeps ~3 GB of stats otherwise).
  bool keep_stats = true;
};

// Strict reader: unknown keys, wrong types, empty lists and duplicate labels
// or keys are ConfigErrors "<file>: <key path>: <what>". `base_dir` is where
// relative platform and input paths are resolved.
SweepSpec parse_spec(const std::string& text, const std::string& file,
                     const std::filesystem::path& base_dir);
SweepSpec load_spec(const std::string& path);

// One run of the matrix.
struct Point {
  std::size_t platform = 0, config = 0, workload = 0, input = 0; // indices into the spec
  uint64_t seed = 0;
  std::string dir;               // relative to DIR/points, e.g. "titanv/LAB-8/PR/karate/s1"
  std::string timing;            // effective timing mode
  std::vector<std::string> args; // "run" and its options, without --out/--quiet
};

// Every point in matrix order (platform, config, workload, input, seed), each
// with a unique, readable directory name.
std::vector<Point> expand(const SweepSpec& spec);

// A path segment from a label: [A-Za-z0-9._+-] kept, anything else becomes
// '_', never empty, never "." or "..".
std::string sanitize(const std::string& label);
// True for "scheme:..." inputs (digits:<path>), whose path part is a file.
bool has_scheme(const std::string& input);
// Short readable name of an input: "karate" for ".../karate.mtx",
// "rmat-scale12-ef8" for "gen:rmat?scale=12&ef=8".
std::string input_name(const std::string& input);

} // namespace tlmgpu::sweep
