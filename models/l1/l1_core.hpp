// Per-SM L1 data cache, kernel-free (style rule 1): tags and real data. The
// L1 module owns the sockets, MSHRs, queues and clock; see README.md.
//
// Sectored, LRU, allocate on fill. Global stores are write-through (NVIDIA,
// the default) or write-back; with write_allocate a store miss first fetches
// the missing sectors it writes only partly (fetch-on-write) or writes at once
// and fetches later (lazy_on_read), otherwise it bypasses the L1. Atomics are performed at L2,
// so the L1 drops its copy of their sectors; in PHI mode commutative reds are
// performed here instead, in update-only lines (l1_core_phi.cpp).
#pragma once

#include "models/l1/l1_spec.hpp"
#include "models/scoped/sync_tables.hpp"
#include "tlmgpu/cache_array.hpp"
#include "tlmgpu/partial_update.hpp"
#include "tlmgpu/stats.hpp"
#include "tlmgpu/types.hpp"

#include <cstdint>
#include <optional>
#include <vector>

namespace tlmgpu {

struct L1Outcome {
  enum class Kind {
    Hit,    // serviced here (load data copied / write-back store absorbed)
    Miss,   // fetch `fetch_sectors`, fill(), then call again with replay = true
    Forward // send the store on to L2 (write-through, or write-back no-allocate miss)
  } kind = Kind::Hit;
  uint32_t fetch_sectors = 0;
  std::optional<Writeback> writeback;
  // Scoped: the sFIFO was full, so its oldest line's dirty bytes leave too.
  std::optional<Writeback> sfifo_overflow;
};

class L1Core {
public:
  // `spec` must be derived (sets, sectors_per_line) unless bytes == 0
  // (disabled L1); it is copied.
  L1Core(const L1Spec& spec, StatGroup& stats);

  bool enabled() const { return array_.enabled(); }
  bool write_back() const { return write_back_; }

  // `data` is one line indexed by offset in the line. A Hit copies `sectors`
  // into it; a Miss names the sectors to fetch. `replay` marks a call for a
  // request already counted (the call after the miss's fill, or the retry of
  // a request the module stalled) so each request is counted once.
  L1Outcome load(Addr line, uint32_t sectors, uint8_t* data, bool replay = false);

  // Installs `sectors` of `data`; bytes already valid are kept (a write-back
  // L1's dirty bytes win over the older fill data). The returned writeback is
  // a dirty victim (write_back mode only) that must go to L2 before anything
  // that could read it.
  std::optional<Writeback> fill(Addr line, uint32_t sectors, const uint8_t* data);

  // `byte_enable` is line-sized, nonzero = write (null = the whole line).
  L1Outcome store(Addr line, const uint8_t* data, const uint8_t* byte_enable, bool replay = false);

  // An atomic to `sectors` of `line` is about to be performed at L2: drop
  // this L1's copy of those sectors. In write_back mode their dirty bytes are
  // returned and must reach L2 ahead of the atomic (never in write_through).
  std::optional<Writeback> atomic(Addr line, uint32_t sectors);

  // write_back mode: every dirty line's dirty bytes (lines stay valid, clean).
  // PHI: every update-only line goes to the packet outbox first (phi_flush).
  std::vector<Writeback> flush();

  // Kernel launch: the SRAM carve-out (models/sm/sram_split) leaves this L1
  // `ways` ways for the kernel (0 = no L1); sets and line size stay. Legal
  // only while empty, i.e. after invalidate_all (throws std::logic_error).
  void set_ways(uint32_t ways);

  // ---- Scoped (l1.atomic_mode = scoped; l1_core_scoped.cpp, README "Scoped") ----
  // Stores are write-combined (write_back, write_allocate, lazy_on_read:
  // nothing is fetched for a store). A line gets an sFIFO entry when it is
  // first dirtied; dirtying a line while the sFIFO is full writes the oldest
  // entry's line back first (L1Outcome::sfifo_overflow). Every dirty line has
  // an entry, so draining the sFIFO is what a device-scope release does.
  bool scoped() const { return scoped_.has_value(); }
  // Device/system release: every sFIFO entry leaves; the dirty bytes of its
  // line (if still dirty here) are returned, in sFIFO order; lines stay
  // valid and clean.
  std::vector<Writeback> scoped_release();
  // Device/system acquire (flash invalidation): every clean line is
  // dropped; a dirty line keeps only its dirty bytes (this SM's own writes,
  // not yet released), so nothing it may have read from L2 survives.
  void scoped_acquire();
  size_t sfifo_size() const { return scoped_ ? scoped_->fifo.size() : 0; }
  // l1.inject_fault: a release that does not drain, an acquire that does
  // not invalidate (the module asks; the kernel end drains regardless).
  bool scoped_skips_drain() const { return scoped_ && scoped_->skip_drain; }
  bool scoped_skips_invalidate() const { return scoped_ && scoped_->skip_invalidate; }

