// The managed-memory page table (models/uvm) without an executor: first
// touch migrates from the host, a page follows the GPU that faults on it,
// faults are serviced in batches, shared service queues, full GPUs evict
// their oldest pages, sampled entries count their pages.
#include "models/uvm/managed_memory.hpp"

#include <catch2/catch.hpp>

using namespace tlmgpu;
using namespace tlmgpu::uvm;

namespace {

struct Rig {
  StatGroup root;
  UvmSpec spec = defaults<UvmSpec>();
  std::unique_ptr<ManagedMemory> mm;
  explicit Rig(uint64_t capacity = uint64_t(1) << 30, uint32_t gpus = 4,
               const char* service = "per_gpu") {
    spec.service = service;
    mm = std::make_unique<ManagedMemory>(spec, gpus, capacity, root);
  }
  Faults wave(uint32_t gpu, uint32_t alloc, uint64_t first, uint64_t count, double now = 0) {
    Faults f(gpu, mm->gpus());
    mm->touch(f, alloc, first, count);
    mm->service(f, now);
    return f;
  }
};

} // namespace

TEST_CASE("uvm: first touch migrates each page from the host once", "[uvm]") {
  Rig r;
  const uint32_t a = r.mm->allocate(10 * 4096 + 1); // 11 pages, the last one short
  REQUIRE(r.mm->entries(a) == 11);
  const Faults f = r.wave(2, a, 0, 11);
  CHECK(f.faults == 11);
  CHECK(f.from_host == 11);
  CHECK(r.mm->where(a, 10) == 2);
  CHECK(r.mm->resident_bytes(2) == 11 * 4096);
  const Faults again = r.wave(2, a, 0, 11);
  CHECK(again.faults == 0);
  CHECK(again.batches == 0);
  CHECK(again.stall_s == 0);
}

TEST_CASE("uvm: a page migrates to the GPU that faults on it (thrash)", "[uvm]") {
  Rig r;
  const uint32_t a = r.mm->allocate(8 * 4096);
  r.wave(0, a, 0, 8);
  const Faults f = r.wave(3, a, 2, 4);
  CHECK(f.faults == 4);
  CHECK(f.from_host == 0);
  CHECK(f.from_gpu[0] == 4);
  CHECK(r.mm->where(a, 2) == 3);
  CHECK(r.mm->where(a, 1) == 0);
  CHECK(r.mm->resident_bytes(0) == 4 * 4096);
  CHECK(r.mm->resident_bytes(3) == 4 * 4096);
  const Faults back = r.wave(0, a, 0, 8); // and back again
  CHECK(back.from_gpu[3] == 4);
  CHECK(r.mm->resident_bytes(3) == 0);
}

TEST_CASE("uvm: a repeated touch within a wave faults once", "[uvm]") {
  Rig r;
  const uint32_t a = r.mm->allocate(4 * 4096);
  Faults f(1, 4);
  for (int i = 0; i < 10; ++i)
    r.mm->touch(f, a, 3);
  r.mm->service(f, 0);
  CHECK(f.accesses == 10);
  CHECK(f.faults == 1);
}

TEST_CASE("uvm: faults are serviced in batches", "[uvm]") {
  Rig r;
  const uint32_t a = r.mm->allocate(1000 * 4096);
  const Faults f = r.wave(0, a, 0, 1000); // 256 per batch: 4 batches
  CHECK(f.batches == 4);
  CHECK(f.stall_s == Approx(4 * r.spec.fault_us * 1e-6));
  const Faults one = r.wave(1, a, 0, 256);
  CHECK(one.batches == 1);
  const Faults next = r.wave(1, a, 256, 257);
  CHECK(next.batches == 2);
}

TEST_CASE("uvm: per-GPU service overlaps, shared service queues", "[uvm]") {
  const double batch = defaults<UvmSpec>().fault_us * 1e-6;
  Rig own;
  const uint32_t a = own.mm->allocate(512 * 4096);
  CHECK(own.wave(0, a, 0, 256, 0).stall_s == Approx(batch));
  CHECK(own.wave(1, a, 256, 256, 0).stall_s == Approx(batch));
  Rig one(uint64_t(1) << 30, 4, "shared");
  const uint32_t b = one.mm->allocate(512 * 4096);
  CHECK(one.wave(0, b, 0, 256, 0).stall_s == Approx(batch));
  CHECK(one.wave(1, b, 256, 256, 0).stall_s == Approx(2 * batch)); // behind GPU 0's batch
  CHECK(one.wave(2, b, 0, 0, 10).stall_s == 0);                    // nothing to service
}

TEST_CASE("uvm: a full GPU evicts its oldest pages to the host", "[uvm]") {
  Rig r(4 * 4096);
  const uint32_t a = r.mm->allocate(6 * 4096);
  const Faults f = r.wave(1, a, 0, 6);
  CHECK(f.faults == 6);
  CHECK(f.evicted == 2);
  CHECK(r.mm->where(a, 0) == kHost);
  CHECK(r.mm->where(a, 1) == kHost);
  CHECK(r.mm->where(a, 2) == 1);
  CHECK(r.mm->resident_bytes(1) == 4 * 4096);
  // a page that left for another GPU is not evicted again from here
  r.wave(2, a, 2, 1);
  const Faults g = r.wave(1, a, 0, 1);
  CHECK(g.evicted == 0);
  CHECK(r.mm->resident_bytes(1) == 4 * 4096);
}

TEST_CASE("uvm: a sampled entry stands for its pages", "[uvm]") {
  Rig r;
  const uint32_t a = r.mm->allocate(10 * 4096, 4); // entries of 4, 4, 2 pages
  REQUIRE(r.mm->entries(a) == 3);
  CHECK(r.mm->entry_of(a, 9 * 4096) == 2);
  const Faults f = r.wave(0, a, 1, 2);
  CHECK(f.faults == 6);
  CHECK(r.mm->resident_bytes(0) == 6 * 4096);
}
