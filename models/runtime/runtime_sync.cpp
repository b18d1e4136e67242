// The LC collapse of one block (seed-004 §4.9, with pitfall 8's intended
// rule): every valid GPU copy is pinned for the sync, reduced pairwise into
// the roots (peer copy into the root's shadow half + a merge kernel), the
// roots copied to the host and merged there; each copy is then freed as
// merged, so a later sweep never merges it a second time.
#include "models/runtime/runtime.hpp"

#include <algorithm>
#include <bit>

namespace tlmgpu::rt {

TreePlan Runtime::sync_begin(Guid db) {
  uint32_t mask = 0;
  for (uint32_t g = 0; g < gpus_; ++g)
    if (dirs_[g]->pin(db, 0)) mask |= 1u << g;
  const bool tree = spec_.lc_sync == "tree" && gpus_ <= 8;
  TreePlan p = tree ? plan_tree(mask) : plan_host_serial(mask);
  ++stats_.syncs;
  stats_.copies_merged += uint64_t(std::popcount(mask));
  stats_.tree_steps += p.steps.size();
  stats_.tree_levels += p.depth;
  return p;
}

StreamOp Runtime::sync_copy(Guid db, uint32_t root, uint32_t other) {
  DataBlock& b = dbs_[db];
  CopyEntry* to = &copy_on(root, db);
  CopyEntry* from = &copy_on(other, db);
  StreamOp op{OpKind::P2P, Cause::Sync, root, other, 0, b.total(), {}, {}};
  op.join = true; // after the root's tasks on every stream (the merge follows it on stream 0)
  op.effect = [this, to, from, other, db] {
    to->shadow = from->data;
    dirs_[other]->unpin(*from, false);
    dirs_[other]->invalidate(db, true);
  };
  stats_.count(op);
  return op;
}

StreamOp Runtime::sync_merge(Guid db, uint32_t root) {
  DataBlock& b = dbs_[db];
  CopyEntry* c = &copy_on(root, db);
  // read both halves, write one; 32 threads per block as in the reference
  StreamOp op{OpKind::Kernel, Cause::Merge, root, 0, 0, 0, {3 * b.bytes, b.bytes / 4, 32}, {}};
  op.effect = [c, &b] {
    if (b.functional) merge_into(b.op, c->data, c->shadow);
    c->shadow.clear();
  };
  stats_.count(op);
  return op;
}

StreamOp Runtime::sync_to_host(Guid db, uint32_t root) {
  DataBlock& b = dbs_[db];
  CopyEntry* c = &copy_on(root, db);
  StreamOp op{OpKind::D2H, Cause::Sync, root, 0, b.memory, b.total(), {}, {}};
  op.join = true;
  op.effect = [this, c, root, db, &b] {
    if (b.functional) {
      if (b.op != MergeOp::Latest)
        merge_into(b.op, b.host, c->data);
      else if (c->stamp > b.host_stamp) // the most recently acquired copy wins
        b.host = c->data;
    }
    b.host_stamp = std::max(b.host_stamp, c->stamp);
    ++stats_.host_merges;
    dirs_[root]->unpin(*c, false);
    dirs_[root]->invalidate(db, true);
  };
  stats_.count(op);
  return op;
}

} // namespace tlmgpu::rt
