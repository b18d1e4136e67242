// DataBlocks: the runtime's unit of data movement and, for LC blocks, of
// consistency (seed-004 §3.3). A block has a host copy and at most one copy
// per GPU (gpu_directory.hpp). Payloads are real bytes when the block is
// functional (small runs, the semantics tests) and absent otherwise
// (paper-size runs time the transfers without moving data).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace tlmgpu::rt {

using Guid = uint64_t;
using TaskId = uint64_t;

// ARTS_DB_GPU_READ / GPU_WRITE / LC.
enum class DbType { Read, Write, Lc };
// How a task takes a block: as it is, zero-filled on the GPU (GPU_MEMSET for
// Write blocks, LC_NO_COPY for LC blocks: the device copy starts at the
// operator's identity), or, for a CPU task, after an LC sync of every copy.
enum class Mode { Normal, Zero, LcSync };
// The LC collapse operators (§4.9; 'random' and 'nonzero' are left out).
enum class MergeOp { Copy, Latest, Min, Max, Add, Xor };

inline constexpr uint64_t kDbHeaderBytes = 64; // moved with H2D, sync and eviction copies

struct DataBlock {
  Guid id = 0;
  uint64_t key = 0; // placement key (hash locality): tile i of every array shares i mod G
  DbType type = DbType::Read;
  MergeOp op = MergeOp::Copy;
  uint64_t bytes = 0;  // payload
  uint32_t memory = 0; // host memory (fabric.host_memory index) of the pinned host buffer
  bool functional = true;
  std::vector<uint8_t> host; // the host copy (functional blocks)
  uint64_t host_stamp = 0;   // 'latest': the stamp of the copy last merged in
  uint64_t total() const { return bytes + kDbHeaderBytes; }
  uint64_t alloc() const { return type == DbType::Lc ? 2 * total() : total(); } // LC: + shadow
};

const char* to_string(DbType t);
const char* to_string(MergeOp op);
MergeOp merge_op_from(const std::string& name); // ConfigError-free: throws std::invalid_argument

// H := op(H, C) element-wise (u32 elements; u64 for xor). Copy and Latest
// (the caller compares stamps) take C.
void merge_into(MergeOp op, std::vector<uint8_t>& host, const std::vector<uint8_t>& copy);
// The identity a Zero-mode copy starts at is 0 for add and xor (the only
// operators for which the notes use NO_COPY, pitfall 9).
bool zero_is_identity(MergeOp op);

} // namespace tlmgpu::rt
