// The stream compaction unit as a SystemC block: a non-SM initiator on the
// SM-to-memory network (a crossbar input), programmed by the host (README.md).
// ScuCore decides which lines and what output; this shell moves the lines
// with the pipeline's limits: `width` elements per cycle, at most
// `coalescer_entries` reads in flight and `fetch_fifo_bytes` of data lines
// outstanding, writes coalesced into whole lines.
#pragma once

#include "models/scu/scu_core.hpp"
#include "models/scu/scu_spec.hpp"
#include "tlmgpu/device_memory.hpp"
#include "tlmgpu/sim/builder.hpp"
#include "tlmgpu/sim/clock.hpp"
#include "tlmgpu/sim/context.hpp"
#include "tlmgpu/sim/ports.hpp"
#include "tlmgpu/stats.hpp"

#include <array>
#include <deque>
#include <exception>
#include <functional>
#include <queue>
#include <set>
#include <unordered_map>
#include <vector>

namespace tlmgpu {

class IruControl;

class ScuModule : public sc_core::sc_module {
public:
  ScuModule(sc_core::sc_module_name n, SimContext& ctx, const ScuSpec& spec, StatGroup& parent);
  InitiatorPort port; // into a crossbar input

  // Runs `c` to completion from the calling thread (the host's: GPU and
  // SCU run serially, seed-003 §2.1) and returns the output elements.
  // Every vector, data element and output byte must lie in an allocation
  // of `mem`. Throws ConfigError for a malformed command, an address outside
  // the allocations, or an output that would not fit `out_capacity`.
  uint64_t execute(const ScuCommand& c, const DeviceMemory& mem);

