// Timing state of one DRAM channel: banks with row buffers, the command
// constraints between them, and the shared data bus. Kernel-free (style rule 1):
// the DRAM module owns the queue, the clock and the sockets, and asks this core
// which request to serve (`pick`) and when it completes (`service`).
//
// Time model: booked intervals. Each bank books its row cycles (PRE/ACT until
// the row may close: tRP, tRCD, tRAS, tRC, write recovery) and its column
// slots; the channel books activations (tRRD), column commands (tCCD) and the
// data bus. `service` places an access at the first cycle >= its arrival
// where all of them fit, so a later-scheduled row hit to another bank uses the
// bus while an earlier-scheduled access waits for its activation: the
// command-level interleaving of a real FR-FCFS controller. (Until 2026-11 AT
// used busy-until state here, which never back-filled those gaps and left a
// third of the bus idle on a streaming kernel; docs/timing.md.)
//
// Modelled: tRCD, tCL, tWL, tRP, tRAS, tRC, tRRD, tCCD, tWR, burst occupancy of
// the shared data bus, open/closed page policy, FCFS and FR-FCFS choice.
// Not modelled (no parameter in DramSpec): bank-group tCCD_L, tFAW, refresh,
// read/write bus turnaround (tWTR/tRTW); read-to-precharge (tRTP) is taken as
// one burst after the last read command.
//
// Calls in time order (AT: the scheduler decides at `now`; unit tests) see
// every committed activation: an access to the row a bank is about to open
// is a hit that waits for it. Decoupled calls (LT, set_decoupled(true)) reach
// the channel in an order unrelated to time, so each bank keeps its
// activations in time order and an access finds the row of the latest one at
// or before its arrival (a PRE between that activation and the arrival, made
// for a later one, is not seen).
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

  // Before the first service(): true when calls come in an order unrelated
  // to arrival time (LT's temporal decoupling).
  void set_decoupled(bool d) { decoupled_ = d; }
  // No access will arrive before `floor` any more (bounds the booked spans).
  void retire(Cycle floor);

  // Serve one access of `bursts` (>= 1) bursts to `row` of `bank`, arriving at
  // `arrival`, and commit its commands.
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
  struct Activation {
    Cycle at = 0; // the ACT command's cycle
    uint64_t row = 0;
  };
  struct Bank {
    bool open = false;
    Activation last; // the latest activation in time (its row is open)
  };

  const Activation* row_at(uint32_t bank, Cycle t);
  void note_activation(uint32_t bank, Activation a);

  DramSpec spec_;
  bool fr_fcfs_ = true;
  bool closed_page_ = false;
  bool decoupled_ = false;
  std::vector<Bank> banks_;
  // Decoupled calls only: each bank's activations in time order, so an access
  // finds the row open at its arrival whatever order the calls came in.
  std::vector<std::vector<Activation>> history_;
  DramChannelCounters counters_;
  // Busy intervals: per bank its row cycles and column slots; per channel
  // activations (tRRD), column commands (tCCD) and the data bus.
  std::vector<IntervalResource> bank_row_, bank_col_;
  IntervalResource act_any_, col_any_, bus_busy_;
  Cycle floor_ = 0; // retire(): nothing arrives before it any more
};

} // namespace tlmgpu
