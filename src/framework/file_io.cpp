#include "tlmgpu/file_io.hpp"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <streambuf>
#include <system_error>
#include <unistd.h>
#include <vector>

namespace tlmgpu {
namespace fs = std::filesystem;

OutputError write_error(const fs::path& shown, int err) {
  return OutputError("cannot write '" + shown.string() + "': " + std::strerror(err));
}

// A stream buffer over a file descriptor that remembers the first errno: a
// std::ofstream only says that something failed, not what (ENOSPC, EFBIG,
// EIO), and a user needs the reason to act on it.
class FileWriter::Buffer : public std::streambuf {
public:
  Buffer(const fs::path& path, fs::path shown) : shown_(std::move(shown)), data_(1 << 16) {
    fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd_ < 0) throw write_error(shown_, errno);
    setp(data_.data(), data_.data() + data_.size());
  }
  ~Buffer() override {
    if (fd_ >= 0) ::close(fd_);
  }

  // `stream_failed`: the ostream went bad without a failed system call
  // (it cannot today, but a lost error must not pass as success).
  void close(bool stream_failed) {
    drain();
    if (stream_failed && err_ == 0) err_ = EIO;
    if (err_ == 0 && ::fsync(fd_) != 0 && errno != EINVAL) err_ = errno; // EINVAL: /dev/*
    if (::close(fd_) != 0 && err_ == 0) err_ = errno;
    fd_ = -1;
    if (err_ != 0) throw write_error(shown_, err_);
  }

protected:
  int_type overflow(int_type c) override {
    if (!drain()) return traits_type::eof();
    if (!traits_type::eq_int_type(c, traits_type::eof())) {
      *pptr() = traits_type::to_char_type(c);
      pbump(1);
    }
    return traits_type::not_eof(c);
  }
  int sync() override { return drain() ? 0 : -1; }

private:
  // Writes the buffered bytes; after the first error the rest are dropped
  // (the file is lost anyway) and the error is kept for close().
  bool drain() {
    const char* p = pbase();
    std::size_t n = std::size_t(pptr() - pbase());
    while (n > 0 && err_ == 0) {
      const ssize_t w = ::write(fd_, p, n);
      if (w < 0 && errno == EINTR) continue;
      if (w <= 0) {
        err_ = w < 0 ? errno : EIO;
        break;
      }
      p += w, n -= std::size_t(w);
    }
    setp(data_.data(), data_.data() + data_.size());
    return err_ == 0;
  }

  fs::path shown_;
  std::vector<char> data_;
  int fd_ = -1;
  int err_ = 0;
};

FileWriter::FileWriter(const fs::path& path, fs::path shown)
    : buf_(std::make_unique<Buffer>(path, shown.empty() ? path : std::move(shown))),
      stream_(std::make_unique<std::ostream>(buf_.get())) {}
FileWriter::FileWriter(FileWriter&&) noexcept = default;
FileWriter& FileWriter::operator=(FileWriter&&) noexcept = default;
FileWriter::~FileWriter() = default;

void FileWriter::close() {
  const bool ok = bool(stream_->flush());
  buf_->close(!ok);
}

void write_file_checked(const fs::path& path, const std::string& text, const fs::path& shown) {
  FileWriter f(path, shown);
  f.stream().write(text.data(), std::streamsize(text.size()));
  f.close();
}

void write_file_atomic(const fs::path& path, const std::string& text) {
  const fs::path tmp = path.string() + ".tmp";
  try {
    write_file_checked(tmp, text, path);
    std::error_code ec;
    fs::rename(tmp, path, ec);
    if (ec) throw write_error(path, ec.value());
  } catch (...) {
    std::error_code ignored;
    fs::remove(tmp, ignored);
    throw;
  }
}

void sync_directory(const fs::path& dir, const fs::path& shown) {
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  int err = fd < 0 ? errno : 0;
  if (fd >= 0 && ::fsync(fd) != 0 && errno != EINVAL) err = errno;
  if (fd >= 0) ::close(fd);
  if (err != 0) throw write_error(shown.empty() ? dir : shown, err);
}

} // namespace tlmgpu
