#include "tlmgpu/result_dir.hpp"

#include "tlmgpu/file_io.hpp"
#include "tlmgpu/manifest.hpp"

#include <cerrno>
#include <csignal>
#include <set>
#include <string>
#include <unistd.h>

namespace tlmgpu {
namespace fs = std::filesystem;
namespace {

// Staging directories "<prefix><pid>" in `dir` whose process is gone: left by
// a run that was killed (a sweep's timeout sends SIGTERM). A live process
// with that pid keeps its directory, whoever it is.
void remove_stale(const fs::path& dir, const std::string& prefix) {
  std::error_code ec;
  for (auto it = fs::directory_iterator(dir, ec); !ec && it != fs::end(it); it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.compare(0, prefix.size(), prefix) != 0) continue;
    const std::string digits = name.substr(prefix.size());
    if (digits.empty() || digits.size() > 9 ||
        digits.find_first_not_of("0123456789") != std::string::npos)
      continue;
    const pid_t pid = pid_t(std::stol(digits));
    if (pid == getpid() || ::kill(pid, 0) == 0 || errno != ESRCH) continue;
    std::error_code ignored;
    fs::remove_all(it->path(), ignored);
  }
}

// A name from an old manifest that may be deleted: below the directory.
bool inside(const std::string& rel) {
  const fs::path p(rel);
  if (p.empty() || p.is_absolute()) return false;
  for (const fs::path& part : p)
    if (part == "..") return false;
  return true;
}

void sync_tree(const fs::path& root, const fs::path& shown) {
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(root, ec); !ec && it != fs::end(it);
       it.increment(ec))
    if (it->is_directory(ec)) sync_directory(it->path(), shown);
  sync_directory(root, shown);
}

} // namespace

ResultDir::ResultDir(fs::path out) : out_(std::move(out)) {
  const std::string arg = "--out '" + out_.string() + "'";
  if (out_.empty()) throw OutputError("--out: empty path");
  target_ = fs::absolute(out_).lexically_normal();
  if (target_.filename().empty() && target_.has_parent_path() && target_ != target_.root_path())
    target_ = target_.parent_path();
  std::error_code ec;
  const fs::file_status st = fs::status(target_, ec);
  if (fs::exists(st) && !fs::is_directory(st))
    throw OutputError(arg + ": exists and is not a directory");
  existed_ = fs::is_directory(st);
  fs::path parent = target_;
  std::string prefix = ".tmp-";
  if (!existed_) {
    parent = target_.parent_path();
    prefix = target_.filename().string() + ".tmp-";
    fs::create_directories(parent, ec);
    if (ec) throw OutputError(arg + ": cannot create '" + parent.string() + "': " + ec.message());
  }
  remove_stale(parent, prefix);
  staging_ = parent / (prefix + std::to_string(getpid()));
  fs::remove_all(staging_, ec); // ours from an earlier process with this pid
  if (!fs::create_directory(staging_, ec) || ec)
    throw OutputError(arg + ": cannot write into '" + parent.string() +
                      "': " + (ec ? ec.message() : "exists"));
}

ResultDir::~ResultDir() {
  if (committed_ || staging_.empty()) return;
  std::error_code ignored;
  fs::remove_all(staging_, ignored);
}

fs::path ResultDir::shown(const fs::path& p) const {
  const fs::path rel = p.lexically_relative(staging_);
  if (rel.empty() || *rel.begin() == "..") return p;
  return rel == "." ? out_ : out_ / rel;
}

fs::path ResultDir::staged(const fs::path& p) const {
  const fs::path rel = fs::absolute(p).lexically_normal().lexically_relative(target_);
  if (rel.empty() || rel == "." || *rel.begin() == "..") return p;
  return staging_ / rel;
}

void ResultDir::commit() {
  const Manifest files = scan_directory(staging_);
  write_manifest(staging_, files);
  sync_tree(staging_, out_);
  if (!existed_) {
    std::error_code ec;
    fs::rename(staging_, target_, ec);
    if (!ec) {
      committed_ = true;
      sync_directory(target_.parent_path(), out_.parent_path().empty() ? "." : out_.parent_path());
      return;
    }
    // Someone created --out meanwhile: put the files into it instead.
    if (ec != std::errc::directory_not_empty && ec != std::errc::file_exists)
      throw write_error(out_, ec.value());
  }
  commit_into_existing(files);
}

void ResultDir::commit_into_existing(const Manifest& now) {
  Manifest old;
  std::string problem;
  const bool had_old = read_manifest(target_, old, problem);
  std::set<fs::path> dirs{target_};
  std::error_code ec;
  // From here until the new manifest is in place, out() has none: readers
  // see an incomplete directory, never a mix that claims to be whole.
  fs::remove(target_ / kManifestName, ec);
  if (ec) throw write_error(out_ / kManifestName, ec.value());
  for (const auto& [name, entry] : now) {
    const fs::path dst = target_ / name;
    fs::create_directories(dst.parent_path(), ec);
    if (!ec) fs::rename(staging_ / name, dst, ec);
    if (ec) throw write_error(out_ / name, ec.value());
    dirs.insert(dst.parent_path());
  }
  if (had_old)
    for (const auto& [name, entry] : old)
      if (!now.count(name) && inside(name)) fs::remove(target_ / name, ec);
  fs::rename(staging_ / kManifestName, target_ / kManifestName, ec);
  if (ec) throw write_error(out_ / kManifestName, ec.value());
  committed_ = true;
  fs::remove_all(staging_, ec);
  for (const fs::path& d : dirs)
    sync_directory(d, out_);
}

} // namespace tlmgpu
