// A GPU task's life on its GPU (seed-004 §4.3-4.6): the copies it pins or
// fills, its kernel, strict write-backs, the wrap-up that invalidates other
// GPUs' copies of what it wrote, and garbage collection.
#include "models/runtime/runtime.hpp"

#include <algorithm>
#include <stdexcept>

namespace tlmgpu::rt {

CopyEntry& Runtime::copy_on(uint32_t gpu, Guid db) {
  CopyEntry* e = dirs_[gpu]->lookup(db);
  if (!e) throw std::logic_error("runtime: no copy of block " + std::to_string(db));
  return *e;
}

std::vector<StreamOp> Runtime::launch(TaskId id, uint32_t gpu, uint32_t worker) {
  Task& t = tasks_[id];
  t.gpu_launched = true;
  std::vector<StreamOp> ops;
  // Round robin per GPU; every operation of the task on its stream.
  const uint32_t stream = uint32_t(next_stream_[gpu]++ % spec_.streams);
  auto emit = [&](StreamOp op) {
    op.gpu = gpu;
    op.stream = stream;
    stats_.count(op);
    ops.push_back(std::move(op));
  };
  GpuRuntimeStats& gs = stats_.gpu[gpu];
  std::vector<CopyEntry*> copies, filling; // filling: hits on fills queued on other streams
  auto filled = [filling = &filling]() -> std::function<bool()> {
    if (filling->empty()) return nullptr;
    return [f = *filling] {
      return std::all_of(f.begin(), f.end(), [](const CopyEntry* c) { return c->fill_stream < 0; });
    };
  };
  for (const Dep& d : t.spec.deps) {
    DataBlock& b = dbs_[d.db];
    const bool zero = d.mode == Mode::Zero;
    if (CopyEntry* e = dirs_[gpu]->pin(d.db, ++stamp_)) {
      ++gs.hits;
      avail_[gpu] += b.alloc(); // the reservation covered it; a hit gives it back
      t.reserved -= b.alloc();
      // One stream keeps the fill ahead of this task; several need a wait.
      if (e->fill_stream >= 0 && uint32_t(e->fill_stream) != stream) filling.push_back(e);
      if (zero && b.type == DbType::Write) { // GPU_MEMSET zeroes on a hit too
        StreamOp m{OpKind::Memset, Cause::Task, 0, 0, 0, b.bytes, {}, [e] {
                     std::fill(e->data.begin(), e->data.end(), 0);
                   }};
        m.ready = filled();
        emit(std::move(m));
      }
      copies.push_back(e);
      continue;
    }
    ++gs.misses;
    CopyEntry& e = dirs_[gpu]->reserve(d.db, b.alloc(), stamp_);
    t.reserved -= b.alloc(); // now held by the copy
    if (b.functional) e.data.assign(b.bytes, 0);
    CopyEntry* ep = &e;
    ep->fill_stream = int(stream);
    if (zero)
      emit({OpKind::Memset, Cause::Miss, 0, 0, 0, b.bytes, {}, [ep] { ep->fill_stream = -1; }});
    else
      emit({OpKind::H2D, Cause::Miss, 0, 0, b.memory, b.total(), {}, [ep, &b] {
              if (b.functional) ep->data = b.host;
              ep->fill_stream = -1;
            }});
    copies.push_back(ep);
  }
  t.closure = 8 * (uint64_t(t.spec.paramc) + 1) + 24 * t.spec.deps.size();
  emit({OpKind::H2D, Cause::Closure, 0, 0, 0, t.closure, {}, [] {}});
  bool functional = true;
  for (const Dep& d : t.spec.deps)
    functional = functional && dbs_[d.db].functional;
  auto views = [copies] {
    Views v;
    for (CopyEntry* c : copies)
      v.push_back(&c->data);
    return v;
  };
  StreamOp kernel{
      OpKind::Kernel, Cause::Task, 0, 0, 0, 0, t.spec.cost, [this, id, views, functional] {
        Views v = views();
        const Body body = tasks_[id].spec.body;
        if (functional && body) body(v);
      }};
  kernel.kernel = t.spec.kernel;
  kernel.views = views;
  kernel.ready = filled();
  emit(std::move(kernel));
  for (size_t i = 0; i < t.spec.deps.size(); ++i) {
    DataBlock& b = dbs_[t.spec.deps[i].db];
    if (b.type != DbType::Write) continue;
    CopyEntry* c = copies[i];
    emit({OpKind::D2H, Cause::WriteBack, 0, 0, b.memory, b.bytes, {}, [c, &b] {
            if (b.functional) b.host = c->data;
          }});
  }
  t.pinned = copies;
  emit({OpKind::Callback, Cause::Callback, 0, 0, 0, 0, {}, [this, id, gpu, worker] {
          wrap_up(id, gpu, worker);
        }});
  ++gs.tasks;
  ++stats_.gpu_tasks;
  return ops;
}

void Runtime::wrap_up(TaskId id, uint32_t gpu, uint32_t worker) {
  Task& t = tasks_[id];
  --running_[gpu];
  avail_[gpu] += t.reserved; // what the copies did not keep: the closure
  t.reserved = 0;
  for (const Dep& d : t.spec.deps) {
    if (dbs_[d.db].type == DbType::Write)
      for (uint32_t o = 0; o < gpus_; ++o)
        if (o != gpu) dirs_[o]->invalidate(d.db, false);
  }
  // The copies this task pinned, even if invalidated meanwhile (an LC sync
  // or a writer elsewhere): a deleted copy is freed at its last unpin.
  for (CopyEntry* e : std::exchange(t.pinned, {}))
    dirs_[gpu]->unpin(*e, !spec_.cache);
  finish(id, worker);
}

void Runtime::on_free(uint32_t gpu, std::unique_ptr<CopyEntry> e) {
  GpuRuntimeStats& gs = stats_.gpu[gpu];
  DataBlock& b = dbs_[e->db];
  if (b.type == DbType::Lc && !e->merged) {
    // An eviction: write the copy back and merge it before its memory returns.
    auto owned = std::make_shared<std::unique_ptr<CopyEntry>>(std::move(e));
    StreamOp op{OpKind::D2H, Cause::Evict, gpu, 0, b.memory, b.total(), {}, {}};
    op.effect = [this, gpu, owned, &b] {
      CopyEntry& c = **owned;
      if (b.functional) merge_into(b.op, b.host, c.data);
      ++stats_.eviction_merges;
      avail_[gpu] += c.alloc;
      stats_.gpu[gpu].freed_bytes += c.alloc;
      progress_ = true;
    };
    stats_.count(op);
    evictions_.push_back(std::move(op));
    return;
  }
  avail_[gpu] += e->alloc;
  gs.freed_bytes += e->alloc;
  progress_ = true;
}

void Runtime::sweep(uint32_t gpu) {
  ++stats_.gpu[gpu].sweeps;
  const size_t before = dirs_[gpu]->valid();
  dirs_[gpu]->sweep(spec_.delete_zeros);
  stats_.gpu[gpu].evicted += before - dirs_[gpu]->valid();
}

std::vector<StreamOp> Runtime::take_evictions() {
  return std::exchange(evictions_, {});
}

} // namespace tlmgpu::rt
