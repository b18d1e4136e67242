// The messages of hLRC's recall channel (models/hlrc/README.md): recalls
// (home -> owner), deferred answers and releases (owner -> home). Each is a
// TLM generic payload carrying an HlrcMessage extension, sent through the
// crossbar's hLRC channel (HlrcChannel) by blocking transport. Times travel
// in the message, each in its sender's or receiver's clock as named: the legs
// are booked on the crossbar's links when the message passes (call order),
// which is what the `delay` argument cannot say for a message answered later.
#pragma once

#include "tlmgpu/cache_array.hpp"
#include "tlmgpu/sim/clock.hpp"
#include "tlmgpu/types.hpp"

#include <tlm>

#include <cstdint>
#include <optional>

namespace tlmgpu {

// Why an owner gives a line up (selects the traffic class).
enum class HlrcRelease : uint8_t {
  Eviction, // capacity: an owned line was the victim of a fill or grant
  Flush,    // kernel end or a device/system-scope fence
  // LT: the grant of a contended line has served l1.mshr_max_merge requests
  // before its arrival; the line goes back to its home, where AT's deferred
  // recall would take it (l1_hlrc_module.cpp, lt_hlrc_budget)
  Handover
};

// What an owner's L1 does with a recall.
enum class HlrcAnswer : uint8_t {
  Given,   // it owned the line: bytes handed back, line dropped
  Revoked, // the grant is on its way and the recall may not wait: the grant is
           // cancelled (the home performed its atomic and keeps the newest data)
  Deferred // the grant is on its way: the owner answers when it has arrived and
           // served the requests waiting for it (an Answer message)
};

struct HlrcMessage : tlm::tlm_extension<HlrcMessage> {
  enum class Kind : uint8_t {
    Recall,  // home -> owner: give `line` back (answered in place, or Deferred)
    Answer,  // owner -> home: the deferred recall's bytes, once the grant arrived
    Release, // owner -> home: the owner gives `line` up (eviction, kernel end, fence)
    // LT: an L1 whose line was recalled at a time later than its atomic's
    // (the recall reached it later in simulated time, earlier in call order)
    // performs the atomic where the line is now: L1 -> home -> owner, no
    // time and no traffic (models/hlrc/README.md, "LT: ownership in time").
    Apply,
  };
  Kind kind = Kind::Recall;
  Addr line = 0;
  uint16_t sm = 0;             // the owner
  uint32_t slice = 0;          // the home
  GpuAccess* access = nullptr; // Apply: the atomic (lanes' old values written back)
  bool applied = false;        // Apply: set if the line's owner performed it
  // Recall: L2 cycle the home sends it. Answer, Release: SM cycle sent.
  Cycle sent = 0;
  // Set by the channel on delivery to a home: the L2 cycle the bytes arrive;
  // on delivery of a Recall to its owner: the SM cycle the recall reaches it.
  Cycle arrive = 0;
  // Set by the channel on return: Recall answered in place: the L2 cycle the
  // write-back (or clean ack) reaches the home; Release: the SM cycle the
  // data reaches the home.
  Cycle back = 0;
  bool may_defer = false;                  // Recall: the home can park requests
  HlrcRelease why = HlrcRelease::Eviction; // Release
  HlrcAnswer answer = HlrcAnswer::Given;   // Recall: set by the owner
  std::optional<Writeback> data;           // the owner's bytes; none if clean

  tlm::tlm_extension_base* clone() const override { return new HlrcMessage(*this); }
  void copy_from(const tlm::tlm_extension_base& o) override {
    *this = static_cast<const HlrcMessage&>(o);
  }
};

// A message in its payload, for one blocking transport from the stack.
struct HlrcEnvelope {
  HlrcMessage msg;
  tlm::tlm_generic_payload payload;
  HlrcEnvelope() {
    payload.set_command(tlm::TLM_IGNORE_COMMAND);
    payload.set_extension(&msg);
  }
  ~HlrcEnvelope() { payload.clear_extension(&msg); }
  HlrcEnvelope(const HlrcEnvelope&) = delete;
  HlrcEnvelope& operator=(const HlrcEnvelope&) = delete;
  // Sends the message through `socket` (the channel adds no `delay`: times
  // are in the message).
  template <class Socket>
  void send(Socket& socket) {
    payload.set_address(msg.line);
    sc_core::sc_time none = sc_core::SC_ZERO_TIME;
    socket->b_transport(payload, none);
  }
};

// The message a channel or endpoint received; a payload without one is a
// wiring error.
inline HlrcMessage& hlrc_message(tlm::tlm_generic_payload& p) {
  HlrcMessage* m = p.get_extension<HlrcMessage>();
  if (!m) throw std::logic_error("hLRC channel: a payload without an HlrcMessage");
  return *m;
}

} // namespace tlmgpu
