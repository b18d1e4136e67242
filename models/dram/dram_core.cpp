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
  history_.resize(spec_.banks);
}

// Applied lazily to what an access touches (its bank's intervals and history,
// and the channel's).
void DramChannelCore::retire(Cycle floor) {
  floor_ = floor;
}

bool DramChannelCore::row_open(uint32_t bank, uint64_t row) const {
  TLMGPU_CHECK(bank < banks_.size());
  return banks_[bank].open && banks_[bank].last.row == row;
}

// Decoupled calls: the activation in effect at `t` (the latest at or before
// it), or none. Activations older than the last one before the retire floor
// are dropped first: nothing can arrive before the floor any more.
const DramChannelCore::Activation* DramChannelCore::row_at(uint32_t bank, Cycle t) {
  auto& h = history_[bank];
  auto after = [](Cycle c, const Activation& a) { return c < a.at; };
  const auto keep = std::upper_bound(h.begin(), h.end(), floor_, after);
  if (keep - h.begin() > 1) h.erase(h.begin(), keep - 1);
  const auto it = std::upper_bound(h.begin(), h.end(), t, after);
  return it == h.begin() ? nullptr : &*(it - 1);
}

// A booked activation. The bank's latest in time is what calls in time order
// (and the scheduler's row_open) see; decoupled calls keep them all in order.
void DramChannelCore::note_activation(uint32_t bank, Activation a) {
  Bank& b = banks_[bank];
  if (!b.open || a.at >= b.last.at) b.open = true, b.last = a;
  if (!decoupled_) return;
  auto& h = history_[bank];
  h.insert(std::upper_bound(h.begin(), h.end(), a.at,
                            [](Cycle c, const Activation& x) { return c < x.at; }),
           a);
}

// The access's commands: PRE (conflict), ACT (conflict or closed), one column
// command per burst, then its data on the bus. Interval bookings:
// - the bank's row cycle, from PRE or ACT until the row may be closed again
//   (tRAS, tRCD + the column tail, tRC - tRP; with the closed-page policy
//   the auto-precharge's tRP too), which only an access that opens a row
//   waits for;
// - the bank's column slots, booked by all, so hits to an open row keep
//   streaming right after its activation while a new row waits for every
//   column slot in its window;
// - the channel's activation spacing (tRRD), its column commands (tCCD) and
//   the data bus.
// The access starts at the first cycle >= arrival where all of that fits.
DramAccessTiming DramChannelCore::service(uint32_t bank, uint64_t row, bool write, uint32_t bursts,
                                          Cycle arrival) {
  TLMGPU_CHECK(bank < banks_.size());
  TLMGPU_CHECK(bursts >= 1);
  Bank& b = banks_[bank];
  DramAccessTiming t;
  Cycle to_col = 0; // first command to first column command
  // The activation whose row the access finds: the bank's latest (calls in
  // time order), or the latest at or before its arrival (decoupled calls).
  const Activation* found = nullptr;
  if (!closed_page_) found = decoupled_ ? row_at(bank, arrival) : (b.open ? &b.last : nullptr);
  const bool known = found != nullptr;
  if (known && found->row == row) {
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
  const Cycle to_act = to_col - spec_.tRCD; // first command to ACT (tRP or 0)
  const Cycle data_lat = write ? spec_.tWL : spec_.tCL;
  const Cycle step = std::max<Cycle>(spec_.tCCD, spec_.burst_cycles);
  const Cycle col_occ = bursts * step;                         // the bank's column slots
  const Cycle col_span = (bursts - 1) * step + spec_.tCCD;     // the channel's column commands
  const Cycle data = (bursts - 1) * step + spec_.burst_cycles; // bus occupancy
  const Cycle tail = write ? data_lat + data + spec_.tWR       // first column to precharge ok
                           : (bursts - 1) * step + spec_.burst_cycles;
  // From ACT until the row may be precharged; tRC - tRP keeps ACT to ACT >= tRC.
  Cycle open_for = std::max<Cycle>({spec_.tRAS, spec_.tRCD + tail, spec_.tRC - spec_.tRP});
  if (closed_page_) open_for += spec_.tRP; // the auto-precharge belongs to this access
  const Cycle row_occ = to_act + open_for;
  IntervalResource &row_busy = bank_row_[bank], &col_busy = bank_col_[bank];
  for (IntervalResource* r : {&row_busy, &col_busy, &act_any_, &col_any_, &bus_busy_})
    r->retire(floor_);
  Cycle s = arrival;
  for (bool moved = true; moved;) { // each constraint only pushes the start later
    const Cycle before = s;
    if (opens) {
      s = row_busy.earliest(s, row_occ);
      s = col_busy.earliest(s, std::max(row_occ, to_col + col_occ)); // nor other rows' columns
      s = act_any_.earliest(s + to_act, spec_.tRRD) - to_act;
    } else { // not before the row's activation is done
      s = col_busy.earliest(std::max(s, found->at + spec_.tRCD), col_occ);
    }
    s = col_any_.earliest(s + to_col, col_span) - to_col;
    s = bus_busy_.earliest(s + to_col + data_lat, data) - to_col - data_lat;
    moved = s != before;
  }
  const Cycle act = s + to_act;
  if (opens) {
    row_busy.book(s, row_occ);
    act_any_.book(act, spec_.tRRD);
  }
  col_busy.book(s + to_col, col_occ);
  col_any_.book(s + to_col, col_span);
  bus_busy_.book(s + to_col + data_lat, data);
  if (opens && !closed_page_) note_activation(bank, {act, row});
  if (closed_page_) ++counters_.precharges;
  t.start = s;
  WaitTally::add(s - arrival);
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
