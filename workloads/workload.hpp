// A workload is what `tlmgpu run -w NAME` runs: it adds its initiators (or,
// from the SM issue on, a host program) to an elaborated GPU, and after the
// simulation checks its result against a CPU reference.
#pragma once

#include <cstdint>
#include <vector>

#include <functional>
#include <map>
#include <memory>
#include <ostream>
#include <string>

namespace tlmgpu {

class SimContext;
class GpuModule;

struct WorkloadArg {
  std::string name, def, description;
};
struct WorkloadInfo {
  std::string name, description;
  std::vector<WorkloadArg> args;
};

// All registered workloads, sorted by name.
std::vector<WorkloadInfo> list_workloads();

// Workload arguments (--arg k=v), checked against the declared list: unknown
// names and malformed numbers are ConfigErrors naming the argument.
class WorkloadArgs {
public:
  WorkloadArgs(const WorkloadInfo& info, const std::map<std::string, std::string>& given);
  uint64_t u64(const std::string& name, uint64_t min, uint64_t max) const;
  std::string str(const std::string& name) const;
  const std::map<std::string, std::string>& values() const { return values_; }

private:
  std::string workload_;
  std::map<std::string, std::string> values_; // declared defaults overridden by given
};

class Workload {
public:
  virtual ~Workload() = default;
  // Called during elaboration, after the GPU exists.
  virtual void elaborate(SimContext& ctx, GpuModule& gpu) = 0;
  // After sc_start() returns: compare with the reference. Writes a short
  // human summary to `out`; returns "" on success or the first mismatch.
  virtual std::string check(SimContext& ctx, GpuModule& gpu, std::ostream& out) = 0;
  // True when every initiator finished (a run that stops early is a failure).
  virtual bool finished() const = 0;
};

struct WorkloadEntry {
  WorkloadInfo info;
  std::function<std::unique_ptr<Workload>(const WorkloadArgs&)> make;
};

const std::vector<WorkloadEntry>& workload_registry();
const WorkloadEntry& find_workload(const std::string& name); // ConfigError with suggestion

} // namespace tlmgpu