  // ---- sRSP (l1.rsp = srsp; l1_core_srsp.cpp, README "Remote scope promotion") ----
  // The protocol core's LR-TBL (a marker per line: the sFIFO sequence number
  // of the latest cta-scope release of it; an entry leaves with its sFIFO
  // entry) and PA-TBL (lines whose next cta-scope acquire is promoted;
  // emptied by every flash invalidation).
  bool srsp() const { return srsp_.has_value(); }
  // A cta-scope release of `line`: a new sFIFO entry (always, so the marker
  // sits at the release's place) recorded in the LR-TBL. If the sFIFO was
  // full its oldest line's dirty bytes are returned (they leave first).
  std::optional<Writeback> srsp_mark(Addr line);
  bool srsp_marks(Addr line) const;
  // SelFlush: pops the sFIFO up to and including `line`'s marker (none: no
  // entry) and returns the dirty bytes of the popped lines in order.
  std::vector<Writeback> srsp_drain_to_marker(Addr line);
  // SelInv: `line` into the PA-TBL. Full: eager flash-invalidates this L1
  // first (emptying it), lazy promotes every acquire until then; returns
  // true then (an overflow).
  bool srsp_pa_insert(Addr line);
  // Must a cta-scope acquire of `line` be promoted (PA-TBL hit or overflow)?
  bool srsp_promotes(Addr line) const;
  bool srsp_skips_marker() const { return srsp_ && srsp_->skip_marker; }
  bool srsp_skips_pa_insert() const { return srsp_ && srsp_->skip_pa_insert; }
  size_t lr_size() const { return srsp_ ? srsp_->lr.size() : 0; }
  size_t pa_size() const { return srsp_ ? srsp_->pa.size() : 0; }

  // Kernel boundary (acquire): drop everything. Throws std::logic_error if a
  // dirty line would be lost (call flush() first in write_back mode).
  void invalidate_all();

  const CacheArray& array() const { return array_; }

  // ---- hLRC (l1.atomic_mode = hlrc; l1_core_hlrc.cpp, models/hlrc) ----
  // An Owned line is an ordinary line of this array (it takes a way, can
  // evict data lines and be evicted) with every byte valid and
  // CacheLine::owned set: this SM holds the line's ownership at the L2
  // registry. Loads hit it; stores update it as dirty bytes (never forwarded:
  // L2's copy may be older, and the owner writes its bytes back when it gives
  // the line up); atomics are performed on it. fill() returns an owned victim
  // as a Writeback with `owned` set (possibly no dirty byte): a release.
  bool owned(Addr line) const;
  // Installs the granted `line` (whole line of `data`) as Owned, replacing
  // any copy. Returns the victim if it was owned or dirty.
  std::optional<Writeback> install_owned(Addr line, const uint8_t* data);
  // Performs `a`'s lanes on the owned line in lane order (old values into
  // lanes[i].result, words dirty). False, and nothing done, if not owned.
  bool local_atomic(GpuAccess& a, Addr line);
  // Gives the owned line up (recall): its bytes and dirty mask, line dropped.
  std::optional<Writeback> give_up(Addr line);
  // Gives every owned line up (kernel end, device/system-scope fence).
  std::vector<Writeback> give_up_all();

