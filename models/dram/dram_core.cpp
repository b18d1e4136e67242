#include "models/dram/dram_core.hpp"

#include "tlmgpu/invariant.hpp"
#include <algorithm>

namespace tlmgpu {

DramChannelCore::DramChannelCore(const DramSpec& spec) : spec_(spec) {
  // An underived spec would make every burst free (burst_cycles == 0) and the
  // model silently infinitely fast.
  if (spec_.burst_cycles == 0 || spec_.banks == 0)
    throw ConfigError("DramChannelCore: DramSpec must be derived (call derive()) before use");
  if (spec_.scheduler == "frfcfs")
    fr_fcfs_ = true;
  else if (spec_.scheduler == "fcfs")
    fr_fcfs_ = false;
  else
    throw ConfigError("dram.scheduler: unknown policy '" + spec_.scheduler + "'");
  if (spec_.page_policy == "open")
    closed_page_ = false;
  else if (spec_.page_policy == "closed")
    closed_page_ = true;
  else
    throw ConfigError("dram.page_policy: unknown policy '" + spec_.page_policy + "'");
  banks_.resize(spec_.banks);
  bank_row_.resize(spec_.banks);
  bank_col_.resize(spec_.banks);
}

// Applied lazily to the resources an access touches (a call touches 3 of them).
void DramChannelCore::retire(Cycle floor) {
  floor_ = floor;
}

bool DramChannelCore::row_open(uint32_t bank, uint64_t row) const {
  TLMGPU_CHECK(bank < banks_.size());
  return banks_[bank].open && banks_[bank].row == row;
}

void DramChannelCore::precharge(Bank& b, Cycle earliest) {
  const Cycle pre = std::max(earliest, b.next_pre);
  b.next_act = std::max(b.next_act, pre + spec_.tRP);
  b.open = false;
  ++counters_.precharges;
}

DramAccessTiming DramChannelCore::service(uint32_t bank, uint64_t row, bool write, uint32_t bursts,
                                          Cycle arrival) {
  TLMGPU_CHECK(bank < banks_.size());
  TLMGPU_CHECK(bursts >= 1);
  if (time_order_) return service_in_time(bank, row, write, bursts, arrival);
  Bank& b = banks_[bank];
  DramAccessTiming t;
  t.start = arrival;

  if (b.open && b.row == row) {
    t.row = RowOutcome::Hit;
    ++counters_.row_hits;
  } else {
    if (b.open) {
      t.row = RowOutcome::Conflict;
      ++counters_.row_conflicts;
      t.start = std::max(arrival, b.next_pre);
      precharge(b, arrival);
    } else {
      t.row = RowOutcome::Closed;
      ++counters_.row_closed;
    }
    const Cycle act = std::max({arrival, b.next_act, next_act_any_});
    if (t.row == RowOutcome::Closed) t.start = act;
    ++counters_.activates;
    b.open = true;
    b.row = row;
    b.next_act = act + spec_.tRC;
    b.next_pre = act + spec_.tRAS;
    b.next_col = act + spec_.tRCD;
    next_act_any_ = act + spec_.tRRD;
  }

  // One column command per burst. Bursts of one access stream back to back
  // unless tCCD is longer than a burst, which leaves gaps on the bus.
  const Cycle data_lat = write ? spec_.tWL : spec_.tCL;
  const Cycle step = std::max<Cycle>(spec_.tCCD, spec_.burst_cycles);
  Cycle col = std::max({arrival, b.next_col, next_col_any_});
  // Hold the first column command until its data finds the bus idle: reads
  // and writes of all banks share one data bus (this is what bounds bandwidth).
  if (bus_free_ > data_lat) col = std::max(col, bus_free_ - data_lat);
  if (t.row == RowOutcome::Hit) t.start = col;
  const Cycle last_col = col + (bursts - 1) * step;
  const Cycle data_end = col + data_lat + (bursts - 1) * step + spec_.burst_cycles;

  next_col_any_ = last_col + spec_.tCCD;
  bus_free_ = data_end;
  b.next_pre = std::max(b.next_pre, write ? data_end + spec_.tWR            // write recovery
                                          : last_col + spec_.burst_cycles); // ~tRTP
  if (closed_page_) precharge(b, b.next_pre);

  ++(write ? counters_.writes : counters_.reads);
  counters_.bursts += bursts;
  counters_.data_bus_busy_cycles += uint64_t{bursts} * spec_.burst_cycles;
  t.done = data_end + spec_.latency;
  return t;
}

// The same command timing as service(), booked as intervals. A bank books two
// kinds of time: its row cycle (from PRE or ACT until the row may close:
// tRP, tRCD, tRAS, write recovery), which only an access that opens a row
// waits for, and its column slots, which everybody books, so hits to an open
// row keep streaming right after its activation while a new row waits for
// every column slot in its window. The bus is booked while data moves. The
// access starts at the first cycle >= arrival where all of that fits. Not
// booked: the channel-wide tRRD and tCCD (with tCCD <= a burst the bus bounds
// column commands anyway; tRRD only spaces activations of different banks).
DramAccessTiming DramChannelCore::service_in_time(uint32_t bank, uint64_t row, bool write,
                                                  uint32_t bursts, Cycle arrival) {
  Bank& b = banks_[bank];
  DramAccessTiming t;
  Cycle to_col = 0; // first command to first column command
  // The bank's row is the one of its latest activation in time (b.act); an
  // access arriving before that activation cannot know which row was open
  // then and takes the bank as closed.
  const bool known = b.open && arrival >= b.act;
  if (known && b.row == row) {
    t.row = RowOutcome::Hit;
    ++counters_.row_hits;
  } else {
    t.row = known ? RowOutcome::Conflict : RowOutcome::Closed;
    ++(known ? counters_.row_conflicts : counters_.row_closed);
    if (known) ++counters_.precharges, to_col = spec_.tRP;
    ++counters_.activates;
    to_col += spec_.tRCD;
  }
  const bool opens = t.row != RowOutcome::Hit;
  const Cycle data_lat = write ? spec_.tWL : spec_.tCL;
  const Cycle step = std::max<Cycle>(spec_.tCCD, spec_.burst_cycles);
  const Cycle col_occ = bursts * step;                         // column slots
  const Cycle data = (bursts - 1) * step + spec_.burst_cycles; // bus occupancy
  const Cycle tail = write ? data_lat + data + spec_.tWR       // first column to precharge ok
                           : (bursts - 1) * step + spec_.burst_cycles;
  // PRE (conflict) + the new row's tRAS, or longer if its data needs it.
  const Cycle row_occ = to_col - spec_.tRCD + std::max<Cycle>(spec_.tRAS, spec_.tRCD + tail);
  IntervalResource &row_busy = bank_row_[bank], &col_busy = bank_col_[bank];
  row_busy.retire(floor_);
  col_busy.retire(floor_);
  bus_busy_.retire(floor_);
  Cycle s = arrival;
  for (bool moved = true; moved;) { // each constraint only pushes the start later
    const Cycle before = s;
    if (opens) {
      s = row_busy.earliest(s, row_occ);
      s = col_busy.earliest(s, std::max(row_occ, to_col + col_occ)); // nor other rows' columns
    } else { // not before the row's activation is done
      s = col_busy.earliest(std::max(s, b.act + spec_.tRCD), col_occ);
    }
    const Cycle on_bus = bus_busy_.earliest(s + to_col + data_lat, data);
    s = on_bus - to_col - data_lat;
    moved = s != before;
  }
  if (opens) row_busy.book(s, row_occ);
  col_busy.book(s + to_col, col_occ);
  bus_busy_.book(s + to_col + data_lat, data);
  const Cycle act = s + to_col - spec_.tRCD;
  if (opens && (!b.open || act >= b.act)) { // the latest activation in time
    b.open = !closed_page_;
    b.row = row;
    b.act = act;
  }
  if (closed_page_) ++counters_.precharges;
  t.start = s;
  ++(write ? counters_.writes : counters_.reads);
  counters_.bursts += bursts;
  counters_.data_bus_busy_cycles += uint64_t{bursts} * spec_.burst_cycles;
  t.done = s + to_col + data_lat + data + spec_.latency;
  return t;
}

size_t DramChannelCore::pick(const std::vector<PendingDram>& queue, Cycle now,
                             JitterStream* ties) const {
  size_t oldest = queue.size(), oldest_hit = queue.size();
  for (size_t i = 0; i < queue.size(); ++i) {
    const PendingDram& r = queue[i];
    if (r.arrival > now) continue;
    // Strict '<' keeps the lower index on equal arrival.
    if (oldest == queue.size() || r.arrival < queue[oldest].arrival) oldest = i;
    if (fr_fcfs_ && row_open(r.bank, r.row) &&
        (oldest_hit == queue.size() || r.arrival < queue[oldest_hit].arrival))
      oldest_hit = i;
  }
  const size_t best = oldest_hit != queue.size() ? oldest_hit : oldest;
  if (!ties || best == queue.size()) return best;
  // Injected tie-break: any request the policy ranks equal to `best` (same
  // arrival, and a row hit if `best` is one) may go instead.
  const bool hit = best == oldest_hit;
  auto tied = [&](const PendingDram& r) {
    return r.arrival <= now && r.arrival == queue[best].arrival &&
           (!hit || row_open(r.bank, r.row));
  };
  size_t n = 0;
  for (const PendingDram& r : queue)
    n += tied(r);
  if (n < 2) return best;
  size_t k = ties->below(n);
  for (size_t i = 0; i < queue.size(); ++i)
    if (tied(queue[i]) && k-- == 0) return i;
  return best; // unreachable: k < n
}

} // namespace tlmgpu
