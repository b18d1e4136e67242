// Running points on this machine: the local backend (-j runs at a time) and
// one point for a backend's worker (`sweep --run-point K DIR`). Each point
// is claimed by its lock before its directory is prepared, so sweeps of the
// same spec on one directory, GNU parallel's and Slurm's workers and a
// resumed sweep whose predecessor was killed never run a point twice at
// once; a point someone else runs is waited for (local) or left to them
// (worker). A point's marker is written as it ends, and the local sweep
// rewrites results.json from its rows every few seconds, so a kill -9 loses
// at most the points in flight.
#include "cli.hpp"
#include "sweep_cmd.hpp"

#include "src/sweep/sweep_results.hpp"
#include "tlmgpu/file_io.hpp"

#include <iostream>
#include <map>

namespace tlmgpu::cli {
namespace fs = std::filesystem;
using ojson = nlohmann::ordered_json;
using Clock = std::chrono::steady_clock;
namespace {

// The points to run, claimed one by one as slots free up.
class LocalSource : public JobSource {
public:
  // `rows`: kept up to date and written every few seconds (nullptr: a
  // worker, whose sweep merges). `wait_for_busy`: a point another process
  // runs is waited for and then run if it did not pass; else left alone.
  LocalSource(const Sweep& s, const std::vector<bool>& done, Progress& progress,
              std::vector<ojson>* rows, bool wait_for_busy)
      : s_(s), done_(done), progress_(progress), rows_(rows), wait_(wait_for_busy) {}

  Next next(Job& j) override {
    while (k_ < done_.size())
      if (const std::size_t k = k_++; !done_[k] && claim(k, j)) return Next::job;
    if (deferred_.empty() || !wait_) return Next::end;
    if (Clock::now() < next_poll_) return Next::wait;
    next_poll_ = Clock::now() + std::chrono::milliseconds(250);
    const std::vector<std::size_t> waiting = std::move(deferred_);
    deferred_.clear();
    for (std::size_t i = 0; i < waiting.size(); ++i)
      if (claim(waiting[i], j, false)) {
        deferred_.insert(deferred_.end(), waiting.begin() + std::ptrdiff_t(i) + 1, waiting.end());
        return Next::job;
      }
    return deferred_.empty() ? Next::end : Next::wait;
  }

  void done(const Job& j, const sweep::Outcome& o) override {
    const sweep::Point p = s_.space.at(j.id);
    // The marker holds what the merge needs; failed points keep their
    // stats for a look.
    std::string what = sweep::write_marker(j.dir, p.args, o, s_.spec.keep_stats);
    locks_.erase(j.id); // only now may another process take the point
    --running_;
    if (what != "passed") failed_ = true;
    if (o.status == "failed")
      what += o.signal ? " (signal " + std::to_string(o.signal) + ")"
                       : " (exit " + std::to_string(o.exit_code) + ")";
    const std::string tail =
        last_line(what == "corrupt" ? "output does not match its manifest" : o.error_tail);
    progress_.line(p.dir + " " + what + " " + seconds_text(o.seconds) +
                       (tail.empty() ? "" : ": " + tail),
                   what.rfind("passed", 0) != 0);
    update_row(j.id, p);
  }

  void tick() override {
    progress_.set_running(running_);
    progress_.tick();
    if (rows_ && dirty_ && Clock::now() > next_write_) flush();
  }

  // results.json from the rows as they are now.
  void flush() {
    write_results(s_.out, sweep::assemble_results(s_.spec, *rows_, s_.root));
    dirty_ = false;
    next_write_ = Clock::now() + std::chrono::seconds(2);
  }
  bool failed() const { return failed_; }

private:
  // Locks point k and prepares its directory; false when another process
  // holds it (deferred) or it passed meanwhile (done elsewhere).
  bool claim(std::size_t k, Job& j, bool first = true) {
    const sweep::Point p = s_.space.at(k);
    const fs::path dir = s_.root / p.dir;
    std::unique_ptr<PointLock> lock = PointLock::try_lock(dir);
    if (!lock) {
      deferred_.push_back(k);
      if (!wait_)
        progress_.line(p.dir + " running elsewhere, left to it", false);
      else if (first)
        std::cerr << "sweep: " << p.dir << " runs in another process; waiting for it" << std::endl;
      return false;
    }
    if (sweep::point_done(dir, p.args)) {
      progress_.line(p.dir + " passed elsewhere", false);
      update_row(k, p);
      return false;
    }
    // A stale marker or stats from an earlier spec must not outlive this run.
    fs::remove(dir / "point.json");
    fs::remove(dir / "stats.json");
    j = Job{};
    j.id = k;
    j.args = p.args;
    j.args.insert(j.args.end(), {"--out", dir.string(), "--quiet"});
    j.dir = dir;
    j.keep_fd = lock->fd();
    locks_[k] = std::move(lock);
    ++running_;
    return true;
  }

