#include "models/scoped/sync_op.hpp"

namespace tlmgpu::scoped {

std::string SyncOp::name() const {
  static const char* kinds[] = {"ld", "st", "cas", "add", "exch"};
  static const char* orders[] = {"rlx", "acq", "rel", "ar"};
  std::string s = std::string("atomic_") + kinds[int(kind)] + "_";
  if (remote) s += "rem_";
  s += orders[int(order)];
  s += scope == Scope::Wg ? "_wg" : "_cmp";
  return s;
}

const char* msg_name(Msg m) {
  static const char* n[] = {"read_req",     "read_resp",       "write_back",      "wb_ack",
                            "atomic_req",   "atomic_resp",     "rem_lock_req",    "rem_lock_ack",
                            "rem_unlock",   "sel_flush_req",   "sel_flush_ack",   "sel_inv_req",
                            "sel_inv_ack",  "bcast_flush_req", "bcast_flush_ack", "bcast_inv_req",
                            "bcast_inv_ack"};
  static_assert(sizeof(n) / sizeof(n[0]) == size_t(Msg::kCount));
  return n[int(m)];
}

} // namespace tlmgpu::scoped
