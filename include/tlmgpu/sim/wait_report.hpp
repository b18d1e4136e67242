// What a block with GPU-wide state says when the run stops because nothing
// moves (GpuModule::waits: the deadlock report of a run that ran out of
// events and of the watchdog). The SMs say what their warps wait for and the
// ports which requests they hold; a protocol whose state lives in no SM and
// no port (DAB's GPU-wide flush, a round-based scheme) adds one line here,
// so the report names it without GpuModule knowing the mechanism.
// Kept in SimContext::shared under WaitReports::kKey.
#pragma once

#include "tlmgpu/sim/context.hpp"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace tlmgpu {

class WaitReports {
public:
  static constexpr const char* kKey = "wait_reports";
  static WaitReports& of(SimContext& ctx) {
    return ctx.shared<WaitReports>(kKey, [] { return std::make_unique<WaitReports>(); });
  }
  // `line` is called only when a report is made; it returns one line without
  // a newline (empty: nothing to say).
  void add(std::function<std::string()> line) { lines_.push_back(std::move(line)); }
  std::string report() const {
    std::string out;
    for (const auto& l : lines_) {
      const std::string s = l();
      if (!s.empty()) out += "\n  " + s;
    }
    return out;
  }

private:
  std::vector<std::function<std::string()>> lines_;
};

} // namespace tlmgpu
