// Runs `tlmgpu run` processes for `tlmgpu sweep`, N at a time, each with its
// stdout/stderr captured in its own directory, with an optional timeout and a
// clean stop on SIGINT/SIGTERM (children get SIGTERM, then SIGKILL).
#pragma once

#include "src/sweep/sweep_results.hpp"

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace tlmgpu::cli {

struct Job {
  std::vector<std::string> args; // argv after the program name
  std::filesystem::path dir;     // stdout.txt and stderr.txt go here (must exist)
};

struct RunnerOptions {
  unsigned parallel = 1;
  double timeout_s = 0;               // 0 = none
  std::string exe = "/proc/self/exe"; // the same binary as the sweep
};

// Starts jobs in order and calls `started(i)` / `done(i, outcome)` as each
// starts and ends. Returns 0 when every job ran, or the signal (SIGINT or
// SIGTERM) that stopped the sweep: then the jobs not yet started are not
// started and the running ones end as "interrupted" (or "passed" if they
// finished anyway). The caller's signal handlers are restored on return.
int run_jobs(const std::vector<Job>& jobs, const RunnerOptions& opts,
             const std::function<void(std::size_t)>& started,
             const std::function<void(std::size_t, const sweep::Outcome&)>& done);

} // namespace tlmgpu::cli
