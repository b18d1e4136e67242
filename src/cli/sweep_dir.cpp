// Locks and the recorded spec of a sweep directory (sweep_dir.hpp). flock
// rather than lock files with pids: the kernel drops a lock when its holder
// dies, however it dies, and flock works on NFS (v4) for the hosts of a GNU
// parallel sweep that share the directory.
#include "sweep_dir.hpp"

#include "tlmgpu/config.hpp"
#include "tlmgpu/file_io.hpp"
#include "tlmgpu/hash.hpp"
#include "tlmgpu/json_limits.hpp"
#include "tlmgpu/manifest.hpp"

#include "src/sweep/sweep_results.hpp"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

namespace tlmgpu::cli {
namespace fs = std::filesystem;
namespace {

// An fd >= 10, close-on-exec: a run gets only the lock passed to it (fd 3).
int open_lock(const fs::path& p, bool create) {
  const int fd = ::open(p.c_str(), (create ? O_RDWR | O_CREAT : O_RDONLY) | O_CLOEXEC, 0644);
  if (fd < 0) {
    if (!create && errno == ENOENT) return -1;
    throw write_error(p, errno);
  }
  const int high = ::fcntl(fd, F_DUPFD_CLOEXEC, 10);
  ::close(fd);
  if (high < 0) throw write_error(p, errno);
  return high;
}

void lock_or_throw(int fd, int op, const fs::path& p) {
  while (::flock(fd, op) != 0)
    if (errno != EINTR) throw write_error(p, errno);
}

// The short exclusive lock under which one process at a time decides
// whether it joins DIR (flock cannot turn a shared lock exclusive atomically).
class Gate {
public:
  explicit Gate(const fs::path& dir) : fd_(open_lock(dir / ".sweep.gate", true)) {
    lock_or_throw(fd_, LOCK_EX, dir / ".sweep.gate");
  }
  ~Gate() { ::close(fd_); }
  Gate(const Gate&) = delete;
  Gate& operator=(const Gate&) = delete;

private:
  int fd_;
};

std::string host_name() {
  char buf[256] = {};
  return ::gethostname(buf, sizeof buf - 1) == 0 ? buf : "?";
}

} // namespace

std::string SweepRecord::hash() const {
  const std::string id = spec_text + '\0' + base_dir;
  return hash_hex(fnv1a64(id.data(), id.size()));
}

sweep::SweepSpec SweepRecord::spec() const {
  return sweep::parse_spec(spec_text, spec_file, base_dir);
}

SweepRecord record_of(const std::string& spec_file, double timeout_s) {
  SweepRecord r;
  if (!read_text_file(spec_file, r.spec_text))
    throw ConfigError("cannot open sweep spec '" + spec_file + "'");
  r.spec_file = fs::absolute(spec_file).lexically_normal().string();
  r.base_dir = fs::path(r.spec_file).parent_path().string();
  r.timeout_s = timeout_s;
  r.owner = "pid " + std::to_string(::getpid()) + " on " + host_name();
  return r;
}

SweepRecord read_record(const fs::path& dir) {
  const fs::path p = dir / "sweep.json";
  std::string text;
  if (!read_text_file(p.string(), text))
    throw ConfigError(
        "'" + dir.string() +
        "' is not a sweep directory (no sweep.json; it is written when a sweep starts)");
  const nlohmann::json j = try_parse_json(text);
  if (!j.is_object() || j.value("format", "") != "tlmgpu-sweep-1" || !j.contains("spec") ||
      !j["spec"].is_string())
    throw ConfigError(p.string() + ": not a tlmgpu sweep record");
  SweepRecord r;
  r.spec_file = j.value("spec_file", "");
  r.base_dir = j.value("base_dir", "");
  r.spec_text = j["spec"].get<std::string>();
  r.timeout_s = j.value("timeout_s", 0.0);
  r.owner = j.value("owner", "");
  return r;
}

DirLock::DirLock(const fs::path& dir, const SweepRecord& rec, bool write,
                 const std::string& expect_hash) {
  fs::create_directories(dir);
  const Gate gate(dir);
  fd_ = open_lock(dir / "sweep.lock", true);
  const bool alone = ::flock(fd_, LOCK_EX | LOCK_NB) == 0;
  std::string problem;
  if (alone && write) {
    nlohmann::ordered_json j{{"format", "tlmgpu-sweep-1"}, {"spec_file", rec.spec_file},
                             {"base_dir", rec.base_dir},   {"timeout_s", rec.timeout_s},
                             {"owner", rec.owner},         {"spec", rec.spec_text}};
    write_file_atomic(dir / "sweep.json", j.dump(2) + "\n");
  } else {
    // Someone works here (or we are a worker): only the same spec may join.
    std::error_code ec;
    const SweepRecord now = fs::exists(dir / "sweep.json", ec) ? read_record(dir) : SweepRecord{};
    const std::string want = expect_hash.empty() ? rec.hash() : expect_hash;
    if (now.spec_text.empty() || now.hash() != want)
      problem = "'" + dir.string() + "': " +
                (alone ? "its sweep.json is not the spec this job was submitted for"
                       : "another sweep works there with a different spec (" + now.spec_file +
                             ", " + now.owner + ")") +
                "; wait for it to end or use another --out";
  }
  if (!problem.empty()) {
    ::close(fd_);
    throw OutputError(problem);
  }
  lock_or_throw(fd_, LOCK_SH, dir / "sweep.lock"); // safe under the gate
}

DirLock::~DirLock() {
  if (fd_ >= 0) ::close(fd_);
}

std::unique_ptr<PointLock> PointLock::try_lock(const fs::path& point_dir) {
  fs::create_directories(point_dir);
  const int fd = open_lock(point_dir / ".lock", true);
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    ::close(fd);
    return nullptr;
  }
  return std::unique_ptr<PointLock>(new PointLock(fd));
}

PointLock::~PointLock() {
  ::close(fd_);
}

bool point_busy(const fs::path& point_dir) {
  const int fd = open_lock(point_dir / ".lock", false);
  if (fd < 0) return false;
  const bool busy = ::flock(fd, LOCK_SH | LOCK_NB) != 0;
  ::close(fd);
  return busy;
}

void write_results(const fs::path& dir, const nlohmann::ordered_json& results) {
  const int fd = open_lock(dir / ".merge.lock", true);
  try {
    lock_or_throw(fd, LOCK_EX, dir / ".merge.lock");
    write_file_atomic(dir / "results.json", results.dump(2) + "\n");
    write_file_atomic(dir / "results.csv", sweep::results_csv(results));
    // What `report` verifies before it trusts results.json.
    write_manifest(dir, {{"results.json", hash_file(dir / "results.json")},
                         {"results.csv", hash_file(dir / "results.csv")}});
  } catch (...) {
    ::close(fd);
    throw;
  }
  ::close(fd);
}

} // namespace tlmgpu::cli