  // The SCU of a device (one per GPU), for host programs; nullptr if the
  // platform places none.
  static ScuModule* of(SimContext& ctx);

private:
  struct Req {
    Addr line;
    bool write;
    Cycle not_before; // address generation: the cycle its elements are generated
    std::vector<uint8_t> data, be;
    uint16_t phase = 0; // a read: the phase waiting for it
  };
  // The fetch engine (scu_fetch_module.cpp). The units are a pipeline, not
  // phases that wait for each other: the address generator reads the next
  // chunk's vectors while the data fetch still has this chunk's lines in
  // flight, and the data store's writes are posted (the operation ends when
  // the last one is answered). Within a chunk the generator goes a slice
  // (one vector line's elements) at a time, each as soon as its vector
  // lines are in (vectors_in), so data reads cross chunk boundaries. A
  // Phase is a group of reads something waits for; reads take one of
  // `window` entries of their unit's coalescer (Unit) until answered, in
  // issue order per unit.
  enum Unit : uint8_t { Fetch, FilterUnit, Units };
  struct Phase {
    bool open = false;
    Unit unit = Fetch;
    uint64_t outstanding = 0; // at: reads not yet answered
    Cycle end = 0;            // lt: the cycle the last read is answered
  };
  // Opens a phase (an index into phases_, carried in the request's src_warp).
  uint16_t open_phase();
  // Sends `reqs` in order from now: a read into its phase through unit
  // `u`'s coalescer, a write posted. lt books each at its start cycle (no
  // SystemC wait); at waits only for a free entry and the port.
  void issue(std::vector<Req>& reqs, Unit u = Fetch);
  // Waits for phase `ph`'s reads and closes it (lt: the unit's time moves
  // to their last answer).
  void finish(uint16_t ph);
  // The address generator waits for a slice's vector `lines` (at: until
  // they are answered); the cycle the last one was (lt: booked) answered.
  Cycle vectors_in(const std::vector<Addr>& lines);
  // issue + finish: the reads of `reqs` answered (writes posted); the
  // lines read, for release() once used.
  std::vector<Addr> transfer(std::vector<Req>& reqs, Unit u = Fetch);
  // The unit's time: lt books ahead of SystemC time (lt_now_), at is now.
  Cycle now() const;
  // lt: SystemC time catches up with the unit's (before the IRU's own
  // pulling and at the end of an operation).
  void sync();
  // Every read answered and every write acknowledged.
  void drain();
  // Drops lines a finished chunk read, unless a later request holds them.
  void release(const std::vector<Addr>& lines);
  void on_response(Payload& t);
  GpuPayload* make(const Req& r, uint16_t warp = 0);
  void read_bytes(Addr a, void* dst, size_t n) const;
  // One chunk whose data reads are in flight: finished later, while the
  // next chunk's reads go out.
  struct Chunk {
    uint64_t k;
    std::vector<ScuElement> elems;
    std::vector<Addr> lines; // vector and data lines it read (released after)
    uint16_t phase;
  };
  // The Filtering/Grouping unit is a pipeline stage of its own (the
  // thesis' SCU; its own coalescer, one L2 access a cycle): the address
  // generator hands it a chunk once the chunk's data reads are issued, and
  // it works on that chunk (data answered, output, filter or group, store)
  // while the generator goes on with the next one. It holds one chunk: the
  // generator hands it the next only once it is done (the data of two
  // chunks are held, as before). at: a process of its own (filter_loop);
  // lt: booked on the unit's own time (filter_free_), see filter_idle().
  void run_filter(std::function<void()> job);
  // Waits until the unit is done with its chunk (lt: books its job; the
  // generator's time moves to the job's end) and rethrows an error the job
  // threw (`rethrow`; without it, the job is abandoned: the generator threw).
  void filter_idle(bool rethrow = true);
  void filter_loop(); // at: runs filter_job_ (a process of its own)
  // The Filtering/Grouping unit (scu_filter_module.cpp) on one chunk's
  // output keys (and costs, BestCost): the hash sets it probes are read (one
  // L2 access per cycle), probed in element order, and the sets it changed
  // written back; a keep flag per key.
  std::vector<uint8_t> filter_chunk(const ScuCommand& c, const std::vector<uint32_t>& keys,
                                    const std::vector<uint32_t>& costs);
  // The chunk's output `bytes` (elements `e`) filtered: the kept elements,
  // or (generate) one u32 flag each. BestCost: the costs' lines are held.
  std::vector<uint8_t> filter_bytes(const ScuCommand& c, const ScuCore& core,
                                    const std::vector<ScuElement>& e,
                                    const std::vector<uint8_t>& bytes);
  // The hash set lines `sets` of table `h` this operation has not read yet
  // read in (one L2 access per cycle), into hash_lines_; the set bytes.
  void read_hash_sets(const ScuHash& h, const std::vector<uint32_t>& sets);
  uint8_t* hash_set(const ScuHash& h, uint32_t set);
  // The hash lines `lines` written back from hash_lines_.
  void write_hash_lines(const std::vector<Addr>& lines);
  // Grouping (scu_group_module.cpp): the chunk's output `bytes` (element
  // values, unfiltered positions from `pos`) into the grouping table; the
  // positions of the groups that leave it, as u32 bytes.
  std::vector<uint8_t> group_bytes(const ScuCommand& c, const std::vector<uint8_t>& bytes,
                                   uint64_t pos);
  // End of a grouping operation: the groups still in the table, set by set.
  std::vector<uint8_t> group_flush(const ScuCommand& c);
  // Apply a gather list: `e` (every chunk's elements) in the order of the
  // u32s at c.order (its lines read in), one element per copy.
  std::vector<ScuElement> apply_order(const ScuCore& core, const std::vector<ScuElement>& e,
                                      const DeviceMemory& mem);
  // BestCost: the reads of the cost lines of `e` (coalesced; not_before:
  // one lookup a cycle from the first), counted as data reads.
  std::vector<Req> cost_reads(const ScuCore& core, const std::vector<ScuElement>& e,
                              const DeviceMemory& mem);
  // BestCost: the costs of `e` (their cost lines read in; the ISCU).
  std::vector<uint32_t> fetch_costs(const ScuCore& core, const std::vector<ScuElement>& e,
                                    const DeviceMemory& mem);
  // Apply mode, streamed like the vectors: reads the flag lines of the
  // unfiltered output elements [apply_pos_, apply_pos_ + n) not requested
  // yet (into phase `ph`, no earlier than cycle `at`: their elements are
  // known then) and advances apply_pos_; the lines they lie in.
  std::vector<Addr> request_flags(const ScuCore& core, uint64_t n, uint16_t ph, Cycle at,
                                  const DeviceMemory& mem);
  // Releases the flag lines wholly before unfiltered position `pos` (all
  // of them: `pos` = UINT64_MAX).
  void release_flags(Addr apply, uint64_t pos);
  // The data store's write coalescing: a stream of bytes from `base` into
  // whole-line writes; the line being filled (`line`) waits for the next.
  struct Tail {
    Addr base, line;
    std::vector<uint8_t> data, be;
    uint64_t bytes = 0; // stored so far
  };
  // Appends `bytes` (elements of `elem_bytes`) to `t`: the lines it
  // completes (and, `last`, the one being filled) are written, posted, at
  // stage_cycles + their element / width from now.
  void pack(Tail& t, const std::vector<uint8_t>& bytes, uint32_t elem_bytes, bool last);
  // The ISCU (scu_iru_module.cpp). The address generator hands a filtered
  // operation's data elements (`words`, in output order; with `costs`,
  // BestCost and Sum: the secondary each) to the IRU partitions chunk by
  // chunk, as it generates them (a streamed configuration; the first call
  // configures it and hands the filter unit's stage the pulls), and empties
  // them. The partitions fetch their lines and their hash drops duplicates
  // (BestCost: keeps the cheapest copy; Sum: adds); the stage takes the
  // survivors from their windows and hands each reply's to `deliver` (ids,
  // costs) as it comes back: the data store writes them while the fetch
  // and the filtering go on.
  using Deliver =
      std::function<void(const std::vector<uint8_t>& ids, const std::vector<uint8_t>& costs)>;
  void hand_to_iru(const ScuCommand& c, std::vector<Addr>& words, std::vector<uint32_t>& costs,
                   const DeviceMemory& mem, const Deliver& deliver);
  void close_iru(); // the last element was handed (does nothing if none was)
  void end_iru();   // after the stage's pulls: checks and stats
  // The filter unit's job: pulls replies (`iru_requests` outstanding) until
  // one comes back all inactive.
  void pull_iru(const Deliver& deliver);
  // The reply lines taken so far (iru_out_, iru_cost_) to `deliver`.
  void deliver_replies(const Deliver& deliver);
  // One window reply: active lanes into iru_out_ (their secondary words,
  // window line 1 of the same reply, into iru_cost_ when `sec` is given).
  void take_reply(const uint8_t* line, const uint8_t* sec = nullptr);
  void take_pulled(Payload& t); // at: a window line came back (line 0 or 1)
  // at, with costs: pulls replies and their costs with `window` slots.
  void pull_with_costs(IruControl& iru, uint64_t window, const Deliver& deliver);
  static void check_range(const DeviceMemory& mem, const ScuCommand& c, const char* what, Addr a,
                          uint64_t bytes);