  // ---- PHI (l1.atomic_mode = phi; l1_core_phi.cpp, README "PHI") ----
  // An update-only line is an ordinary line of this array (it takes a way,
  // evicts data lines and is evicted by them, LRU) holding buffered partial
  // values of one (op, type) (include/tlmgpu/partial_update.hpp): no valid
  // byte (a load never hits it), dirty_bytes = the words holding a partial
  // value, meta = kPhiUpdateOnly | op id. Every update-only line that leaves
  // the array (LRU victim, op mismatch, phi_release, flush) appends its
  // partial values to an outbox the module sends to L2 as Red packets
  // (take_phi_packets) before any other request for that line goes down.
  // Loads, stores, atomics and fills of an update-only line throw
  // std::logic_error: call phi_release(line) first.
  static constexpr uint32_t kPhiUpdateOnly = 1u << 8;
  bool phi() const { return phi_.has_value(); }
  // PHI mode, L1 enabled, and `a` is a commutative_red (device scope).
  bool phi_eligible(const GpuAccess& a) const;
  // Performs eligible `a` on `line` here; always Hit. Same (op, type) line:
  // merge. Otherwise an update-only line is set up at the identity with no
  // fetch: an update-only line of another op/type is drained to the outbox
  // first; a data copy of the line is dropped (dirty bytes in `writeback`);
  // an absent line takes the LRU way, whose victim goes to the outbox
  // (update-only) or is dropped (data; dirty bytes in `writeback`).
  L1Outcome phi_update(const GpuAccess& a, Addr line);
  // A load, store or non-eligible atomic is about to touch `line`: if it is
  // update-only, its partials go to the outbox and the line is dropped
  // (counted as a conflict eviction). Returns whether it was.
  bool phi_release(Addr line);
  // Fence / kernel end: every update-only line to the outbox, lines dropped.
  void phi_flush();
  // The outbox, emptied. Packets of one line are in word order.
  std::vector<PartialUpdatePacket> take_phi_packets();
  bool phi_update_only(Addr line) const;
  size_t phi_update_lines() const;

private:
  struct ScopedState {
    scoped::SFifo fifo;
    Counter *drains, *lines_flushed, *overflows, *acquires, *lines_invalidated, *lines_trimmed;
    bool skip_drain = false, skip_invalidate = false;
  };
  void init_scoped(StatGroup& stats);
  // Pops the sFIFO head: its LR-TBL marker (if any) leaves with it.
  scoped::SFifo::Entry pop_sfifo();
  struct SrspState {
    scoped::LrTable lr;
    scoped::PaTable pa;
    bool lazy = false, skip_marker = false, skip_pa_insert = false;
    Counter *markers, *lr_evictions, *drained, *pa_inserts, *pa_overflows;
    Average *lr_occupancy, *pa_occupancy;
  };
  void init_srsp(StatGroup& stats);
  std::optional<SrspState> srsp_;
  L1Outcome store_plain(Addr line, const uint8_t* data, const uint8_t* be, bool replay);
  // The dirty bytes of `line` (if any) as a Writeback; the line stays valid.
  std::optional<Writeback> take_dirty_line(Addr line);
  std::optional<ScopedState> scoped_;

  struct PhiState {
    Counter *updates, *hits, *misses, *update_evictions, *data_evictions, *data_conversions,
        *op_mismatch, *conflict, *flush_packets, *packets, *merged_lanes, *packet_lanes;
    std::vector<PartialUpdatePacket> outbox;
  };
  void init_phi(StatGroup& stats);
  static bool update_only(const CacheLine& l) { return (l.meta & kPhiUpdateOnly) != 0; }
  void phi_check(const CacheLine* l, const char* who) const {
    if (phi_ && l && update_only(*l)) phi_refuse(*l, who);
  }
  [[noreturn]] void phi_refuse(const CacheLine& l, const char* who) const;
  // Drains an update-only line (victim or present) into the outbox.
  uint64_t phi_drain(const CacheLine& l);
  // A valid line `victim` was replaced: counts it; an update-only victim
  // goes to the outbox, a dirty or owned one is returned for write-back.
  std::optional<Writeback> evicted(const CacheLine& victim);
  // Write-allocate store that writes its missing sectors without a fetch.
  L1Outcome store_allocate(Addr line, CacheLine* l, const ByteMask& m, const uint8_t* data);
  std::optional<PhiState> phi_;

  void init_hlrc(StatGroup& stats);
  Counter *local_atomics_ = nullptr, *owned_installs_ = nullptr, *owned_evictions_ = nullptr;

  L1Spec spec_;
  bool write_back_;
  bool write_allocate_ = false, lazy_fetch_ = false; // effective: PHI implies write-allocate
  CacheArray array_;
  Average& configured_bytes_;
  Counter &loads_, &load_hits_, &load_misses_, &sector_misses_, &stores_, &store_hits_,
      &atomics_invalidated_, &fills_, &evictions_, &writebacks_, &invalidations_;
};

} // namespace tlmgpu
