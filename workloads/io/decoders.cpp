// The four decompressors. Each loops until it has produced at least one
// byte, so read() returning 0 always means a clean end of the data; a stream
// that ends early is an error, never a silently short file.
//
// Concatenated streams are read as one, as gzip(1), bzip2(1), xz(1) and
// zstd(1) do: `cat a.gz b.gz` and pbzip2's multi-stream output are common.
#include "workloads/io/decoders.hpp"

#include <algorithm>
#include <cstring>

#include <bzlib.h>
#include <lzma.h>
#include <zlib.h>
#include <zstd.h>

namespace tlmgpu::io {

namespace {

constexpr size_t kChunk = size_t{1} << 16;

[[noreturn]] void damaged(std::string_view format, const std::string& why) {
  throw InputError(0, "decompression failed (" + std::string(format) + "): " + why);
}

class PlainSource final : public ByteSource {
public:
  explicit PlainSource(std::unique_ptr<FileInput> in) : in_(std::move(in)) {}
  size_t read(char* out, size_t n) override {
    if (pending_.empty()) pending_ = in_->take();
    const size_t k = std::min(n, pending_.size());
    std::memcpy(out, pending_.data(), k);
    pending_ = pending_.subspan(k);
    return k;
  }

private:
  std::unique_ptr<FileInput> in_;
  std::span<const uint8_t> pending_;
};

class GzipSource final : public ByteSource {
public:
  explicit GzipSource(std::unique_ptr<FileInput> in) : in_(std::move(in)) {
    if (inflateInit2(&z_, 15 + 16) != Z_OK) damaged("gzip", "out of memory"); // 16: gzip only
  }
  ~GzipSource() override { inflateEnd(&z_); }
  size_t read(char* out, size_t n) override {
    z_.next_out = reinterpret_cast<Bytef*>(out);
    z_.avail_out = static_cast<uInt>(std::min(n, kChunk));
    const uInt want = z_.avail_out;
    while (z_.avail_out == want) {
      if (z_.avail_in == 0) {
        const auto bytes = in_->take();
        if (bytes.empty()) {
          if (member_done_) break;
          damaged("gzip", "unexpected end of file");
        }
        z_.next_in = const_cast<Bytef*>(bytes.data());
        z_.avail_in = static_cast<uInt>(bytes.size());
      }
      if (member_done_) { // another member follows
        inflateReset(&z_);
        member_done_ = false;
      }
      const int rc = inflate(&z_, Z_NO_FLUSH);
      if (rc == Z_STREAM_END)
        member_done_ = true;
      else if (rc != Z_OK && rc != Z_BUF_ERROR)
        damaged("gzip", z_.msg ? z_.msg : "error " + std::to_string(rc));
    }
    return want - z_.avail_out;
  }

private:
  std::unique_ptr<FileInput> in_;
  z_stream z_{};
  bool member_done_ = false;
};

class XzSource final : public ByteSource {
public:
  explicit XzSource(std::unique_ptr<FileInput> in) : in_(std::move(in)) {
    if (lzma_stream_decoder(&s_, UINT64_MAX, LZMA_CONCATENATED) != LZMA_OK)
      damaged("xz", "cannot start the decoder");
  }
  ~XzSource() override { lzma_end(&s_); }
  size_t read(char* out, size_t n) override {
    if (done_) return 0;
    s_.next_out = reinterpret_cast<uint8_t*>(out);
    s_.avail_out = n;
    while (s_.avail_out == n) {
      if (s_.avail_in == 0 && !input_done_) {
        const auto bytes = in_->take();
        input_done_ = bytes.empty();
        s_.next_in = bytes.data();
        s_.avail_in = bytes.size();
      }
      // LZMA_CONCATENATED needs LZMA_FINISH to know that no stream follows.
      const lzma_ret rc = lzma_code(&s_, input_done_ ? LZMA_FINISH : LZMA_RUN);
      if (rc == LZMA_STREAM_END) {
        done_ = true;
        break;
      }
      if (rc == LZMA_BUF_ERROR) damaged("xz", "unexpected end of file");
      if (rc == LZMA_FORMAT_ERROR || rc == LZMA_DATA_ERROR) damaged("xz", "corrupt data");
      if (rc != LZMA_OK) damaged("xz", "error " + std::to_string(rc));
    }
    return n - s_.avail_out;
  }

private:
  std::unique_ptr<FileInput> in_;
  lzma_stream s_ = LZMA_STREAM_INIT;
  bool input_done_ = false, done_ = false;
};

class Bzip2Source final : public ByteSource {
public:
  explicit Bzip2Source(std::unique_ptr<FileInput> in) : in_(std::move(in)) { start(); }
  ~Bzip2Source() override { BZ2_bzDecompressEnd(&b_); }
  size_t read(char* out, size_t n) override {
    b_.next_out = out;
    b_.avail_out = static_cast<unsigned>(std::min(n, kChunk));
    const unsigned want = b_.avail_out;
    while (b_.avail_out == want) {
      if (b_.avail_in == 0) {
        const auto bytes = in_->take();
        if (bytes.empty()) {
          if (stream_done_) break;
          damaged("bzip2", "unexpected end of file");
        }
        b_.next_in = const_cast<char*>(reinterpret_cast<const char*>(bytes.data()));
        b_.avail_in = static_cast<unsigned>(bytes.size());
      }
      if (stream_done_) { // another stream follows (pbzip2)
        char* next_in = b_.next_in;
        const unsigned avail_in = b_.avail_in;
        BZ2_bzDecompressEnd(&b_);
        start();
        b_.next_in = next_in;
        b_.avail_in = avail_in;
        b_.next_out = out + (want - b_.avail_out);
        stream_done_ = false;
      }
      const int rc = BZ2_bzDecompress(&b_);
      if (rc == BZ_STREAM_END)
        stream_done_ = true;
      else if (rc == BZ_DATA_ERROR || rc == BZ_DATA_ERROR_MAGIC)
        damaged("bzip2", "corrupt data");
      else if (rc != BZ_OK)
        damaged("bzip2", "error " + std::to_string(rc));
    }
    return want - b_.avail_out;
  }

private:
  void start() {
    const unsigned out = b_.avail_out;
    b_ = bz_stream{};
    b_.avail_out = out;
    if (BZ2_bzDecompressInit(&b_, 0, 0) != BZ_OK) damaged("bzip2", "cannot start the decoder");
  }

