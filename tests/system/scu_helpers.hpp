// SCU commands the system tests share.
#pragma once

#include "models/host/host_module.hpp"
#include "models/scu/scu_module.hpp"
#include "run_helpers.hpp"
#include "tlmgpu/app/host_program.hpp"

#include <catch2/catch.hpp>

#include <functional>
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

// Runs the command `make` builds (its output too small) on platform `p`:
// execute() must throw the out_capacity error to the host program, also
// when a unit's own process (at) is the one that finds it.
inline void capacity_error_reaches_host(const PlatformSpec& p, TimingMode mode,
                                        const std::function<ScuCommand(HostModule&)>& make) {
  bool threw = false;
  run_host_program(p, mode, 1, [&](HostModule& h) {
    ScuModule* scu = ScuModule::of(h.context());
    REQUIRE(scu);
    const ScuCommand c = make(h);
    try {
      scu->execute(c, h.gpu().device_memory);
    } catch (const ConfigError& e) {
      threw = true;
      CHECK_THAT(e.what(), Catch::Contains("exceeds out_capacity"));
    }
  });
  CHECK(threw);
}

} // namespace tlmgpu::test
