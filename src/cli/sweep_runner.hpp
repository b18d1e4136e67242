// Runs `tlmgpu run` processes (or a backend's driver) for `tlmgpu sweep`,
// N at a time, pulling each job from a source when a slot is free (so no
// point directory exists before its point starts), each with its
// stdout/stderr captured in its own directory, with an optional timeout, a
// clean stop on signals and spawn failures retried with back-off.
#pragma once

#include "src/sweep/sweep_results.hpp"

#include <csignal>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace tlmgpu::cli {

// INT, TERM, HUP and PIPE stop a sweep cleanly from the moment this is
// constructed (the top of `tlmgpu sweep`, before the spec is read): no new
// run starts, running ones are stopped and recorded. A HUP that was ignored
// when tlmgpu started (nohup) stays ignored. Restored on destruction.
class StopSignals {
public:
  StopSignals();
  ~StopSignals();
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;

private:
  struct sigaction old_[4]{};
  bool active_ = false; // false when an outer StopSignals is already installed
};
// The signal that asked the sweep to stop, 0 while none did.
int stop_requested();

struct Job {
  std::size_t id = 0;            // the caller's (a point index)
  std::vector<std::string> args; // argv after the program name
  std::filesystem::path dir;     // stdout.txt and stderr.txt go here (must exist)
  bool capture = true;           // false: the job shares the sweep's stdout/stderr
  // Passed to the run as fd 3 and so held as long as it lives, even if the
  // sweep is killed: a point's lock (sweep_dir.hpp). -1 = none.
  int keep_fd = -1;
  // Own process group, stopped as a group: a driver (GNU parallel) whose
  // workers must stop with it.
  bool own_group = false;
  double grace_s = 3; // SIGTERM to SIGKILL when the sweep stops
};

struct RunnerOptions {
  unsigned parallel = 1;
  double timeout_s = 0;               // 0 = none
  std::string exe = "/proc/self/exe"; // the same binary as the sweep
};

// Where run_jobs gets its work and reports it.
class JobSource {
public:
  enum class Next { job, wait, end }; // wait: none now, ask again soon
  virtual ~JobSource() = default;
  virtual Next next(Job& j) = 0;
  virtual void done(const Job& j, const sweep::Outcome& o) = 0;
  virtual void tick() {} // every poll (about 20 ms), e.g. for a progress line
};

// Starts jobs until the source ends and every job ended. Returns 0, or the
// signal that stopped the sweep: then no new job starts and the running ones
// end as "interrupted" (or "passed" if they finished anyway). A job that
// cannot be started for lack of processes or memory (EAGAIN, ENOMEM) is
// retried with back-off while others run, and ends "failed" with the reason
// only when nothing runs and it still cannot start; other spawn errors fail
// that job. Needs a StopSignals alive.
int run_jobs(JobSource& source, const RunnerOptions& opts);

// The simple case: a fixed list, done(i, outcome) per job (i = its index).
// Installs StopSignals for its duration if none is alive.
int run_jobs(const std::vector<Job>& jobs, const RunnerOptions& opts,
             const std::function<void(std::size_t, const sweep::Outcome&)>& done);

// The same binary as this process, as an absolute path (for scripts that
// run it later, e.g. on Slurm).
std::string self_exe();

} // namespace tlmgpu::cli
