// A run's output directory (--out), all or nothing. Every file goes into a
// staging directory first; commit() adds manifest.json (tlmgpu/manifest.hpp)
// and moves the result into place only when every file was written, fsynced
// and closed without error. A run that fails or throws before commit()
// leaves the output directory as it was and removes its staging directory.
//
// When --out does not exist yet, the staging directory is <out>.tmp-<pid>
// beside it and commit() renames it to <out> (one atomic step). When --out
// exists (a rerun, or a sweep's point directory that already holds the run's
// captured stdout.txt), the staging directory is <out>/.tmp-<pid> inside it,
// so that the rename cannot cross file systems; commit() removes the old
// manifest.json, renames each new file over the old one, deletes the files
// the old manifest listed that this run did not write, and writes the new
// manifest.json last. Files in <out> that no tlmgpu run wrote are kept. A
// crash in the middle of that (a few renames) leaves <out> without a
// manifest, which every reader treats as incomplete.
#pragma once

#include "tlmgpu/manifest.hpp"

#include <filesystem>

namespace tlmgpu {

class ResultDir {
public:
  // Checks `out` (not an existing non-directory; creatable; writable) by
  // creating the staging directory; OutputError if that fails. Also removes
  // staging directories of earlier runs on `out` that were killed (their
  // process no longer exists).
  explicit ResultDir(std::filesystem::path out);
  ~ResultDir(); // removes the staging directory unless committed
  ResultDir(const ResultDir&) = delete;
  ResultDir& operator=(const ResultDir&) = delete;

  // Where the run writes its files until commit().
  const std::filesystem::path& staging() const { return staging_; }
  // Where they will be: --out as given, for messages.
  const std::filesystem::path& out() const { return out_; }
  // A path below staging() as it will be named after commit() (for errors
  // and summaries); other paths unchanged.
  std::filesystem::path shown(const std::filesystem::path& p) const;
  // A path below out() as it is while staging (for a --trace file inside
  // --out); other paths unchanged.
  std::filesystem::path staged(const std::filesystem::path& p) const;

  // Writes the manifest of everything in staging() and moves it all into
  // out(). Throws OutputError naming the file and the reason on failure.
  void commit();

private:
  void commit_into_existing(const Manifest& files);

  std::filesystem::path out_;     // as given
  std::filesystem::path target_;  // absolute
  std::filesystem::path staging_; // absolute
  bool existed_ = false, committed_ = false;
};

} // namespace tlmgpu
