#include "tlmgpu/sim/line_payloads.hpp"

namespace tlmgpu {

GpuPayload* make_fill_payload(PayloadPool& pool, Addr line, uint32_t sectors, unsigned line_bytes,
                              uint16_t src_sm) {
  GpuPayload* p = pool.allocate();
  GpuAccess a;
  a.kind = AccessKind::Fill;
  a.sector_mask = sectors;
  a.src_sm = src_sm;
  a.txn_id = pool.next_txn_id();
  p->setup(tlm::TLM_READ_COMMAND, line, line_bytes, a);
  return p;
}

GpuPayload* make_write_back_payload(PayloadPool& pool, const Writeback& wb, unsigned line_bytes,
                                    unsigned sector_bytes, uint16_t src_sm) {
  GpuPayload* p = pool.allocate();
  GpuAccess a;
  a.kind = AccessKind::Eviction;
  a.src_sm = src_sm;
  a.txn_id = pool.next_txn_id();
  // setup() first: it sizes the payload's buffers to the line.
  p->setup(tlm::TLM_WRITE_COMMAND, wb.line, line_bytes, a);
  uint32_t& sectors = p->access().sector_mask;
  for (unsigned b = 0; b < line_bytes; ++b) {
    const bool d = wb.dirty.test(b);
    p->byte_enable()[b] = d ? 0xff : 0;
    if (d) sectors |= 1u << (b / sector_bytes);
  }
  std::copy_n(wb.data.data(), line_bytes, p->data());
  p->enable_bytes(line_bytes);
  return p;
}

} // namespace tlmgpu
