// Tasks, deques and GPU choice (seed-004 §4.2). The GPU side of a task
// (launch, wrap-up, GC) is runtime_gpu.cpp; the LC collapse runtime_sync.cpp.
#include "models/runtime/runtime.hpp"

#include <stdexcept>

namespace tlmgpu::rt {

Runtime::Runtime(const RuntimeSpec& spec, uint32_t gpus, uint64_t capacity_bytes, uint32_t memories,
                 uint32_t workers, uint64_t seed, StatGroup& stats)
    : spec_(spec), gpus_(spec.gpus == 0 ? gpus : std::min(spec.gpus, gpus)), memories_(memories),
      capacity_(capacity_bytes), rng_(seed), gpu_deques_(workers), cpu_deques_(workers),
      avail_(gpus_, capacity_bytes), running_(gpus_, 0), next_stream_(gpus_, 0),
      stats_(stats, gpus_) {
  if (spec.max_memory_mib) {
    capacity_ = std::min(capacity_, spec.max_memory_mib << 20);
    avail_.assign(gpus_, capacity_);
  }
  for (uint32_t g = 0; g < gpus_; ++g)
    dirs_.push_back(std::make_unique<GpuDirectory>(
        [this, g](std::unique_ptr<CopyEntry> e) { on_free(g, std::move(e)); }));
}

Guid Runtime::create_db(uint64_t bytes, DbType type, MergeOp op, uint64_t key, bool functional) {
  DataBlock d;
  d.id = dbs_.size();
  d.key = key;
  d.type = type;
  d.op = op;
  d.bytes = bytes;
  d.memory = uint32_t(key % memories_);
  d.functional = functional;
  if (functional) d.host.assign(bytes, 0);
  dbs_.push_back(std::move(d));
  return dbs_.back().id;
}

DataBlock& Runtime::db(Guid id) {
  if (id >= dbs_.size()) throw std::out_of_range("no DataBlock " + std::to_string(id));
  return dbs_[id];
}

TaskId Runtime::add_task(TaskSpec t, uint32_t worker) {
  for (const Dep& d : t.deps) {
    db(d.db); // exists
    if (d.mode == Mode::LcSync && (t.gpu || db(d.db).type != DbType::Lc))
      throw std::invalid_argument(t.name + ": an LC sync is taken by a CPU task on an LC block");
  }
  if (t.gpu_to_run_on >= int(gpus_))
    throw std::invalid_argument(t.name + ": GPU " + std::to_string(t.gpu_to_run_on) +
                                " is not used (the runtime uses " + std::to_string(gpus_) + ")");
  const TaskId id = tasks_.size();
  Task task;
  task.spec = std::move(t);
  for (TaskId p : task.spec.after) {
    if (p >= id) throw std::invalid_argument(task.spec.name + ": waits for an unknown task");
    if (!tasks_[p].finished) {
      tasks_[p].successors.push_back(id);
      ++task.waiting;
    }
  }
  tasks_.push_back(std::move(task));
  if (tasks_[id].waiting == 0) ready(id, worker);
  return id;
}

void Runtime::ready(TaskId id, uint32_t worker) {
  auto& dq = tasks_[id].spec.gpu ? gpu_deques_ : cpu_deques_;
  dq[worker % dq.size()].push_front(id);
  progress_ = true;
}

void Runtime::finish(TaskId id, uint32_t worker) {
  Task& t = tasks_[id];
  t.finished = true;
  for (TaskId s : t.successors)
    if (--tasks_[s].waiting == 0) ready(s, worker);
  t.spec.body = nullptr; // its captures are no longer needed
  progress_ = true;
}

// Own work from the front (LIFO); else a random victim's back (FIFO).
std::optional<TaskId> Runtime::pop(std::vector<std::deque<TaskId>>& dq, uint32_t worker) {
  if (!dq[worker].empty()) {
    const TaskId id = dq[worker].front();
    dq[worker].pop_front();
    return id;
  }
  const uint32_t n = uint32_t(dq.size());
  const uint32_t start = uint32_t(rng_() % n);
  for (uint32_t k = 0; k < n; ++k) {
    auto& victim = dq[(start + k) % n];
    if (victim.empty()) continue;
    const TaskId id = victim.back();
    victim.pop_back();
    ++stats_.steals;
    return id;
  }
  return std::nullopt;
}

std::optional<TaskId> Runtime::next_gpu_task(uint32_t worker) {
  return pop(gpu_deques_, worker);
}
std::optional<TaskId> Runtime::next_cpu_task(uint32_t worker) {
  return pop(cpu_deques_, worker);
}

void Runtime::retry_later(uint32_t worker, TaskId id) {
  gpu_deques_[worker].push_front(id);
  ++stats_.retries;
}

uint64_t Runtime::need(const Task& t) const {
  uint64_t n = 8 * (uint64_t(t.spec.paramc) + 1) + 24 * t.spec.deps.size();
  for (const Dep& d : t.spec.deps)
    n += dbs_[d.db].alloc();
  return n;
}

bool Runtime::try_reserve(uint32_t gpu, uint64_t bytes) {
  if (spec_.max_edts && running_[gpu] >= spec_.max_edts) return false;
  if (avail_[gpu] < bytes) {
    if (gc_request_ < 0) gc_request_ = int(gpu);
    return false;
  }
  avail_[gpu] -= bytes;
  ++running_[gpu];
  return true;
}

// The GPU the locality policy insists on, or -1 when any GPU may do.
int Runtime::locality_choice(const Task& t) {
  if (t.spec.gpu_to_run_on >= 0) return t.spec.gpu_to_run_on;
  const auto& deps = t.spec.deps;
  if (spec_.locality == "hash_db0" && !deps.empty()) return int(dbs_[deps[0].db].key % gpus_);
  if (spec_.locality == "hash_largest" && !deps.empty()) {
    uint64_t k = 0;
    for (const Dep& d : deps)
      k = std::max(k, dbs_[d.db].key);
    return int(k % gpus_);
  }
  if (spec_.faithful_bugs) return -1; // the reference code's masks never restrict
  if (spec_.locality == "all_or_nothing" || spec_.locality == "at_least_one") {
    const bool all = spec_.locality == "all_or_nothing";
    for (uint32_t g = 0; g < gpus_; ++g) {
      size_t held = 0;
      for (const Dep& d : deps)
        held += dirs_[g]->lookup(d.db) ? 1 : 0;
      if (all ? (held == deps.size() && held > 0) : held > 0) return int(g);
    }
  }
  return -1;
}

int Runtime::find_gpu(TaskId id) {
  Task& t = tasks_[id];
  const uint64_t n = need(t);
  if (n > capacity_) {
    impossible_ = "task '" + t.spec.name + "' needs " + std::to_string(n) +
                  " bytes of device memory (its blocks, LC ones twice, and its closure), more "
                  "than a GPU's " +
                  std::to_string(capacity_) + " (" + capacity_params + ")";
    return -1;
  }
  const int forced = locality_choice(t);
  int g = forced;
  if (g >= 0) {
    if (!try_reserve(uint32_t(g), n)) g = -1;
  } else if (spec_.fit == "best" || spec_.fit == "worst") {
    int pick = -1;
    for (uint32_t k = 0; k < gpus_; ++k) {
      if (avail_[k] < n || (spec_.max_edts && running_[k] >= spec_.max_edts)) continue;
      if (pick < 0 || (spec_.fit == "best" ? avail_[k] < avail_[pick] : avail_[k] > avail_[pick]))
        pick = int(k);
    }
    if (pick >= 0 && try_reserve(uint32_t(pick), n)) g = pick;
    if (pick < 0 && gc_request_ < 0) gc_request_ = int(rng_() % gpus_);
  } else {
    const uint32_t start =
        spec_.fit == "round_robin" ? uint32_t(round_robin_++ % gpus_) : uint32_t(rng_() % gpus_);
    for (uint32_t k = 0; k < gpus_ && g < 0; ++k)
      if (try_reserve((start + k) % gpus_, n)) g = int((start + k) % gpus_);
  }
  if (g < 0) {
    if (forced >= 0) ++stats_.gpu[uint32_t(forced)].reserve_failed;
    return -1;
  }
  t.reserved = n;
  return g;
}

std::vector<Guid> Runtime::lc_syncs(TaskId id) const {
  std::vector<Guid> out;
  for (const Dep& d : tasks_.at(id).spec.deps)
    if (d.mode == Mode::LcSync) out.push_back(d.db);
  return out;
}

void Runtime::run_cpu(TaskId id, uint32_t worker) {
  Task& t = tasks_[id];
  Views views;
  bool functional = true;
  for (const Dep& d : t.spec.deps) {
    views.push_back(&dbs_[d.db].host);
    functional = functional && dbs_[d.db].functional;
  }
  // the body may add tasks (tasks_ grows): run it from a copy, not in place
  const Body body = t.spec.body;
  if (body && functional) body(views);
  ++stats_.cpu_tasks;
  finish(id, worker);
}

int Runtime::take_gc_request() {
  return std::exchange(gc_request_, -1);
}

} // namespace tlmgpu::rt
