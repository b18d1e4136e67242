// `tlmgpu run --trace FILE`: a Chrome/Perfetto JSON trace of one run
// (open it at ui.perfetto.dev or chrome://tracing). Issue 12 item 6.
//
//   process per device ("device_0 (titanv)")
//     track "kernels"          a span per kernel, args.cycles as in stats.json
//     track "<sm> lab"         a span per LAB flush burst (fence to last ack)
//     counter "<sm> issue"     warp instructions issued per sample window
//     counter "<port> requests" requests a port took per sample window
//
// Times are simulated microseconds. Counters are sampled in windows of
// `sample_cycles` core cycles of device 0 and written when a window closes,
// so each track's events come in time order; `window` drops everything
// outside [start, end) cycles. Off (no writer in the run context), nothing
// is attached and instrumented code tests one null pointer.
#pragma once

#include "tlmgpu/sim/port_probe.hpp"
#include "tlmgpu/simt/instr_probe.hpp"

#include <nlohmann/json.hpp>

#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace tlmgpu {

struct TraceOptions {
  std::string path;
  double clock_mhz = 1000; // device 0's core clock: cycles of the window and samples
  Cycle start = 0, end = ~Cycle(0);
  Cycle sample_cycles = 1000;
};

class TraceWriter {
public:
  explicit TraceWriter(const TraceOptions& o); // ConfigError if the file cannot be written
  ~TraceWriter();

  void process(uint32_t pid, const std::string& name);
  uint32_t track(uint32_t pid, const std::string& name); // a thread track, made once per name
  void span(uint32_t pid, uint32_t tid, const std::string& name, const sc_core::sc_time& start,
            const sc_core::sc_time& end, const nlohmann::json& args = nlohmann::json::object());
  // Probes owned by the writer: attach them to an SM (SmModule::probes) and
  // to every port (attach_port_probes).
  InstrProbe* sm_probe(uint32_t pid, const std::string& sm_name, double sm_clock_mhz);
  PortProbe* port_probe(uint32_t pid, const std::string& port_name);
  // Closes open windows, ends the JSON; the destructor calls it.
  void finish();
  uint64_t events() const { return events_; }

private:
  class Windowed;
  class SmProbe;
  class PortCounter;
  bool inside(const sc_core::sc_time& t) const { return t >= start_ && t < end_; }
  void counter(uint32_t pid, const std::string& name, const sc_core::sc_time& at, double v);
  void write(const nlohmann::json& event);

  std::ofstream out_;
  sc_core::sc_time start_, end_, sample_;
  std::string path_;
  bool first_ = true, finished_ = false;
  uint64_t events_ = 0;
  std::map<std::pair<uint32_t, std::string>, uint32_t> tracks_;
  std::vector<std::unique_ptr<Windowed>> probes_;
};

} // namespace tlmgpu
