// Timing state of one DRAM channel: banks with row buffers, the command
// constraints between them, and the shared data bus. Kernel-free (style rule 1):
// the DRAM module owns the queue, the clock and the sockets, and asks this core
// which request to serve (`pick`) and when it completes (`service`).
//
// Time model: busy-until reservation. `service` issues the access's commands
// at the earliest cycles that satisfy every constraint given all previously
// serviced accesses, and commits them; it never reorders or back-fills gaps
// left by earlier calls. That keeps one call O(1) and is exact for an in-order
// command stream, which is what a scheduler that picks one request at a time
// produces. All times are DRAM command-clock cycles (DramSpec::clock_mhz).
//
// Modelled: tRCD, tCL, tWL, tRP, tRAS, tRC, tRRD, tCCD, tWR, burst occupancy of
// the shared data bus, open/closed page policy, FCFS and FR-FCFS choice.
// Not modelled (no parameter in DramSpec): bank-group tCCD_L, tFAW, refresh,
// read/write bus turnaround (tWTR/tRTW); read-to-precharge (tRTP) is taken as
// one burst after the last read command.
//
// LT (set_booking(Booking::TimeOrder)): blocking callers reach the channel in
// an order unrelated to time (temporal decoupling), so busy-until state would
// queue an early arrival behind an SM that ran ahead. There each bank and the
// data bus book busy intervals instead (service_in_time); the row a bank has
// open is the one of its latest activation in time.
#pragma once

#include "models/dram/dram_spec.hpp"
#include "tlmgpu/interval_resource.hpp"
#include "tlmgpu/jitter.hpp"
#include "tlmgpu/types.hpp"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace tlmgpu {

enum class RowOutcome : uint8_t {
  Hit,      // row already open: column command only
  Closed,   // bank precharged: activate, then column
  Conflict, // another row open: precharge, activate, then column
};

struct DramAccessTiming {
  Cycle start = 0; // first command of this access (PRE, ACT or column)
  Cycle done = 0;  // last data beat transferred + spec.latency
  RowOutcome row = RowOutcome::Hit;
};

// What the scheduler needs to know about one queued request. `id` is opaque
// to the core (the module's handle for its payload).
struct PendingDram {
  uint32_t bank = 0;
  uint64_t row = 0;
  bool write = false;
  Cycle arrival = 0;
  uint64_t id = 0;
};

struct DramChannelCounters {
  uint64_t reads = 0, writes = 0; // accesses, not bursts
  uint64_t bursts = 0;
  uint64_t row_hits = 0, row_closed = 0, row_conflicts = 0;
  uint64_t activates = 0, precharges = 0;
  uint64_t data_bus_busy_cycles = 0; // cycles the bus carried data
};

class DramChannelCore {
public:
  // `spec` must already be derived (spec.derive()); it is copied.
  explicit DramChannelCore(const DramSpec& spec);

  // Before the first service(); CallOrder (default) is the in-order model.
  void set_booking(Booking b) { time_order_ = b == Booking::TimeOrder; }
  // TimeOrder: no access will arrive before `floor` any more.
  void retire(Cycle floor);

  // Serve one access of `bursts` (>= 1) bursts to `row` of `bank`, arriving at
  // `arrival`, and commit its commands. CallOrder: accesses of one channel
  // must be serviced in the order the scheduler chose them.
  DramAccessTiming service(uint32_t bank, uint64_t row, bool write, uint32_t bursts, Cycle arrival);

  // Index into `queue` of the request to serve next at `now`, or queue.size()
  // if no request has arrived yet (arrival > now). "fcfs": oldest arrival;
  // "frfcfs": oldest whose row is open in its bank, else oldest. Ties go to
  // the lower index, so the choice is deterministic; with `ties` (jitter.ties)
  // they go to a pick from that stream, drawn only when there is a tie.
  size_t pick(const std::vector<PendingDram>& queue, Cycle now, JitterStream* ties = nullptr) const;

  // Row state as seen by the next serviced access (after all committed ones).
  bool row_open(uint32_t bank, uint64_t row) const;

  const DramChannelCounters& counters() const { return counters_; }
  const DramSpec& spec() const { return spec_; }

private:
  struct Bank {
    bool open = false;
    uint64_t row = 0;
    Cycle next_act = 0; // tRC after ACT, tRP after PRE
    Cycle next_pre = 0; // tRAS after ACT, tWR after write data, tRTP after read
    Cycle next_col = 0; // tRCD after ACT
    Cycle act = 0;      // TimeOrder: the open row's ACT (the latest in time)
  };

  void precharge(Bank& b, Cycle earliest);
  DramAccessTiming service_in_time(uint32_t bank, uint64_t row, bool write, uint32_t bursts,
                                   Cycle arrival);

  DramSpec spec_;
  bool fr_fcfs_ = true;
  bool closed_page_ = false;
  std::vector<Bank> banks_;
  Cycle next_act_any_ = 0; // tRRD: ACT to ACT across banks of the channel
  Cycle next_col_any_ = 0; // tCCD: column to column across the channel
  Cycle bus_free_ = 0;     // first cycle the shared data bus is idle
  DramChannelCounters counters_;
  // TimeOrder only: busy intervals of each bank (row cycles, column slots)
  // and of the data bus (service_in_time).
  bool time_order_ = false;
  std::vector<IntervalResource> bank_row_, bank_col_;
  Cycle floor_ = 0; // retire(): nothing arrives before it any more
  IntervalResource bus_busy_;
};

} // namespace tlmgpu
