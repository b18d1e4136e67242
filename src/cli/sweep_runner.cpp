// Process management for `tlmgpu sweep`. posix_spawn rather than threads:
// SystemC elaborates once per process, so every point is its own process
// anyway, and a crash or a deadlocked point cannot take the sweep down.
// The loop polls (waitpid WNOHANG every 20 ms): simple, and the cost is
// nothing next to a simulation.
#include "sweep_runner.hpp"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <optional>
#include <spawn.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern char** environ;

namespace tlmgpu::cli {
namespace {

using Clock = std::chrono::steady_clock;

volatile std::sig_atomic_t g_stop = 0;
int g_installed = 0; // nesting depth of StopSignals
void on_stop_signal(int sig) {
  if (!g_stop) g_stop = sig;
}
constexpr int kStopSignals[4] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE};

Clock::time_point after(double s) {
  return Clock::now() +
         std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(s));
}

struct Running {
  Job job;
  pid_t pid;
  Clock::time_point start;
  bool timed_out = false, stopping = false;
  Clock::time_point kill_at{}; // SIGKILL after this once SIGTERM was sent
};

// posix_spawn's error (0 = started).
int spawn(const Job& j, const std::string& exe, pid_t& pid) {
  const std::string out = (j.dir / "stdout.txt").string(), err = (j.dir / "stderr.txt").string();
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  if (j.capture) {
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 1, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_addopen(&fa, 2, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  }
  if (j.keep_fd >= 0) posix_spawn_file_actions_adddup2(&fa, j.keep_fd, 3);
  // A sweep started in the background inherits ignored SIGINT; its runs
  // must still be stoppable, so they start with default dispositions.
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  sigset_t defaults, mask;
  sigemptyset(&defaults);
  for (int sig : kStopSignals)
    sigaddset(&defaults, sig);
  sigemptyset(&mask);
  posix_spawnattr_setsigdefault(&attr, &defaults);
  posix_spawnattr_setsigmask(&attr, &mask);
  short flags = POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK;
  if (j.own_group) {
    posix_spawnattr_setpgroup(&attr, 0);
    flags |= POSIX_SPAWN_SETPGROUP;
  }
  posix_spawnattr_setflags(&attr, flags);

  std::vector<std::string> args = {"tlmgpu"};
  args.insert(args.end(), j.args.begin(), j.args.end());
  std::vector<char*> argv;
  for (std::string& a : args)
    argv.push_back(a.data());
  argv.push_back(nullptr);
  const int rc = posix_spawn(&pid, exe.c_str(), &fa, &attr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  posix_spawnattr_destroy(&attr);
  return rc;
}

sweep::Outcome outcome_of(const Running& r, int status, double timeout_s) {
  sweep::Outcome o;
  o.seconds = std::chrono::duration<double>(Clock::now() - r.start).count();
  if (WIFEXITED(status)) {
    o.exit_code = WEXITSTATUS(status);
    // A run told to stop that exits non-zero was cut short, not failed.
    o.status = o.exit_code == 0 ? "passed"
               : r.timed_out    ? "timeout"
               : r.stopping     ? "interrupted"
                                : "failed";
  } else if (WIFSIGNALED(status)) {
    o.signal = WTERMSIG(status);
    // A Ctrl-C in the terminal reaches the runs directly (same process group).
    const bool stop_sig = o.signal == SIGINT || o.signal == SIGTERM || o.signal == SIGHUP;
    o.status = r.timed_out ? "timeout" : r.stopping || stop_sig ? "interrupted" : "failed";
  } else {
    o.status = "failed";
  }
  if (o.status != "passed" && r.job.capture)
    o.error_tail = sweep::tail_of_file(r.job.dir / "stderr.txt");
  if (o.status == "timeout") {
    char buf[64];
    std::snprintf(buf, sizeof buf, "timed out after %g s (--timeout-s)", timeout_s);
    o.error_tail += (o.error_tail.empty() ? "" : "\n") + std::string(buf);
  }
  return o;
}

void signal_run(Running& r, int sig, double grace_s) {
  kill(r.job.own_group ? -r.pid : r.pid, sig);
  r.kill_at = after(grace_s);
}

// A job that could not start for lack of resources, waiting for its retry.
struct Held {
  Job job;
  int attempts = 0;
  Clock::time_point retry_at;
};

class VectorSource : public JobSource {
public:
  VectorSource(const std::vector<Job>& jobs,
               const std::function<void(std::size_t, const sweep::Outcome&)>& done)
      : jobs_(jobs), done_(done) {}
  Next next(Job& j) override {
    if (next_ == jobs_.size()) return Next::end;
    j = jobs_[next_];
    j.id = next_++;
    return Next::job;
  }
  void done(const Job& j, const sweep::Outcome& o) override { done_(j.id, o); }

private:
  const std::vector<Job>& jobs_;
  const std::function<void(std::size_t, const sweep::Outcome&)>& done_;
  std::size_t next_ = 0;
};

} // namespace

StopSignals::StopSignals() {
  if (g_installed++) return;
  active_ = true;
  g_stop = 0;
  struct sigaction sa {};
  sa.sa_handler = on_stop_signal;
  sigemptyset(&sa.sa_mask);
  for (int i = 0; i < 4; ++i) {
    sigaction(kStopSignals[i], nullptr, &old_[i]);
    // nohup asked for a sweep that survives the terminal: keep it.
    if (kStopSignals[i] == SIGHUP && old_[i].sa_handler == SIG_IGN) continue;
    sigaction(kStopSignals[i], &sa, nullptr);
  }
}

StopSignals::~StopSignals() {
  --g_installed;
  if (!active_) return;
  for (int i = 0; i < 4; ++i)
    sigaction(kStopSignals[i], &old_[i], nullptr);
}

int stop_requested() {
  return g_stop;
}

namespace {

// An error out of the source (a marker that cannot be written: disk full)
// ends the sweep, but not before its runs: they are stopped and reaped, so
// none is left behind writing into a directory nobody records.
void stop_all(std::vector<Running>& running) {
  for (Running& r : running)
    signal_run(r, SIGTERM, r.job.grace_s);
  while (!running.empty()) {
    for (std::size_t i = 0; i < running.size();) {
      int status = 0;
      if (waitpid(running[i].pid, &status, WNOHANG) == running[i].pid) {
        running.erase(running.begin() + std::ptrdiff_t(i));
        continue;
      }
      if (Clock::now() > running[i].kill_at) signal_run(running[i], SIGKILL, 1e9);
      ++i;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

int run_loop(JobSource& source, const RunnerOptions& opts, std::vector<Running>& running) {
  std::optional<Held> held;
  const std::size_t parallel = std::max(1u, opts.parallel);
  bool stopping = false, ended = false;
  for (;;) {
    if (g_stop && !stopping) {
      stopping = true;
      for (Running& r : running) {
        r.stopping = true;
        signal_run(r, SIGTERM, r.job.grace_s);
      }
    }
    while (!stopping && running.size() < parallel && (held || !ended)) {
      if (held && Clock::now() < held->retry_at) break;
      Held h = held ? std::move(*held) : Held{};
      held.reset();
      if (h.attempts == 0) {
        const JobSource::Next n = source.next(h.job);
        if (n == JobSource::Next::end) ended = true;
        if (n != JobSource::Next::job) break;
      }
      pid_t pid = 0;
      const int err = spawn(h.job, opts.exe, pid);
      if (err == 0) {
        running.push_back({std::move(h.job), pid, Clock::now()});
        continue;
      }
      // Out of processes or memory for now: others ending frees both, so
      // wait (0.05 s doubling to 2 s); give up only when nothing runs.
      const bool transient = err == EAGAIN || err == ENOMEM;
      if (transient && (h.attempts < 12 || !running.empty())) {
        h.retry_at = after(std::min(2.0, 0.05 * double(1 << std::min(h.attempts, 6))));
        ++h.attempts;
        held = std::move(h);
        break;
      }
      sweep::Outcome o;
      o.status = "failed";
      o.error_tail = "cannot start " + opts.exe + ": " + std::strerror(err);
      source.done(h.job, o);
    }
    if ((stopping || (ended && !held)) && running.empty()) break;

    bool reaped = false;
    for (std::size_t i = 0; i < running.size();) {
      int status = 0;
      const pid_t pid = waitpid(running[i].pid, &status, WNOHANG);
      if (pid == running[i].pid) {
        const Running r = std::move(running[i]);
        running.erase(running.begin() + std::ptrdiff_t(i));
        source.done(r.job, outcome_of(r, status, opts.timeout_s));
        reaped = true;
        continue;
      }
      ++i;
    }
    source.tick();
    if (reaped) continue;

    const auto now = Clock::now();
    for (Running& r : running) {
      const bool signalled = r.timed_out || r.stopping;
      if (!signalled && opts.timeout_s > 0 && r.job.capture &&
          std::chrono::duration<double>(now - r.start).count() > opts.timeout_s) {
        r.timed_out = true;
        signal_run(r, SIGTERM, 2.0);
      } else if (signalled && now > r.kill_at) {
        signal_run(r, SIGKILL, 1e9);
      }
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return g_stop;
}

} // namespace

int run_jobs(JobSource& source, const RunnerOptions& opts) {
  std::vector<Running> running;
  try {
    return run_loop(source, opts, running);
  } catch (...) {
    stop_all(running);
    throw;
  }
}

int run_jobs(const std::vector<Job>& jobs, const RunnerOptions& opts,
             const std::function<void(std::size_t, const sweep::Outcome&)>& done) {
  StopSignals signals;
  VectorSource source(jobs, done);
  return run_jobs(source, opts);
}

std::string self_exe() {
  std::error_code ec;
  const std::filesystem::path p = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? "/proc/self/exe" : p.string();
}

} // namespace tlmgpu::cli