  SimContext& ctx_;
  ScuSpec spec_;
  Clock clk_;
  StatGroup stats_;
  // Lines read and not yet released; `users` counts the requests that
  // asked for the line (a boundary line can belong to two chunks).
  struct Fetched {
    std::vector<uint8_t> bytes;
    uint32_t users = 0;
    Cycle ready = 0; // when it was answered (lt: booked to be)
  };
  std::unordered_map<Addr, Fetched> lines_;
  std::unordered_map<Addr, std::vector<uint8_t>> hash_lines_; // hash lines, this operation
  std::unordered_map<Addr, uint8_t> victim_;                  // round-robin pointer per hash set
  std::set<uint32_t> group_sets_; // grouping: sets holding groups, flushed in set order
  sc_core::sc_event answered_;
  uint64_t outstanding_ = 0; // at, pulling the IRU's windows: loads unanswered
  std::array<Phase, 8> phases_;
  uint64_t writes_out_ = 0; // at: posted writes unanswered
  // at: the data store is a unit of its own: writes wait here for their
  // cycle and the port without holding up address generation and fetch.
  struct Store {
    Cycle at;
    Req req;
  };
  std::deque<Store> store_q_;
  sc_core::sc_event store_wake_;
  void store_loop();                 // at: sends store_q_ in order (a process of its own)
  std::function<void()> filter_job_; // the filter unit's chunk (at: until done)
  sc_core::sc_event filter_wake_, filter_done_;
  std::exception_ptr filter_error_;       // at: what its job threw, for the generator
  Cycle filter_free_ = 0, filter_at_ = 0; // lt: the unit done with its chunk; the job handed
  Cycle lt_now_ = 0, lt_writes_end_ = 0;
  std::array<uint64_t, Units> reads_out_{}; // at: reads in flight per unit
  std::array<Cycle, Units> last_start_{};   // lt: in-order issue per unit
  std::array<std::priority_queue<Cycle, std::vector<Cycle>, std::greater<>>, Units>
      lt_entries_;                          // lt: answer cycles of the reads in flight per unit
  Cycle write_start_ = 0;                   // the data store's last write: writes go out in order
  Cycle gen_ = 0;                           // the address generator's cycle (its last lookup)
  uint64_t apply_pos_ = 0;                  // apply: unfiltered output elements of earlier chunks
  Addr flag_next_ = 0;                      // apply: the first flag line not requested yet
  std::deque<Addr> flag_held_;              // apply: flag lines requested and not released
  bool iru_done_ = false;                   // a reply came back all inactive
  std::vector<uint8_t> iru_out_, iru_cost_; // what replies carried, not yet delivered
  // The ISCU's operation: the IRU once configured, elements handed and
  // survivors taken; when the first and last reply came, the last element
  // was handed, the first output line was written (for the overlap stats).
  struct IruStream {
    IruControl* iru = nullptr;
    bool closed = false;
    uint64_t handed = 0, taken = 0;
    Cycle first_reply = ~Cycle(0), last_reply = 0, closed_at = 0, first_write = ~Cycle(0);
  } stream_;
  // at, pulling with costs: each outstanding request is a slot (its
  // src_warp), so the IRU pairs its line-1 load with the slot's reply.
  enum class Slot : uint8_t { Free, Line0, NeedSec, Line1 };
  struct PullSlot {
    Slot state = Slot::Free;
    Addr window = 0;
    std::vector<uint8_t> ids; // the line-0 reply waiting for its costs
  };
  std::vector<PullSlot> slots_;
  bool want_sec_ = false;
  Counter &ops_, &cycles_, &elements_in_, &elements_out_, &data_elements_, &vector_reads_,
      &data_reads_, &writes_, &merged_groups_, &filtered_, &hash_reads_, &hash_writes_,
      &iru_elements_, &iru_replies_, &read_cycles_, &iru_fetch_overlap_, &iru_write_overlap_;
  Cycle occupancy_since_ = 0; // at: when reads_out_ last changed (read_cycles_)
  void count_in_flight();     // at: read_cycles_ up to now, before reads_out_ changes
};

// The block type `scu` (scu_blocks.cpp): one port `mem`, an initiator bound
// to a crossbar input.
BlockType scu_block_type();

} // namespace tlmgpu
