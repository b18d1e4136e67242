// Vocabulary shared by every block: access kinds, atomic ops and types, memory
// orders and scopes, and the kernel-free description of one memory access
// (`GpuAccess`) that rides inside the TLM payload extension (payload.hpp).
// No SystemC here: cores include this file.
#pragma once

#include "tlmgpu/lane_ops.hpp"

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

namespace tlmgpu {

using Addr = uint64_t;
using Cycle = uint64_t;

enum class AccessKind : uint8_t {
  Load,       // read sectors of one line
  Store,      // write bytes (byte-enabled) of one line
  Atomic,     // read-modify-write per lane, returns old values
  Red,        // read-modify-write per lane, no return (PTX red)
  Fence,      // ordering point (scope in `scope`)
  Flush,      // write back dirty data / buffered updates
  Invalidate, // drop clean copies
  Eviction,   // a buffer or cache handing partial updates/dirty data down
  Fill,       // cache-to-cache/DRAM line fill (internal)
};

enum class AtomicOp : uint8_t { Add, Sub, Min, Max, Inc, Dec, And, Or, Xor, Exch, Cas };
enum class DataType : uint8_t { U32, S32, U64, F32, F64 };
enum class MemOrder : uint8_t { Relaxed, Acquire, Release, AcqRel, SeqCst, Commutative };
enum class Scope : uint8_t { Cta, Device, System };
// Which ordering point an AccessKind::Fence request is (docs/architecture.md,
// "The memory path"): a warp's fence, a CTA barrier sent down the path
// because a stage asked for it (PathStage::orders_barriers), or the kernel
// end's system-scope release. Stages drain by scope; the kind tells them why.
enum class FenceKind : uint8_t { Fence, Barrier, KernelEnd };

constexpr unsigned size_of(DataType t) {
  return (t == DataType::U64 || t == DataType::F64) ? 8 : 4;
}

// How a simulation keeps time (docs/timing.md): a property of the run that
// every block reads, so it lives here, below the runner.
enum class TimingMode { Functional, LT, AT };
std::string_view to_string(TimingMode m);

std::string_view to_string(AccessKind k);
std::string_view to_string(AtomicOp o);
std::string_view to_string(DataType t);
std::string_view to_string(MemOrder o);
std::string_view to_string(Scope s);
std::optional<AtomicOp> parse_atomic_op(std::string_view s);
std::optional<DataType> parse_data_type(std::string_view s);
std::optional<MemOrder> parse_mem_order(std::string_view s);
std::optional<Scope> parse_scope(std::string_view s);

// The widest warp a platform may have (sm.warp_size is 32 or 64): 64-wide
// wavefronts as on AMD GCN (issue 15 item 3). Lane masks are 64 bits.
constexpr unsigned kMaxLanes = 64;
constexpr unsigned kMaxLineBytes = 256;

// Everything a GPU memory access carries besides address/length/data.
// The generic payload keeps address (line-aligned), data pointer (one line),
// byte enables (stores) and the response status.
struct GpuAccess {
  AccessKind kind = AccessKind::Load;
  AtomicOp op = AtomicOp::Add;
  DataType type = DataType::U32;
  MemOrder order = MemOrder::Relaxed;
  Scope scope = Scope::Device;
  FenceKind fence = FenceKind::Fence; // AccessKind::Fence only
  // A remote-scope-promoted atomic (rem_acq / rem_rel / rem_ar by `order`,
  // at device scope; seed-002 §1.7): the requester says so, the L1's
  // protocol policy (l1.rsp) decides what it costs. Ignored elsewhere.
  bool remote = false;
  uint32_t sector_mask = 0; // sectors of the line this access touches
  uint16_t src_sm = 0;
  uint16_t src_warp = 0;
  uint32_t src_cta = 0;
  uint64_t txn_id = 0;
  uint64_t parent_id = 0;
  // 0, or a sequence tag its sender gave it so that a block further down can
  // put such requests in a fixed order whatever the network did (DAB flush
  // packets: epoch << 32 | sequence number towards their L2 slice).
  uint64_t order_tag = 0;
  // Atomics/reds: one LaneOp per lane the request carries, out of line and
  // sized to them (lane_ops.hpp); empty for every other kind.
  LaneOps lanes;
  // Set by the block that serviced the access, for stats and tests.
  enum class Level : uint8_t { None, L1, L2, Dram } serviced_by = Level::None;

  bool is_rmw() const { return kind == AccessKind::Atomic || kind == AccessKind::Red; }
};

} // namespace tlmgpu
