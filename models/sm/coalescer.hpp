// Memory coalescer: turns one global-memory warp instruction into per-line
// requests, Volta style (128 B lines of four 32 B sectors by default).
//
//  * Loads/stores: one request per distinct line, in order of the lowest lane
//    touching it; the sector mask holds the sectors the active lanes touch.
//    A store carries the line's bytes and TLM byte enables (0xff = write).
//    Several lanes storing to the same bytes: the highest lane wins. CUDA
//    leaves the winner unspecified; hardware commonly lets the last lane win,
//    and a fixed rule keeps runs deterministic.
//  * Atomics/reds: lanes are grouped per line, but lanes hitting the same word
//    cannot share a request: request k of a line holds the k-th lane (in lane
//    order) of each word, so a line gets as many requests as the most popular
//    word has lanes, and same-word updates are applied in lane order. This is
//    GPGPU-Sim's Volta atomic coalescing (seed-000 1.5), except that GPGPU-Sim
//    splits per 32 B sector while we keep one request per line with a sector
//    mask, the unit our L1/L2/LAB handle.
//
// Accesses misaligned for their size, or crossing a line, throw
// std::invalid_argument naming the lane and address.
#pragma once

#include "tlmgpu/simt/warp_instr.hpp"
#include "tlmgpu/types.hpp"

#include <array>
#include <cstdint>
#include <span>
#include <vector>

namespace tlmgpu {

struct LineRequest {
  Addr line = 0;          // line-aligned address
  uint64_t lane_mask = 0; // lanes this request serves (bit l = lane l; up to 64 lanes)
  uint8_t size = 0;       // bytes per lane
  // kind, op, type, order, scope and sector_mask are set; for atomics/reds,
  // lanes hold (offset, lane, operand, compare) per lane. The SM copies it
  // into the payload (the lanes it has, no more) and adds source and
  // transaction ids there.
  GpuAccess access;
  // Stores only: the bytes to write and their TLM byte enables, over the
  // first line_bytes of each array. Unspecified for other kinds.
  std::array<uint8_t, kMaxLineBytes> data;
  std::array<uint8_t, kMaxLineBytes> byte_enable;
};

class Coalescer {
public:
  // line_bytes: power of two <= kMaxLineBytes; sector_bytes: power of two
  // dividing it, at most 32 sectors per line. Throws std::invalid_argument.
  explicit Coalescer(uint32_t line_bytes = 128, uint32_t sector_bytes = 32);

  // Requests for a Load/Store/Atomic/Red instruction (empty if no lane is
  // active). The span points into a buffer reused by the next call: copy what
  // must outlive it. Reusing it keeps the hot path free of allocation.
  std::span<const LineRequest> coalesce(const WarpInstr& in);

  // Response helpers. Load: every lane of req.lane_mask takes `size` bytes at
  // its own offset from `line_data` (the whole line, as the payload carries it).
  void scatter_load(const WarpInstr& in, const LineRequest& req, const uint8_t* line_data,
                    Lanes<uint64_t>& results) const;
  // Atomic: each LaneOp's result goes to its lane.
  static void scatter_atomic(const GpuAccess& done, Lanes<uint64_t>& results);

  uint32_t line_bytes() const { return line_bytes_; }
  uint32_t sector_bytes() const { return sector_bytes_; }
  Addr line_of(Addr a) const { return a & ~Addr(line_bytes_ - 1); }

  // Totals since construction (instructions coalesced, requests, sectors).
  uint64_t instructions() const { return instructions_; }
  uint64_t requests() const { return requests_; }
  uint64_t sectors() const { return sectors_; }

  // Throws std::invalid_argument naming the lane if an access size is not
  // 1/2/4/8, or an address is unaligned or crosses a line (coalesce() checks
  // this too; the functional direct path checks it alone).
  void check_lanes(const WarpInstr& in) const;

private:
  LineRequest& add_request(const WarpInstr& in, Addr line);
  void coalesce_lines(const WarpInstr& in);
  void coalesce_rmw(const WarpInstr& in);
  uint32_t sector_bit(uint32_t offset) const { return 1u << (offset >> sector_shift_); }

  uint32_t line_bytes_, sector_bytes_, sector_shift_;
  std::vector<LineRequest> buf_; // grows to the largest instruction seen, never shrinks
  size_t used_ = 0;
  uint64_t instructions_ = 0, requests_ = 0, sectors_ = 0;
};

} // namespace tlmgpu
