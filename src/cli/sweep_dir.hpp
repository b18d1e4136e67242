// The shared state of a sweep directory, for every process that works on it
// (a local sweep, GNU parallel's or Slurm's `sweep --run-point` workers, the
// merge job, `--status`): the spec it sweeps (DIR/sweep.json), who works on
// it (DIR/sweep.lock), which point runs where (DIR/points/<point>/.lock) and
// the merged results (written under DIR/.merge.lock). flock(2) locks end
// with their holder, so a killed sweep never leaves a stale lock behind.
#pragma once

#include "src/sweep/sweep_spec.hpp"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <memory>
#include <string>

namespace tlmgpu::cli {

// DIR/sweep.json: what a worker needs to recompute the points (the spec's
// text, file and directory) and run one (the timeout).
struct SweepRecord {
  std::string spec_file, base_dir, spec_text;
  double timeout_s = 0;
  std::string owner; // "pid N on HOST" of the sweep that wrote it

  // Identifies the points: the same text read from the same directory.
  std::string hash() const;
  sweep::SweepSpec spec() const; // parses spec_text as load_spec would
};
SweepRecord record_of(const std::string& spec_file, double timeout_s);
// ConfigError when DIR holds no sweep.json ("not a sweep directory").
SweepRecord read_record(const std::filesystem::path& dir);

// A share of DIR/sweep.lock for this process's lifetime. Sweeps of the same
// spec cooperate (each runs the points nobody runs); a sweep of a different
// spec is refused (OutputError naming the other) while another holds it.
// `write`: record `rec` as DIR's spec when nobody else works there; a
// worker passes false and its `rec` as read, plus the hash it expects
// ("" = any).
class DirLock {
public:
  DirLock(const std::filesystem::path& dir, const SweepRecord& rec, bool write,
          const std::string& expect_hash = "");
  ~DirLock();
  DirLock(const DirLock&) = delete;
  DirLock& operator=(const DirLock&) = delete;

private:
  int fd_ = -1;
};

// DIR/points/<point>/.lock, held while the point runs. Its fd goes to the
// run as fd 3, so a point whose sweep was killed (-9) stays locked until
// its orphaned run ends, and nobody else runs it meanwhile.
class PointLock {
public:
  // Creates `point_dir` (the point starts now) and locks it; nullptr when
  // another process holds it.
  static std::unique_ptr<PointLock> try_lock(const std::filesystem::path& point_dir);
  ~PointLock();
  PointLock(const PointLock&) = delete;
  PointLock& operator=(const PointLock&) = delete;
  int fd() const { return fd_; }

private:
  explicit PointLock(int fd) : fd_(fd) {}
  int fd_;
};
// True when some process holds the point's lock (it is running); never
// creates anything.
bool point_busy(const std::filesystem::path& point_dir);

// results.json, results.csv and the sweep's manifest.json, under
// DIR/.merge.lock so that cooperating sweeps and workers never interleave.
void write_results(const std::filesystem::path& dir, const nlohmann::ordered_json& results);

} // namespace tlmgpu::cli
