// Internals of `tlmgpu sweep` shared by its files: sweep.cpp (options, the
// spec check, dry run, report), sweep_local.cpp (local runs, --run-point,
// --merge), sweep_backends.cpp (GNU parallel, Slurm) and sweep_status.cpp
// (--status, the progress line).
#pragma once

#include "sweep_dir.hpp"
#include "sweep_runner.hpp"

#include "src/sweep/sweep_spec.hpp"

#include <nlohmann/json.hpp>

#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

namespace tlmgpu::cli {

// A sweep's spec and its points, from a spec file or a sweep directory's
// record. Not copyable: `space` refers to `spec`.
struct Sweep {
  Sweep(SweepRecord r, const std::string& shown_file);
  Sweep(const Sweep&) = delete;
  Sweep& operator=(const Sweep&) = delete;

  const SweepRecord rec;
  const sweep::SweepSpec spec;
  const sweep::PointSpace space;
  std::filesystem::path out, root; // DIR and DIR/points
};

// Which points were done before (passed, same arguments, files as their
// manifests say): the first pass of a sweep, O(points). Names each passed
// point it no longer trusts on stderr.
std::vector<bool> done_points(const Sweep& s, std::size_t& done);

// Every point's row from its marker, written as results.json/.csv; returns
// the document.
nlohmann::ordered_json merge_all(const Sweep& s);
// "sweep NAME: P of N points passed; results: ..." and the exit code (0 all
// passed, 1 not, 1 after a stop by `stopped`).
int finish_sweep(const Sweep& s, const nlohmann::ordered_json& results, int stopped);

// The local backend: runs the points not done, -j at a time, merging as
// they end. Needs the sweep's DirLock held.
int sweep_local(const Sweep& s, const RunnerOptions& ro, const std::vector<bool>& done,
                std::size_t n_done);
// One point (`sweep --run-point K DIR`), for GNU parallel and Slurm.
int sweep_run_point(const std::filesystem::path& dir, std::size_t k,
                    const std::string& expect_hash);
// `sweep --merge DIR`.
int sweep_merge(const std::filesystem::path& dir);
// `sweep --status DIR`: done / failed / running / pending, failed points'
// last error lines.
int sweep_status(const std::filesystem::path& dir);

struct BackendOptions {
  std::string partition, time, mem, account; // slurm
  std::string sshloginfile;                  // parallel
  bool throttle = false;                     // slurm: -j given, at most that many tasks at once
  bool wait = false;                         // slurm: wait for the merge job
};
int sweep_parallel(const Sweep& s, const RunnerOptions& ro, const BackendOptions& b,
                   const std::vector<bool>& done);
int sweep_slurm(const Sweep& s, const RunnerOptions& ro, const BackendOptions& b,
                const std::vector<bool>& done, std::size_t n_done);

// The todo list for a backend's workers: indices of points not done, one a line.
std::size_t write_todo(const std::filesystem::path& file, const std::vector<bool>& done);

// One line per finished point on stderr ("[3/8] titanv/... passed 3.2 s")
// and, when stderr is a terminal, a status line below them with the counts
// and an ETA, redrawn at most twice a second.
class Progress {
public:
  explicit Progress(std::size_t total);
  ~Progress(); // clears the status line
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;
  void line(const std::string& text, bool failed); // a point ended
  void set_running(std::size_t n) { running_ = n; }
  void tick();
  std::size_t finished() const { return finished_; }

private:
  void draw();
  std::size_t total_, finished_ = 0, failed_ = 0, running_ = 0;
  bool tty_;
  std::chrono::steady_clock::time_point start_, drawn_{};
};

std::string seconds_text(double s); // "3.2 s"
std::string last_line(const std::string& s);
std::string quoted(const std::vector<std::string>& args); // a shell command line

} // namespace tlmgpu::cli
