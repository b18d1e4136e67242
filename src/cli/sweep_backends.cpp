// The GNU parallel and Slurm backends of `tlmgpu sweep` (docs/sweeps.md,
// "Backends"). Both hand out the same unit of work, `tlmgpu sweep
// --run-point K DIR`, which claims point K by its lock, runs it like the
// local backend and writes its marker; so their points, markers and merged
// results are exactly the local backend's, and any mix of backends on one
// directory cooperates.
#include "cli.hpp"
#include "sweep_cmd.hpp"

#include "tlmgpu/file_io.hpp"

#include <cerrno>
#include <chrono>
#include <cstring>
#include <fcntl.h>
#include <iostream>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace tlmgpu::cli {
namespace fs = std::filesystem;
namespace {

std::string find_on_path(const std::string& name) {
  const char* path = std::getenv("PATH");
  std::string dirs = path ? path : "/usr/bin:/bin";
  for (std::size_t a = 0, b; a <= dirs.size(); a = b + 1) {
    b = dirs.find(':', a);
    if (b == std::string::npos) b = dirs.size();
    const fs::path p = fs::path(dirs.substr(a, b - a)) / name;
    if (::access(p.c_str(), X_OK) == 0) return p.string();
  }
  return "";
}

// Runs argv (argv[0] looked up on PATH) and returns its exit status (-1 if
// it did not exit) with its stdout in `out`; its stderr is the sweep's.
int capture(const std::vector<std::string>& argv, std::string& out) {
  int pipefd[2];
  if (::pipe2(pipefd, O_CLOEXEC) != 0)
    throw std::runtime_error("pipe: " + std::string(std::strerror(errno)));
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, pipefd[1], 1);
  std::vector<std::string> args = argv;
  std::vector<char*> cargv;
  for (std::string& a : args)
    cargv.push_back(a.data());
  cargv.push_back(nullptr);
  pid_t pid = 0;
  const int rc = posix_spawnp(&pid, cargv[0], &fa, nullptr, cargv.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  ::close(pipefd[1]);
  if (rc != 0) {
    ::close(pipefd[0]);
    throw UsageError("cannot run '" + argv[0] + "': " + std::strerror(rc));
  }
  char buf[4096];
  for (ssize_t n; (n = ::read(pipefd[0], buf, sizeof buf)) != 0;)
    if (n > 0)
      out.append(buf, std::size_t(n));
    else if (errno != EINTR)
      break;
  ::close(pipefd[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// 'text' for sh, whatever it holds.
std::string sh_quote(const std::string& s) {
  std::string q = "'";
  for (char c : s)
    q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

std::string trimmed(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' '))
    s.pop_back();
  return s;
}

// Slurm refuses arrays with an index at or above MaxArraySize (default 1001).
std::size_t max_array_size() {
  std::string out;
  try {
    if (capture({"scontrol", "show", "config"}, out) == 0) {
      const auto at = out.find("MaxArraySize");
      if (at != std::string::npos) {
        const auto eq = out.find('=', at);
        const long long v = std::atoll(out.c_str() + eq + 1);
        if (v > 1) return std::size_t(v);
      }
    }
  } catch (const UsageError&) {
  }
  return 1001;
}

// sbatch --parsable prints "jobid[;cluster]".
std::string sbatch(std::vector<std::string> args) {
  args.insert(args.begin(), {"sbatch", "--parsable"});
  std::string out;
  const int rc = capture(args, out);
  const std::string id = trimmed(out.substr(0, out.find(';')));
  if (rc != 0 || id.empty())
    throw std::runtime_error("sbatch failed (exit " + std::to_string(rc) + "): " + quoted(args));
  return id;
}

} // namespace

int sweep_parallel(const Sweep& s, const RunnerOptions& ro, const BackendOptions& b,
                   const std::vector<bool>& done) {
  const std::string parallel = find_on_path("parallel");
  if (parallel.empty())
    throw UsageError("--backend parallel: GNU parallel is not on PATH (Debian package 'parallel')");
  const fs::path todo = s.out / ("parallel-" + std::to_string(::getpid()) + ".todo");
  const std::size_t n = write_todo(todo, done);
  std::cerr << "sweep " << s.spec.name << ": " << done.size() << " points, " << done.size() - n
            << " done earlier, " << n << " to run with GNU parallel, -j " << ro.parallel
            << (b.sshloginfile.empty() ? "" : " per host of " + b.sshloginfile) << std::endl;
  Job j;
  j.capture = false;
  j.own_group = true; // stopping the sweep stops every worker and its run
  j.grace_s = 10;
  j.dir = s.out;
  // Every path absolute: with --sshloginfile the workers run on other hosts
  // that see DIR and the binary under the same paths.
  j.args = {"--will-cite",
            "--jobs",
            std::to_string(ro.parallel),
            "--joblog",
            (s.out / "parallel.joblog").string(),
            "--arg-file",
            todo.string()};
  if (!b.sshloginfile.empty()) j.args.insert(j.args.end(), {"--sshloginfile", b.sshloginfile});
  j.args.insert(j.args.end(), {self_exe(), "sweep", "--run-point", "{}", s.out.string(),
                               "--spec-hash", s.rec.hash()});
  RunnerOptions driver = ro;
  driver.exe = parallel;
  driver.parallel = 1;
  int stopped = stop_requested();
  if (!stopped && n > 0)
    stopped = run_jobs(std::vector<Job>{j}, driver, [](std::size_t, const sweep::Outcome&) {});
  fs::remove(todo);
  return finish_sweep(s, merge_all(s), stopped);
}

int sweep_slurm(const Sweep& s, const RunnerOptions& ro, const BackendOptions& b,
                const std::vector<bool>& done, std::size_t n_done) {
  if (find_on_path("sbatch").empty())
    throw UsageError("--backend slurm: sbatch is not on PATH (Slurm's client commands)");
  const fs::path sd = s.out / "slurm";
  fs::create_directories(sd);
  const std::string stamp = std::to_string(std::chrono::system_clock::now().time_since_epoch() /
                                           std::chrono::milliseconds(1));
  std::vector<std::string> common = {"--job-name", "tlmgpu-" + sweep::sanitize(s.spec.name)};
  for (const auto& [flag, v] : {std::pair{"--partition", b.partition},
                                {"--time", b.time},
                                {"--mem", b.mem},
                                {"--account", b.account}})
    if (!v.empty()) common.insert(common.end(), {flag, v});

  // Array task i runs the i-th line of its points file, so only the points
  // not done are submitted and the array stays under MaxArraySize.
  const fs::path task = sd / "task.sh";
  write_file_atomic(task, "#!/bin/sh\n"
                          "# One Slurm array task = one point of the sweep (tlmgpu sweep "
                          "--backend slurm).\n"
                          "k=$(sed -n \"$((SLURM_ARRAY_TASK_ID + 1))p\" \"$1\") || exit 1\n"
                          "exec " +
                              sh_quote(self_exe()) + " sweep --run-point \"$k\" " +
                              sh_quote(s.out.string()) + " --spec-hash " + s.rec.hash() + "\n");
  fs::permissions(task, fs::perms::owner_all | fs::perms::group_read | fs::perms::others_read);
  std::vector<std::size_t> todo;
  for (std::size_t k = 0; k < done.size(); ++k)
    if (!done[k]) todo.push_back(k);
  const std::size_t chunk = max_array_size() - 1;
  std::vector<std::string> arrays;
  for (std::size_t first = 0; first < todo.size(); first += chunk) {
    const std::size_t m = std::min(chunk, todo.size() - first);
    std::string lines;
    for (std::size_t i = first; i < first + m; ++i)
      lines += std::to_string(todo[i]) + "\n";
    const fs::path list = sd / ("points-" + stamp + "-" + std::to_string(arrays.size()) + ".txt");
    write_file_atomic(list, lines);
    std::vector<std::string> a = common;
    a.insert(a.end(),
             {"--array",
              "0-" + std::to_string(m - 1) + (b.throttle ? "%" + std::to_string(ro.parallel) : ""),
              "--output", (sd / "%A_%a.out").string(), task.string(), list.string()});
    arrays.push_back(sbatch(a));
  }
  std::vector<std::string> m = common;
  if (!arrays.empty()) {
    std::string dep = "afterany";
    for (const std::string& id : arrays)
      dep += ":" + id;
    m.insert(m.end(), {"--dependency", dep});
  }
  if (b.wait) m.push_back("--wait");
  m.insert(m.end(), {"--output", (sd / "merge-%j.out").string(), "--wrap",
                     sh_quote(self_exe()) + " sweep --merge " + sh_quote(s.out.string())});
  std::cerr << "sweep " << s.spec.name << ": " << done.size() << " points, " << n_done
            << " done earlier, " << todo.size() << " submitted to Slurm as job array"
            << (arrays.size() == 1 ? " " : "s ");
  for (std::size_t i = 0; i < arrays.size(); ++i)
    std::cerr << (i ? ", " : "") << arrays[i];
  std::cerr << "; `tlmgpu sweep --status " << s.out.string() << "` shows progress" << std::endl;
  std::string merge_id;
  try {
    merge_id = sbatch(m);
  } catch (const std::runtime_error&) {
    if (!b.wait) throw;
  }
  if (!b.wait) {
    std::cerr << "sweep " << s.spec.name << ": merge job " << merge_id << " writes "
              << (s.out / "results.csv").string() << " when they end" << std::endl;
    return kExitOk;
  }
  return finish_sweep(s, merge_all(s), stop_requested());
}

} // namespace tlmgpu::cli
