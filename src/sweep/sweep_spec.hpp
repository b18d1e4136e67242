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
  KeyValues args;     // --arg key=value added to every workload's (reserved key "args")
};

struct SweepWorkload {
  std::string label;    // the matrix coordinate ("PR")
  std::string workload; // registry name ("pagerank")
  KeyValues args;       // --arg key=value (without input), in spec order
  // Inputs as written (the coordinate) and as passed to `run` (relative
  // paths resolved against the spec's directory). One empty entry = no input.
  std::vector<std::string> inputs, resolved_inputs;
};

// A figure of the report beyond its standard ones (docs/sweeps.md, "Spec
// figures"): `metric` normalised to the baseline for the listed configs,
// e.g. one paper figure's design points.
struct SweepFigure {
  std::string title, caption, metric;
  std::vector<std::string> configs; // labels of the spec's configs, in bar order
};

struct SweepSpec {
  std::string file; // as given on the command line, for messages
  std::string name, timing, baseline;
  std::vector<std::string> platforms;     // as written (coordinate)
  std::vector<std::string> platform_args; // as passed to `run -p`
  std::vector<SweepConfig> configs;
  std::vector<SweepWorkload> workloads;
  std::vector<uint64_t> seeds;
  std::vector<SweepFigure> figures;
  // false: a passed point's stats.json is deleted once its marker holds the
  // summary (a paper-size sweep keeps ~3 GB of stats otherwise).
  bool keep_stats = true;
  // The spec's "backend" section: where the points run (docs/sweeps.md,
  // "Backends"); command-line flags override it. "" = not given.
  struct Backend {
    std::string type;                          // local | parallel | slurm
    std::string partition, time, mem, account; // slurm: sbatch options
    std::string sshloginfile;                  // parallel: hosts (resolved)
  } backend;
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

// The matrix without materialising it: point k (matrix order platform,
// config, workload, input, seed) is computed on demand, so a 10^6-point spec
// costs the spec's size in memory and listing it is O(n). Holds a reference
// to the spec, which must outlive it.
class PointSpace {
public:
  explicit PointSpace(const SweepSpec& spec); // ConfigError past 2^63 points
  std::size_t size() const { return size_; }
  Point at(std::size_t k) const;

private:
  const SweepSpec& spec_;
  std::vector<std::string> plat_dirs_, config_dirs_, workload_dirs_;
  std::vector<std::vector<std::string>> input_dirs_; // per workload
  std::vector<std::size_t> first_;                   // per workload: first index in a block
  std::size_t block_ = 0, size_ = 0;                 // block: one platform x config
};

// Every point in matrix order (platform, config, workload, input, seed), each
// with a unique, readable directory name. Small specs and tests only.
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