  std::unique_ptr<FileInput> in_;
  bz_stream b_{};
  bool stream_done_ = false;
};

class ZstdSource final : public ByteSource {
public:
  explicit ZstdSource(std::unique_ptr<FileInput> in)
      : in_(std::move(in)), d_(ZSTD_createDStream(), &ZSTD_freeDStream) {
    if (!d_) damaged("zstd", "cannot start the decoder");
  }
  size_t read(char* out, size_t n) override {
    ZSTD_outBuffer o{out, n, 0};
    while (o.pos == 0) {
      if (buf_.pos == buf_.size && !input_done_) {
        const auto bytes = in_->take();
        input_done_ = bytes.empty();
        buf_ = {bytes.data(), bytes.size(), 0};
      }
      // At the end of the input a frame may still hold output to flush;
      // only when nothing comes out is an unfinished frame a truncation.
      const size_t consumed = buf_.pos;
      const size_t rc = ZSTD_decompressStream(d_.get(), &o, &buf_);
      if (ZSTD_isError(rc)) damaged("zstd", ZSTD_getErrorName(rc));
      // Between frames the decoder asks for the next header (rc > 0) even
      // though the data may end there: only a call that did something says
      // whether a frame is open.
      if (buf_.pos != consumed || o.pos != 0) hint_ = rc;
      if (o.pos == 0 && input_done_) {
        if (hint_ != 0) damaged("zstd", "unexpected end of file");
        break;
      }
    }
    return o.pos;
  }

private:
  std::unique_ptr<FileInput> in_;
  std::unique_ptr<ZSTD_DStream, size_t (*)(ZSTD_DStream*)> d_;
  ZSTD_inBuffer buf_{nullptr, 0, 0};
  size_t hint_ = 0; // 0: the last frame is complete
  bool input_done_ = false;
};

bool starts_with(std::span<const uint8_t> head, std::initializer_list<uint8_t> magic) {
  return head.size() >= magic.size() && std::equal(magic.begin(), magic.end(), head.begin());
}

} // namespace

FileInput::FileInput(std::FILE* file) : file_(file, &std::fclose), buffer_(kChunk) {
  end_ = std::fread(buffer_.data(), 1, buffer_.size(), file_.get());
  if (end_ < buffer_.size() && std::ferror(file_.get())) throw InputError(0, "read error");
}

std::span<const uint8_t> FileInput::take() {
  if (pos_ == end_) {
    pos_ = 0;
    end_ = std::fread(buffer_.data(), 1, buffer_.size(), file_.get());
    if (end_ == 0 && std::ferror(file_.get())) throw InputError(0, "read error");
  }
  const std::span<const uint8_t> out(buffer_.data() + pos_, end_ - pos_);
  pos_ = end_;
  return out;
}

Compression sniff_compression(std::span<const uint8_t> head) {
  if (starts_with(head, {0x1f, 0x8b})) return Compression::gzip;
  if (starts_with(head, {0xfd, '7', 'z', 'X', 'Z', 0x00})) return Compression::xz;
  if (starts_with(head, {0x28, 0xb5, 0x2f, 0xfd})) return Compression::zstd;
  // "BZh" + block size digit + the block (pi) or end-of-stream (sqrt pi)
  // magic: ten bytes, so that a text file starting with "BZh" stays text.
  if (head.size() >= 10 && starts_with(head, {'B', 'Z', 'h'}) && head[3] >= '1' && head[3] <= '9') {
    const auto rest = head.subspan(4);
    if (starts_with(rest, {0x31, 0x41, 0x59, 0x26, 0x53, 0x59}) ||
        starts_with(rest, {0x17, 0x72, 0x45, 0x38, 0x50, 0x90}))
      return Compression::bzip2;
  }
  return Compression::none;
}

std::unique_ptr<ByteSource> make_source(Compression c, std::unique_ptr<FileInput> in) {
  switch (c) {
  case Compression::gzip:
    return std::make_unique<GzipSource>(std::move(in));
  case Compression::xz:
    return std::make_unique<XzSource>(std::move(in));
  case Compression::bzip2:
    return std::make_unique<Bzip2Source>(std::move(in));
  case Compression::zstd:
    return std::make_unique<ZstdSource>(std::move(in));
  case Compression::none:
    break;
  }
  return std::make_unique<PlainSource>(std::move(in));
}

} // namespace tlmgpu::io
