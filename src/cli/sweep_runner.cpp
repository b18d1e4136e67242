// Process management for `tlmgpu sweep`. posix_spawn rather than threads:
// SystemC elaborates once per process, so every point is its own process
// anyway, and a crash or a deadlocked point cannot take the sweep down.
// The loop polls (waitpid WNOHANG every 20 ms): simple, and the cost is
// nothing next to a simulation.
#include "sweep_runner.hpp"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <spawn.h>
#include <stdexcept>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern char** environ;

namespace tlmgpu::cli {
namespace {

using Clock = std::chrono::steady_clock;

volatile std::sig_atomic_t g_stop = 0;
void on_stop_signal(int sig) {
  g_stop = sig;
}

// SIGINT/SIGTERM set g_stop for the duration of a sweep; restored after.
class StopSignals {
public:
  StopSignals() {
    g_stop = 0;
    struct sigaction sa {};
    sa.sa_handler = on_stop_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old_int_);
    sigaction(SIGTERM, &sa, &old_term_);
  }
  ~StopSignals() {
    sigaction(SIGINT, &old_int_, nullptr);
    sigaction(SIGTERM, &old_term_, nullptr);
  }
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;

private:
  struct sigaction old_int_ {
  }, old_term_{};
};

struct Running {
  std::size_t job;
  pid_t pid;
  Clock::time_point start;
  bool timed_out = false, stopping = false;
  Clock::time_point kill_at{}; // SIGKILL after this once SIGTERM was sent
};

pid_t spawn(const Job& j, const std::string& exe) {
  const std::string out = (j.dir / "stdout.txt").string(), err = (j.dir / "stderr.txt").string();
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 1, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&fa, 2, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  // A sweep started in the background inherits ignored SIGINT; its runs
  // must still be stoppable, so they start with default dispositions.
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  sigset_t defaults, mask;
  sigemptyset(&defaults);
  sigaddset(&defaults, SIGINT);
  sigaddset(&defaults, SIGTERM);
  sigaddset(&defaults, SIGPIPE);
  sigemptyset(&mask);
  posix_spawnattr_setsigdefault(&attr, &defaults);
  posix_spawnattr_setsigmask(&attr, &mask);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);

  std::vector<std::string> args = {"tlmgpu"};
  args.insert(args.end(), j.args.begin(), j.args.end());
  std::vector<char*> argv;
  for (std::string& a : args)
    argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  const int rc = posix_spawn(&pid, exe.c_str(), &fa, &attr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  posix_spawnattr_destroy(&attr);
  if (rc != 0) throw std::runtime_error("cannot start " + exe + ": " + std::strerror(rc));
  return pid;
}

sweep::Outcome outcome_of(const Running& r, int status, const Job& j, double timeout_s) {
  sweep::Outcome o;
  o.seconds = std::chrono::duration<double>(Clock::now() - r.start).count();
  if (WIFEXITED(status)) {
    o.exit_code = WEXITSTATUS(status);
    o.status = o.exit_code == 0 ? "passed" : r.timed_out ? "timeout" : "failed";
  } else if (WIFSIGNALED(status)) {
    o.signal = WTERMSIG(status);
    // A Ctrl-C in the terminal reaches the runs directly (same process group).
    const bool stop_sig = o.signal == SIGINT || o.signal == SIGTERM;
    o.status = r.timed_out ? "timeout" : r.stopping || stop_sig ? "interrupted" : "failed";
  } else {
    o.status = "failed";
  }
  if (o.status != "passed") o.error_tail = sweep::tail_of_file(j.dir / "stderr.txt");
  if (o.status == "timeout") {
    char buf[64];
    std::snprintf(buf, sizeof buf, "timed out after %g s (--timeout-s)", timeout_s);
    o.error_tail += (o.error_tail.empty() ? "" : "\n") + std::string(buf);
  }
  return o;
}

void signal_run(Running& r, double grace_s) {
  kill(r.pid, SIGTERM);
  r.kill_at = Clock::now() +
              std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(grace_s));
}

} // namespace

int run_jobs(const std::vector<Job>& jobs, const RunnerOptions& opts,
             const std::function<void(std::size_t)>& started,
             const std::function<void(std::size_t, const sweep::Outcome&)>& done) {
  StopSignals signals;
  std::vector<Running> running;
  std::size_t next = 0;
  const unsigned parallel = std::max(1u, opts.parallel);
  bool stopping = false;
  while (next < jobs.size() || !running.empty()) {
    if (g_stop && !stopping) {
      stopping = true;
      for (Running& r : running) {
        r.stopping = true;
        signal_run(r, 3.0);
      }
    }
    while (!stopping && running.size() < parallel && next < jobs.size()) {
      running.push_back({next, spawn(jobs[next], opts.exe), Clock::now()});
      started(next++);
    }
    if (stopping && running.empty()) break;

    bool reaped = false;
    for (std::size_t i = 0; i < running.size();) {
      int status = 0;
      const pid_t pid = waitpid(running[i].pid, &status, WNOHANG);
      if (pid == running[i].pid) {
        const Running r = running[i];
        running.erase(running.begin() + std::ptrdiff_t(i));
        done(r.job, outcome_of(r, status, jobs[r.job], opts.timeout_s));
        reaped = true;
        continue;
      }
      ++i;
    }
    if (reaped) continue;

    const auto now = Clock::now();
    for (Running& r : running) {
      const bool signalled = r.timed_out || r.stopping;
      if (!signalled && opts.timeout_s > 0 &&
          std::chrono::duration<double>(now - r.start).count() > opts.timeout_s) {
        r.timed_out = true;
        signal_run(r, 2.0);
      } else if (signalled && now > r.kill_at) {
        kill(r.pid, SIGKILL);
        r.kill_at = Clock::time_point::max();
      }
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return g_stop;
}

} // namespace tlmgpu::cli
