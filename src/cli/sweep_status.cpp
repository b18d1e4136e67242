// What a sweep directory holds (`sweep --status DIR`), whichever backend
// runs it, read from the points' markers and locks; and the progress line a
// local sweep draws on a terminal.
#include "cli.hpp"
#include "sweep_cmd.hpp"

#include "tlmgpu/file_io.hpp"
#include "tlmgpu/json_limits.hpp"

#include <cstdio>
#include <fstream>
#include <iostream>
#include <unistd.h>

namespace tlmgpu::cli {
namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;
namespace {

std::string duration_text(double s) {
  char buf[32];
  const long t = long(s + 0.5);
  if (t >= 3600)
    std::snprintf(buf, sizeof buf, "%ldh%02ldm", t / 3600, t / 60 % 60);
  else
    std::snprintf(buf, sizeof buf, "%ldm%02lds", t / 60, t % 60);
  return buf;
}

} // namespace

Progress::Progress(std::size_t total)
    : total_(total), tty_(::isatty(STDERR_FILENO) == 1), start_(Clock::now()) {}

Progress::~Progress() {
  if (tty_ && drawn_ != Clock::time_point{}) std::cerr << "\r\033[K" << std::flush;
}

void Progress::line(const std::string& text, bool failed) {
  ++finished_;
  failed_ += failed;
  std::cerr << (tty_ ? "\r\033[K" : "") << "[" << finished_ << "/" << total_ << "] " << text
            << std::endl;
  if (tty_) draw();
}

void Progress::tick() {
  if (tty_ && Clock::now() - drawn_ > std::chrono::milliseconds(500)) draw();
}

// "[12/153] 2 running, 1 failed, 1m02s elapsed, ETA 4m10s": the mean time
// per finished point so far times the points left (runs in parallel count
// once each, so -j is accounted for).
void Progress::draw() {
  drawn_ = Clock::now();
  const double elapsed = std::chrono::duration<double>(drawn_ - start_).count();
  std::string eta = "--";
  if (finished_ > 0 && finished_ <= total_)
    eta = duration_text(elapsed / double(finished_) * double(total_ - finished_));
  std::cerr << "\r\033[K[" << finished_ << "/" << total_ << "] " << running_ << " running, "
            << failed_ << " failed, " << duration_text(elapsed) << " elapsed, ETA " << eta
            << std::flush;
}

std::size_t write_todo(const fs::path& file, const std::vector<bool>& done) {
  std::string text;
  std::size_t n = 0;
  for (std::size_t k = 0; k < done.size(); ++k)
    if (!done[k]) text += std::to_string(k) + "\n", ++n;
  write_file_atomic(file, text);
  return n;
}

int sweep_status(const fs::path& dir_arg) {
  const fs::path dir = fs::absolute(dir_arg).lexically_normal();
  Sweep s(read_record(dir), (dir / "sweep.json").string());
  s.root = dir / "points";
  std::size_t done = 0, failed = 0, running = 0, pending = 0;
  std::vector<std::string> failures;
  for (std::size_t k = 0; k < s.space.size() && !stop_requested(); ++k) {
    const sweep::Point p = s.space.at(k);
    const fs::path pd = s.root / p.dir;
    if (point_busy(pd)) {
      ++running;
      continue;
    }
    if (sweep::point_done(pd, p.args)) {
      ++done;
      continue;
    }
    std::string text;
    const nlohmann::json m =
        read_text_file((pd / "point.json").string(), text) ? try_parse_json(text) : nullptr;
    const bool current = m.is_object() && m.contains("args") && m["args"] == p.args;
    const std::string status = current && m.contains("status") && m["status"].is_string()
                                   ? m["status"].get<std::string>()
                                   : "";
    if (status == "failed" || status == "timeout" || status == "corrupt") {
      ++failed;
      std::string why = status;
      if (m.contains("exit_code") && m["exit_code"].is_number())
        why += ", exit " + std::to_string(m["exit_code"].get<int>());
      if (m.contains("signal") && m["signal"].is_number())
        why += ", signal " + std::to_string(m["signal"].get<int>());
      const std::string err = m.contains("error") && m["error"].is_string()
                                  ? last_line(m["error"].get<std::string>())
                                  : "";
      failures.push_back(p.dir + " (" + why + ")" + (err.empty() ? "" : ": " + err));
    } else {
      ++pending; // never ran, interrupted, a passed point no longer trusted, an older spec
    }
  }
  std::cout << "sweep " << s.spec.name << " (" << dir.string() << "): " << s.space.size()
            << " points: " << done << " done, " << failed << " failed, " << running << " running, "
            << pending << " pending\n";
  constexpr std::size_t kShown = 50;
  for (std::size_t i = 0; i < failures.size() && i < kShown; ++i)
    std::cout << "failed: " << failures[i] << "\n";
  if (failures.size() > kShown)
    std::cout << "... and " << failures.size() - kShown << " more failed points\n";
  return kExitOk;
}

} // namespace tlmgpu::cli
