#include "workloads/io/input_file.hpp"

#include "workloads/io/decoders.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <limits>
#include <sys/stat.h>
#include <unistd.h>

namespace tlmgpu::io {

namespace {

constexpr size_t kReadChunk = size_t{1} << 16;
// Deflate's largest compression ratio (zlib's technical details: 1032:1),
// which bounds what a gzip file of a given size can expand to.
constexpr uint64_t kGzipMaxRatio = 1032;

// Only regular files: a FIFO blocks open(2) until a writer appears and a
// read until it writes, so `--input some.fifo` used to hang the run forever.
// The open does not block and the type is checked on the descriptor.
std::unique_ptr<FileInput> open_file(const std::string& path, uint64_t& size) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) throw InputError(0, std::string("cannot open: ") + std::strerror(errno));
  struct stat st {};
  std::string why;
  if (::fstat(fd, &st) != 0)
    why = std::strerror(errno);
  else if (S_ISDIR(st.st_mode))
    why = std::strerror(EISDIR);
  else if (!S_ISREG(st.st_mode))
    why = "not a regular file (a FIFO or device?)";
  else if (::fcntl(fd, F_SETFL, O_RDONLY) != 0) // reads block again, as a stdio stream expects
    why = std::strerror(errno);
  std::FILE* f = why.empty() ? ::fdopen(fd, "rb") : nullptr;
  if (!f && why.empty()) why = std::strerror(errno);
  if (!f) {
    ::close(fd);
    throw InputError(0, "cannot open: " + why);
  }
  size = uint64_t(st.st_size);
  return std::make_unique<FileInput>(f);
}

} // namespace

std::string_view compression_name(Compression c) {
  switch (c) {
  case Compression::gzip:
    return "gzip";
  case Compression::xz:
    return "xz";
  case Compression::bzip2:
    return "bzip2";
  case Compression::zstd:
    return "zstd";
  case Compression::none:
    break;
  }
  return "";
}

std::string strip_compression_suffix(const std::string& path) {
  std::string lower = path;
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  for (std::string_view suffix : {".gz", ".xz", ".bz2", ".zst"})
    if (lower.ends_with(suffix)) return path.substr(0, path.size() - suffix.size());
  return path;
}

LineReader::LineReader(const std::string& path, size_t max_line_bytes)
    : path_(path), max_line_(max_line_bytes), buffer_(new char[kReadChunk]) {
  std::unique_ptr<FileInput> in = open_file(path, file_size_);
  compression_ = sniff_compression(in->head());
  source_ = make_source(compression_, std::move(in));
}

LineReader::~LineReader() = default;

uint64_t LineReader::size_bound() const {
  constexpr uint64_t kMax = std::numeric_limits<uint64_t>::max();
  switch (compression_) {
  case Compression::none:
    return file_size_;
  case Compression::gzip:
    return file_size_ > kMax / kGzipMaxRatio ? kMax : file_size_ * kGzipMaxRatio;
  default:
    return kMax;
  }
}

bool LineReader::refill() {
  if (eof_) return false;
  try {
    end_ = source_->read(buffer_.get(), kReadChunk);
  } catch (const InputError& e) {
    throw InputError(line_number_ + 1, e.problem());
  }
  pos_ = 0;
  eof_ = end_ == 0;
  return !eof_;
}

bool LineReader::next(std::string_view& line) {
  line_.clear();
  bool any = false;
  for (;;) {
    if (pos_ == end_ && !refill()) break;
    any = true;
    const char* start = buffer_.get() + pos_;
    const void* nl = std::memchr(start, '\n', end_ - pos_);
    const size_t take = nl ? static_cast<const char*>(nl) - start : end_ - pos_;
    if (line_.size() + take > max_line_)
      throw InputError(line_number_ + 1,
                       "line longer than " + std::to_string(max_line_) + " bytes (binary file?)");
    line_.append(start, take);
    pos_ += take;
    if (nl) {
      ++pos_;
      break;
    }
  }
  if (!any) return false;
  ++line_number_;
  if (!line_.empty() && line_.back() == '\r') line_.pop_back();
  line = line_;
  return true;
}

std::string read_head(const std::string& path, size_t n) {
  uint64_t size = 0;
  std::unique_ptr<FileInput> in = open_file(path, size);
  const Compression c = sniff_compression(in->head());
  std::unique_ptr<ByteSource> source = make_source(c, std::move(in));
  std::string out(n, '\0');
  size_t got = 0;
  while (got < n) {
    const size_t k = source->read(out.data() + got, n - got);
    if (k == 0) break;
    got += k;
  }
  out.resize(got);
  return out;
}

} // namespace tlmgpu::io
