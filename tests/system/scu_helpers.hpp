// SCU commands the system tests share.
#pragma once

#include "models/host/host_module.hpp"
#include "models/scu/scu_command.hpp"

#include <vector>

namespace tlmgpu::test {

// An access-expansion over CSR-like rows uploaded to the device: for every
// row r, `data`[index[r] .. index[r] + count[r]) (the data uploaded as
// `data_name`), with room for `capacity` output elements (`out` not
// allocated).
inline ScuCommand access_expansion(HostModule& h, const std::vector<uint32_t>& data,
                                   const std::vector<uint32_t>& index,
                                   const std::vector<uint32_t>& count, uint64_t capacity,
                                   const char* data_name = "data") {
  ScuCommand c;
  c.op = ScuOp::AccessExpansion;
  c.n = index.size();
  c.data = h.upload(data, data_name);
  c.index = h.upload(index, "index");
  c.count = h.upload(count, "count");
  c.out_capacity = capacity;
  return c;
}

} // namespace tlmgpu::test
