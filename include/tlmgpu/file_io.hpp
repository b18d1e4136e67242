// Output files that are never silently wrong. Every write is checked down to
// the system call (a full disk shows up in write(2), or only in fsync(2) or
// close(2) on some file systems), and the first failure becomes one
// OutputError naming the file and the reason (strerror), never a file that
// was cut short while the run reported success.
#pragma once

#include <filesystem>
#include <memory>
#include <ostream>
#include <stdexcept>
#include <string>

namespace tlmgpu {

// A file or directory that could not be written: the environment's fault
// (disk full, permissions, a file where a directory should be), reported
// with the usage and input errors (exit code 2, docs/config.md).
struct OutputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// "cannot write '<shown>': <strerror(err)>".
OutputError write_error(const std::filesystem::path& shown, int err);

// A file written through a std::ostream. close() flushes, fsyncs and closes
// it and throws OutputError if any write, the fsync or the close failed, so
// data is on disk when close() returns. `shown` is the name used in errors
// (the file's final name when it is written somewhere temporary first); by
// default `path`. The destructor closes quietly: a writer that was not
// closed is being abandoned because of an earlier error.
class FileWriter {
public:
  explicit FileWriter(const std::filesystem::path& path, std::filesystem::path shown = {});
  FileWriter(FileWriter&&) noexcept;
  FileWriter& operator=(FileWriter&&) noexcept;
  ~FileWriter();

  std::ostream& stream() { return *stream_; }
  void close();

private:
  class Buffer;
  std::unique_ptr<Buffer> buf_;
  std::unique_ptr<std::ostream> stream_;
};

// `text` into `path` through a FileWriter (no rename: for files inside a
// directory that is itself renamed into place, see result_dir.hpp).
void write_file_checked(const std::filesystem::path& path, const std::string& text,
                        const std::filesystem::path& shown = {});

// Writes `text` to `path.tmp`, fsyncs it and renames it over `path`, so a
// reader sees the old file or the new one, never a part. On any failure the
// temporary file is removed and OutputError names `path` and the reason.
void write_file_atomic(const std::filesystem::path& path, const std::string& text);

// fsync(2) on a directory, so that the renames and creations in it survive a
// crash. OutputError naming `shown` (default `dir`) if it fails.
void sync_directory(const std::filesystem::path& dir, const std::filesystem::path& shown = {});

} // namespace tlmgpu
