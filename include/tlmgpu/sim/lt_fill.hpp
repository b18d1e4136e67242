// The loosely-timed line fill every cache module does the same way: fetch
// the missing sectors through the downstream port now (data is functional),
// install them, and remember in the MSHR when they would have arrived, so
// later accesses to the line during the fetch wait for it (LT's stand-in for
// MSHR merging).
#pragma once

#include "tlmgpu/in_flight_writes.hpp"
#include "tlmgpu/mshr.hpp"
#include "tlmgpu/sim/clock.hpp"
#include "tlmgpu/sim/context.hpp"
#include "tlmgpu/sim/line_payloads.hpp"
#include "tlmgpu/sim/ports.hpp"

namespace tlmgpu {

// Returns the cycle (of `clk`) the data is back. `write_back(wb, cycle)`
// handles a dirty victim the fill evicts. `in_flight` (AT): the cache's
// write-backs still on their way down, newer than what the read returns.
template <class Core, class WriteBack>
Cycle lt_fill_line(SimContext& ctx, const Clock& clk, InitiatorPort& down, Core& core,
                   MshrTable<Payload*>& mshr, Addr line, uint32_t sectors, unsigned line_bytes,
                   uint16_t src_sm, Cycle start, WriteBack&& write_back,
                   const InFlightWrites* in_flight = nullptr) {
  GpuPayload* p = make_fill_payload(ctx.pool, line, sectors, line_bytes, src_sm);
  sc_core::sc_time d = ctx.timed() ? clk.until(start) : sc_core::SC_ZERO_TIME;
  const sc_core::sc_time base = sc_core::sc_time_stamp();
  down.b_transport(*p, d);
  const Cycle ready = ctx.timed() ? clk.at_or_after(base + d) : start;
  if (in_flight) in_flight->overlay(line, p->data());
  if (auto wb = core.fill(line, sectors, p->data())) write_back(*wb, ready);
  p->release();
  // Only LT keeps ready cycles in the MSHR; in AT the table is the AT path's.
  if (ctx.mode == TimingMode::LT && mshr.add(line, nullptr) == MshrOutcome::Allocated)
    mshr.set_ready(line, ready);
  return ready;
}

} // namespace tlmgpu