  void update_row(std::size_t k, const sweep::Point& p) {
    if (!rows_) return;
    (*rows_)[k] = sweep::result_row(s_.spec, p, s_.root);
    dirty_ = true;
  }

  const Sweep& s_;
  const std::vector<bool> done_; // a copy: a worker passes a temporary
  Progress& progress_;
  std::vector<ojson>* rows_;
  const bool wait_;
  std::size_t k_ = 0, running_ = 0;
  std::vector<std::size_t> deferred_;
  std::map<std::size_t, std::unique_ptr<PointLock>> locks_;
  Clock::time_point next_poll_{}, next_write_ = Clock::now() + std::chrono::seconds(2);
  bool dirty_ = false, failed_ = false;
};

std::vector<bool> only(std::size_t n, std::size_t k) {
  std::vector<bool> done(n, true);
  done[k] = false;
  return done;
}

} // namespace

std::vector<bool> done_points(const Sweep& s, std::size_t& n_done) {
  std::vector<bool> done(s.space.size());
  n_done = 0;
  for (std::size_t k = 0; k < done.size() && !stop_requested(); ++k) {
    const sweep::Point p = s.space.at(k);
    std::string why;
    done[k] = sweep::point_done(s.root / p.dir, p.args, &why);
    n_done += done[k];
    if (!why.empty()) std::cerr << "sweep: not trusting a passed point: " << why << "\n";
  }
  return done;
}

ojson merge_all(const Sweep& s) {
  std::vector<ojson> rows;
  rows.reserve(s.space.size());
  for (std::size_t k = 0; k < s.space.size(); ++k)
    rows.push_back(sweep::result_row(s.spec, s.space.at(k), s.root));
  ojson results = sweep::assemble_results(s.spec, rows, s.root);
  write_results(s.out, results);
  return results;
}

int finish_sweep(const Sweep& s, const ojson& results, int stopped) {
  std::size_t passed = 0;
  for (const auto& row : results["points"])
    passed += row["status"] == "passed";
  std::cout << "sweep " << s.spec.name << ": " << passed << " of " << s.space.size()
            << " points passed; results: " << (s.out / "results.csv").string() << std::endl;
  if (stopped) {
    std::cerr << "tlmgpu: sweep stopped by signal " << stopped
              << "; run the same command again to resume" << std::endl;
    return kExitFailed;
  }
  return passed == s.space.size() ? kExitOk : kExitFailed;
}

int sweep_local(const Sweep& s, const RunnerOptions& ro, const std::vector<bool>& done,
                std::size_t n_done) {
  const std::size_t todo = done.size() - n_done;
  std::cerr << "sweep " << s.spec.name << ": " << done.size() << " points, " << n_done
            << " done earlier, " << todo << " to run, -j " << ro.parallel << std::endl;
  std::vector<ojson> rows;
  rows.reserve(done.size());
  for (std::size_t k = 0; k < done.size(); ++k)
    rows.push_back(sweep::result_row(s.spec, s.space.at(k), s.root));
  int stopped = stop_requested();
  {
    Progress progress(todo);
    LocalSource source(s, done, progress, &rows, true);
    if (!stopped) stopped = run_jobs(source, ro);
  }
  // A last full merge: a cooperating sweep may have finished points since.
  return finish_sweep(s, merge_all(s), stopped);
}

int sweep_run_point(const fs::path& dir_arg, std::size_t k, const std::string& expect_hash) {
  const fs::path dir = fs::absolute(dir_arg).lexically_normal();
  Sweep s(read_record(dir), (dir / "sweep.json").string());
  s.out = dir;
  s.root = dir / "points";
  if (k >= s.space.size())
    throw UsageError("--run-point " + std::to_string(k) + ": the sweep has " +
                     std::to_string(s.space.size()) + " points (0 to " +
                     std::to_string(s.space.size() - 1) + ")");
  const DirLock lock(dir, s.rec, false, expect_hash);
  const sweep::Point p = s.space.at(k);
  if (sweep::point_done(s.root / p.dir, p.args)) {
    std::cerr << "sweep: " << p.dir << " passed earlier" << std::endl;
    return kExitOk;
  }
  RunnerOptions ro;
  ro.timeout_s = s.rec.timeout_s;
  Progress progress(1);
  LocalSource source(s, only(s.space.size(), k), progress, nullptr, false);
  const int stopped = run_jobs(source, ro);
  return stopped || source.failed() ? kExitFailed : kExitOk;
}

int sweep_merge(const fs::path& dir_arg) {
  const fs::path dir = fs::absolute(dir_arg).lexically_normal();
  Sweep s(read_record(dir), (dir / "sweep.json").string());
  s.out = dir;
  s.root = dir / "points";
  return finish_sweep(s, merge_all(s), 0);
}

} // namespace tlmgpu::cli
