#include "tlmgpu/json_limits.hpp"

#include "tlmgpu/memory_budget.hpp"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace tlmgpu {

// The open is non-blocking and the type is checked on the open descriptor
// (no race with a rename), because a FIFO given as an input blocks open(2)
// or read(2) forever.
std::string read_regular_file(const std::string& path, std::string& text, uint64_t max_bytes) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return std::strerror(errno);
  struct FdCloser {
    int fd;
    ~FdCloser() { ::close(fd); }
  } closer{fd};
  struct stat st {};
  if (::fstat(fd, &st) != 0) return std::strerror(errno);
  if (!S_ISREG(st.st_mode))
    return S_ISDIR(st.st_mode) ? std::strerror(EISDIR) : "not a regular file (a FIFO or device?)";
  if (uint64_t(st.st_size) > max_bytes)
    return format_bytes(uint64_t(st.st_size)) + ", larger than the " + format_bytes(max_bytes) +
           " such a file may be";
  std::string buf(size_t(st.st_size), '\0');
  size_t got = 0;
  while (got < buf.size()) {
    const ssize_t k = ::read(fd, buf.data() + got, buf.size() - got);
    if (k < 0 && errno == EINTR) continue;
    if (k < 0) return std::strerror(errno);
    if (k == 0) break; // the file shrank meanwhile: take what is there
    got += size_t(k);
  }
  buf.resize(got);
  text = std::move(buf);
  return "";
}

void throw_json_too_deep(const std::string& shown) {
  throw ConfigError((shown.empty() ? "" : shown + ": ") + "JSON nested deeper than " +
                    std::to_string(kMaxJsonDepth) + " levels (the limit)");
}

bool read_text_file(const std::string& path, std::string& text) {
  return read_regular_file(path, text, UINT64_MAX).empty();
}

std::string read_config_file(const std::string& path, const std::string& what) {
  std::string text;
  const std::string why = read_regular_file(path, text, kMaxConfigFileBytes);
  if (!why.empty()) throw ConfigError("cannot read " + what + " '" + path + "': " + why);
  return text;
}

} // namespace tlmgpu
