// The workload registry: an explicit list (static self-registration would be
// dropped by the linker from a static library) and argument checking.
#include "workloads/workload.hpp"

#include "tlmgpu/config.hpp"
#include "workloads/conv_bwd_filter/conv_bwd_filter.hpp"
#include "workloads/float_reduce/float_reduce.hpp"
#include "workloads/graph_apps/register.hpp"
#include "workloads/histogram/histogram.hpp"
#include "workloads/litmus/litmus_chain.hpp"
#include "workloads/litmus/litmus_lock.hpp"
#include "workloads/litmus/litmus_mp.hpp"
#include "workloads/litmus/litmus_rsp.hpp"
#include "workloads/ml_apps/register.hpp"
#include "workloads/random_traffic/random_traffic.hpp"
#include "workloads/stream/stream.hpp"
#include "workloads/work_steal/ws_workloads.hpp"

#include <algorithm>
#include <charconv>

namespace tlmgpu {

const std::vector<WorkloadEntry>& workload_registry() {
  static const std::vector<WorkloadEntry> all = [] {
    std::vector<WorkloadEntry> v = {
        histogram_workload(),       histogram_shared_workload(), random_traffic_workload(),
        latency_workload(),         stream_workload(),           float_reduce_workload(),
        conv_bwd_filter_workload(), litmus_mp_workload(),        litmus_rsp_workload(),
        litmus_lock_workload(),     litmus_chain_workload()};
    append_graph_workloads(v);
    v.push_back(ws_pagerank_workload());
    v.push_back(ws_sssp_workload());
    v.push_back(ws_clr_workload());
    v.push_back(ws_mis_workload());
    append_ml_workloads(v);
    return v;
  }();
  return all;
}

const WorkloadEntry& find_workload(const std::string& name) {
  std::vector<std::string> names;
  for (const WorkloadEntry& e : workload_registry()) {
    if (e.info.name == name) return e;
    names.push_back(e.info.name);
  }
  std::string hint = closest_match(name, names);
  throw ConfigError("unknown workload '" + name + "'" +
                    (hint.empty() ? "" : " (did you mean '" + hint + "'?)") +
                    "; see 'tlmgpu list'");
}

WorkloadArgs::WorkloadArgs(const WorkloadInfo& info,
                           const std::map<std::string, std::string>& given)
    : workload_(info.name) {
  std::vector<std::string> names;
  for (const WorkloadArg& a : info.args) {
    values_[a.name] = a.def;
    names.push_back(a.name);
  }
  for (const auto& [k, v] : given) {
    if (!values_.count(k)) {
      std::string hint = closest_match(k, names);
      throw ConfigError("workload '" + workload_ + "' has no argument '" + k + "'" +
                        (hint.empty() ? "" : " (did you mean '" + hint + "'?)"));
    }
    values_[k] = v;
  }
}

uint64_t WorkloadArgs::u64(const std::string& name, uint64_t min, uint64_t max) const {
  const std::string& s = values_.at(name);
  uint64_t v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size())
    throw ConfigError("workload '" + workload_ + "' argument " + name +
                      ": expected an unsigned integer, got '" + s + "'");
  if (v < min || v > max)
    throw ConfigError("workload '" + workload_ + "' argument " + name + ": " + s +
                      " is out of range [" + std::to_string(min) + ", " + std::to_string(max) +
                      "]");
  return v;
}

std::string WorkloadArgs::str(const std::string& name) const {
  return values_.at(name);
}

std::vector<WorkloadInfo> list_workloads() {
  std::vector<WorkloadInfo> v;
  for (const WorkloadEntry& e : workload_registry())
    v.push_back(e.info);
  std::sort(v.begin(), v.end(), [](auto& a, auto& b) { return a.name < b.name; });
  return v;
}

} // namespace tlmgpu
