// The TLM side of a GPU memory access: one extension (GpuExtension) carrying
// the kernel-free GpuAccess, and a payload pool so AT transactions are
// reference counted (tlm_mm_interface) without per-access heap traffic.
#pragma once

#include "tlmgpu/types.hpp"

#include <systemc>
#include <tlm>

#include <array>
#include <cstring>
#include <memory>
#include <type_traits>
#include <vector>

namespace tlmgpu {

struct GpuExtension : tlm::tlm_extension<GpuExtension> {
  GpuAccess access;
  // The input ports a request came in by, one per network it crossed, so a
  // network returns the reply through the port the request used (any
  // initiator, not only an SM: routing never reads src_sm).
  std::array<uint16_t, 4> route{};
  uint8_t hops = 0;
  tlm::tlm_extension_base* clone() const override { return new GpuExtension(*this); }
  void copy_from(const tlm::tlm_extension_base& e) override {
    const auto& o = static_cast<const GpuExtension&>(e);
    access = o.access;
    route = o.route;
    hops = o.hops;
  }
};

// A payload with its own data and byte-enable buffers, sized to the line of
// the first access it carries (grown if a later one is longer; a pooled
// payload allocates once), and a GpuExtension, recycled by PayloadPool.
class GpuPayload : public tlm::tlm_generic_payload {
public:
  explicit GpuPayload(tlm::tlm_mm_interface* mm) : tlm::tlm_generic_payload(mm) {
    set_extension(&ext_);
    set_data_ptr(nullptr);
    set_byte_enable_ptr(nullptr);
  }
  ~GpuPayload() override { clear_extension(&ext_); }
  GpuAccess& access() { return ext_.access; }
  // A network took the request on input `port`; its reply pops it (LIFO:
  // nested networks unwind in reverse order).
  void push_route(uint16_t port) {
    if (ext_.hops == ext_.route.size())
      SC_REPORT_FATAL("tlmgpu/payload", "request crossed more networks than route can hold");
    ext_.route[ext_.hops++] = port;
  }
  uint16_t pop_route() {
    if (ext_.hops == 0) SC_REPORT_FATAL("tlmgpu/payload", "reply with no route to return by");
    return ext_.route[--ext_.hops];
  }
  // Valid after setup(), for its line_bytes.
  uint8_t* data() { return buf_.get(); }
  uint8_t* byte_enable() { return buf_.get() + cap_; }

  // Scratch the initiator owns while its request is out (no other block
  // reads or writes it): what it needs to finish the request when the
  // answer comes back, so it keeps no map from payloads to requests.
  template <class T>
  void set_initiator_state(const T& v) {
    static_assert(sizeof(T) <= sizeof(initiator_state_) && std::is_trivially_copyable_v<T>);
    std::memcpy(initiator_state_.data(), &v, sizeof v);
  }
  template <class T>
  T initiator_state() const {
    static_assert(sizeof(T) <= sizeof(initiator_state_) && std::is_trivially_copyable_v<T>);
    T v;
    std::memcpy(&v, initiator_state_.data(), sizeof v);
    return v;
  }

  // Prepares the payload for one line-sized access.
  // Copies `a`, its lanes included (only the ones it has).
  void setup(tlm::tlm_command cmd, Addr line, unsigned line_bytes, const GpuAccess& a) {
    if (line_bytes > cap_) grow(line_bytes);
    set_command(cmd);
    set_address(line);
    set_data_ptr(buf_.get());
    set_data_length(line_bytes);
    set_streaming_width(line_bytes);
    set_byte_enable_ptr(nullptr);
    set_byte_enable_length(0);
    set_dmi_allowed(false);
    set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    ext_.access = a;
    ext_.hops = 0;
  }
  void enable_bytes(unsigned line_bytes) {
    set_byte_enable_ptr(byte_enable());
    set_byte_enable_length(line_bytes);
  }

private:
  // Data then byte enables, cap_ bytes each, zeroed when made (as the
  // fixed arrays were); recycled contents are not cleared, as before.
  void grow(unsigned line_bytes) {
    auto b = std::make_unique<uint8_t[]>(2 * size_t(line_bytes));
    if (cap_) { // keep what is there: a caller may grow and still read it
      std::memcpy(b.get(), buf_.get(), cap_);
      std::memcpy(b.get() + line_bytes, buf_.get() + cap_, cap_);
    }
    buf_ = std::move(b);
    cap_ = line_bytes;
  }

  GpuExtension ext_;
  // 24 bytes: the SM's InFlight holds a 64-lane mask (64-wide wavefronts).
  std::array<uint8_t, 24> initiator_state_{};
  std::unique_ptr<uint8_t[]> buf_;
  unsigned cap_ = 0;
};

// Every payload in flight came from here; `free` returns it when the last
// reference is released. Also hands out transaction ids.
class PayloadPool : public tlm::tlm_mm_interface {
public:
  GpuPayload* allocate() {
    GpuPayload* p;
    if (free_.empty()) {
      owned_.push_back(std::make_unique<GpuPayload>(this));
      p = owned_.back().get();
    } else {
      p = free_.back();
      free_.pop_back();
    }
    p->acquire();
    ++live_;
    return p;
  }
  void free(tlm::tlm_generic_payload* t) override {
    --live_;
    auto* p = static_cast<GpuPayload*>(t);
    p->access().lanes.release(); // lane storage follows the live lanes, not the pool's size
    free_.push_back(p);
  }
  uint64_t next_txn_id() { return ++txn_; }
  size_t live() const { return live_; }

private:
  std::vector<std::unique_ptr<GpuPayload>> owned_;
  std::vector<GpuPayload*> free_;
  size_t live_ = 0;
  uint64_t txn_ = 0;
};

// Every timed transaction in tlmgpu is a GpuPayload from the pool (only the
// untimed host/debug path uses plain payloads, and it never asks for the
// access), so this is a cast, not an extension lookup: get_extension() was
// 10 % of an AT run.
inline GpuAccess& access_of(tlm::tlm_generic_payload& t) {
  return static_cast<GpuPayload&>(t).access();
}

} // namespace tlmgpu
