// sRSPOpt in the scoped L1 (l1.rsp = srsp_opt; seed-002 §2.6, paper §4.9;
// models/l1/README.md "sRSPOpt"): sRSP plus two shortcuts that rely on the
// paper's single-owner assumption (one owner per synchronisation variable).
//
//   same-CU shortcut   remote access to L, this L1's own LR-TBL marks L
//                      ─► the owner released L here, on this SM, and shares
//                         this L1: the access runs as the cta-scope one
//                         (an acquire keeps its PA-TBL check), no message;
//                         the fence halves the SM sends around it name L
//                         and become cta-scope too (no own drain/invalidate)
//   owner predictor    SelFlush(L) ─► predictor[L] = O? unicast to O
//                         positive ack ─► done (a hit)
//                         negative ack ─► the rest of the L1s (a misfire)
//                      no entry ─► broadcast; the positive acker becomes
//                      predictor[L] (LRU, l1.predictor_entries; cleared at
//                      kernel boundaries); with none the entry stays.
//                      SelInv stays a broadcast.
//
// Each step decides when it reaches this L1 (the release fence, the atomic,
// the acquire fence): the marker could leave in between (an sFIFO
// overflow), and then the later steps take sRSP's path, which orders more.
#include "models/l1/l1_module.hpp"

#include <algorithm>

namespace tlmgpu {

void L1Module::srsp_opt_stats(Rsp& r) {
  r.shortcuts = &stats_.counter("srsp_shortcuts", "instructions",
                                "remote atomics run as cta-scope ones: this L1's LR-TBL marked "
                                "their line (the same-CU shortcut, no message)");
  r.shortcut_fences = &stats_.counter("srsp_shortcut_fences", "fences",
                                      "fence halves of remote atomics run at cta scope by the "
                                      "same-CU shortcut (no drain, no invalidation here)");
  r.predictor_hits = &stats_.counter("srsp_predictor_hits", "messages",
                                     "SelFlush unicasts to the predicted owner that it acked "
                                     "positively");
  r.predictor_misfires = &stats_.counter("srsp_predictor_misfires", "messages",
                                         "SelFlush unicasts acked negatively, followed by a "
                                         "SelFlush to every other L1");
}

void L1Module::srsp_shortcut(GpuAccess& a, Addr line) {
  Rsp& r = *rsp_;
  // Decided once: a head that already asked for the line's lock keeps it.
  if (!r.opt || !a.remote || r.asked || !(r.blind_shortcut || core_.srsp_marks(line))) return;
  a.remote = false;
  a.scope = Scope::Cta;
  ++*(a.kind == AccessKind::Fence ? r.shortcut_fences : r.shortcuts);
}

RspFabric::Result L1Module::srsp_selflush(RspMessage m, Cycle at) {
  Rsp& r = *rsp_;
  m.kind = RspMessage::Kind::SelFlush;
  m.at = at;
  const Addr line = m.sync_line;
  auto p = std::find_if(r.predictor.begin(), r.predictor.end(),
                        [line](const auto& e) { return e.first == line; });
  RspFabric::Result res;
  if (r.opt && p != r.predictor.end()) {
    const uint16_t owner = p->second;
    res = r.fabric->unicast(m, owner);
    if (res.positives != 0) {
      ++*r.predictor_hits;
    } else { // the ack comes back negative before the broadcast leaves
      ++*r.predictor_misfires;
      m.at = res.acked;
      const uint32_t sent = res.messages;
      res = r.fabric->broadcast(m, owner);
      res.messages += sent;
    }
  } else {
    res = r.fabric->broadcast(m);
  }
  *r.flush_msgs += res.messages;
  // The L1 that acked positively is the owner now (the most recent at the
  // back). With no positive ack the guess stays: under the single-owner
  // assumption only the owner leaves markers for L, it just has none now.
  if (!r.opt || !res.positive_from) return res;
  if (p != r.predictor.end())
    r.predictor.erase(p);
  else if (r.predictor.size() >= spec_.predictor_entries)
    r.predictor.erase(r.predictor.begin());
  r.predictor.emplace_back(line, *res.positive_from);
  return res;
}

} // namespace tlmgpu
