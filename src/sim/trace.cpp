// The Chrome/Perfetto trace writer (include/tlmgpu/sim/trace.hpp).
#include "tlmgpu/sim/trace.hpp"

#include "tlmgpu/params.hpp"
#include "tlmgpu/sim/clock.hpp"
#include "tlmgpu/sim/ports.hpp"

#include <iomanip>

using namespace sc_core;

namespace tlmgpu {
namespace {
double us(const sc_time& t) {
  return t.to_seconds() * 1e6;
}
} // namespace

// A count per sample window, written as a counter event when the window
// closes (and a zero after a gap, so idle time shows as idle).
class TraceWriter::Windowed {
public:
  Windowed(TraceWriter& w, uint32_t pid, std::string name)
      : w_(w), pid_(pid), name_(std::move(name)) {}
  virtual ~Windowed() = default;
  void add(const sc_time& now, uint64_t n) {
    if (!w_.inside(now)) return;
    const uint64_t window = now.value() / w_.sample_.value();
    if (open_ && window != window_) close();
    if (!open_) {
      if (seen_ && window > window_ + 1) w_.counter(pid_, name_, at(window_ + 1), 0);
      open_ = seen_ = true, window_ = window;
    }
    count_ += n;
  }
  void close() {
    if (!open_) return;
    w_.counter(pid_, name_, at(window_), double(count_));
    open_ = false, count_ = 0;
  }

private:
  sc_time at(uint64_t window) const { return sc_time::from_value(window * w_.sample_.value()); }
  TraceWriter& w_;
  uint32_t pid_;
  std::string name_;
  uint64_t window_ = 0, count_ = 0;
  bool open_ = false, seen_ = false;
};

class TraceWriter::SmProbe : public Windowed, public InstrProbe {
public:
  SmProbe(TraceWriter& w, uint32_t pid, const std::string& sm, double mhz)
      : Windowed(w, pid, sm + " issue"), clk_(mhz) {}
  // `now` is the SM's cycle (in lt its local time, monotone per SM).
  void issued(uint16_t, const WarpInstr& in, Cycle now) override {
    add(clk_.cycles(now), in.kind == WarpInstr::Kind::Compute ? std::max(1u, in.count) : 1);
  }

private:
  Clock clk_;
};

class TraceWriter::PortCounter : public Windowed, public PortProbe {
public:
  using Windowed::Windowed;
  void request(const TargetPort&, const tlm::tlm_generic_payload&) override {
    add(sc_time_stamp(), 1);
  }
  void response(const TargetPort&, const tlm::tlm_generic_payload&) override {}
};

TraceWriter::TraceWriter(const TraceOptions& o) : out_(o.path), path_(o.path) {
  if (!out_) throw ConfigError("--trace: cannot write '" + o.path + "'");
  const Clock clk(o.clock_mhz);
  start_ = clk.cycles(o.start);
  end_ = o.end == ~Cycle(0) ? sc_max_time() : clk.cycles(o.end);
  sample_ = clk.cycles(std::max<Cycle>(1, o.sample_cycles));
  out_ << "{\"displayTimeUnit\": \"ns\", \"traceEvents\": [\n";
}

TraceWriter::~TraceWriter() {
  try {
    finish();
  } catch (const ConfigError&) { // reported by an explicit finish(); never from a destructor
  }
}

void TraceWriter::write(const nlohmann::json& e) {
  out_ << (first_ ? "" : ",\n") << e.dump();
  first_ = false;
  ++events_;
}

void TraceWriter::process(uint32_t pid, const std::string& name) {
  write({{"name", "process_name"}, {"ph", "M"}, {"pid", pid}, {"args", {{"name", name}}}});
}

uint32_t TraceWriter::track(uint32_t pid, const std::string& name) {
  auto [it, fresh] = tracks_.emplace(std::make_pair(pid, name), uint32_t(tracks_.size() + 1));
  if (fresh)
    write({{"name", "thread_name"},
           {"ph", "M"},
           {"pid", pid},
           {"tid", it->second},
           {"args", {{"name", name}}}});
  return it->second;
}

void TraceWriter::span(uint32_t pid, uint32_t tid, const std::string& name, const sc_time& start,
                       const sc_time& end, const nlohmann::json& args) {
  if (end < start_ || !(start < end_)) return; // wholly outside the window
  write({{"name", name},
         {"ph", "X"},
         {"pid", pid},
         {"tid", tid},
         {"ts", us(start)},
         {"dur", us(end) - us(start)},
         {"args", args}});
}

void TraceWriter::counter(uint32_t pid, const std::string& name, const sc_time& at, double v) {
  write({{"name", name}, {"ph", "C"}, {"pid", pid}, {"ts", us(at)}, {"args", {{"value", v}}}});
}

InstrProbe* TraceWriter::sm_probe(uint32_t pid, const std::string& sm, double mhz) {
  auto p = std::make_unique<SmProbe>(*this, pid, sm, mhz);
  InstrProbe* out = p.get();
  probes_.push_back(std::move(p));
  return out;
}

PortProbe* TraceWriter::port_probe(uint32_t pid, const std::string& port) {
  auto p = std::make_unique<PortCounter>(*this, pid, port + " requests");
  PortProbe* out = p.get();
  probes_.push_back(std::move(p));
  return out;
}

void TraceWriter::finish() {
  if (finished_) return;
  finished_ = true;
  for (auto& p : probes_)
    p->close();
  out_ << "\n]}\n";
  out_.flush();
  if (!out_) throw ConfigError("--trace: writing '" + path_ + "' failed");
}

} // namespace tlmgpu
