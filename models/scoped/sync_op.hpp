// Memory operations of the scoped instruction set (seed-002 §2.2):
// atomic_<kind>_<order>_<scope>, with the remote forms at cmp scope.
#pragma once

#include <cstdint>
#include <string>

namespace tlmgpu::scoped {

using Addr = uint64_t;

enum class Kind { Ld, St, Cas, Add, Exch };
enum class Order { Relaxed, Acq, Rel, AcqRel };
enum class Scope { Wg, Cmp };

struct SyncOp {
  Kind kind = Kind::Ld;
  Order order = Order::Relaxed;
  Scope scope = Scope::Cmp;
  bool remote = false;
  Addr addr = 0;
  uint32_t a = 0, b = 0; // St/Add/Exch: a; Cas: expected a, desired b

  bool acquires() const { return order == Order::Acq || order == Order::AcqRel; }
  bool releases() const { return order == Order::Rel || order == Order::AcqRel; }
  bool writes_always() const { return kind == Kind::St || kind == Kind::Add || kind == Kind::Exch; }
  // Performs the operation on `word`; returns the old value.
  uint32_t apply(uint32_t& word) const {
    uint32_t old = word;
    switch (kind) {
    case Kind::Ld:
      break;
    case Kind::St:
      word = a;
      break;
    case Kind::Cas:
      if (old == a) word = b;
      break;
    case Kind::Add:
      word = old + a;
      break;
    case Kind::Exch:
      word = a;
      break;
    }
    return old;
  }
  std::string name() const;
};

// Messages between the caches (seed-002 §2.9), counted by type.
enum class Msg {
  ReadReq,
  ReadResp,
  WriteBack,
  WbAck,
  AtomicReq,
  AtomicResp,
  RemLockReq,
  RemLockAck,
  RemUnlock,
  SelFlushReq,
  SelFlushAck,
  SelInvReq,
  SelInvAck,
  BcastFlushReq,
  BcastFlushAck,
  BcastInvReq,
  BcastInvAck,
  kCount
};
const char* msg_name(Msg m);

} // namespace tlmgpu::scoped
