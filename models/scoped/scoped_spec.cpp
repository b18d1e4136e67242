#include "models/scoped/scoped_spec.hpp"

namespace tlmgpu::scoped {

Protocol parse_protocol(const std::string& name) {
  const auto& n = protocol_names();
  for (size_t i = 0; i < n.size(); ++i)
    if (n[i] == name) return Protocol(i);
  throw ConfigError("scoped.protocol: unknown protocol '" + name +
                    "' (one of: cmp, norsp, brsp, srsp, srsp_opt)");
}

const char* protocol_name(Protocol p) {
  return protocol_names()[size_t(p)].c_str();
}

void ScopedSpec::derive() {
  if (line_bytes & (line_bytes - 1))
    throw ConfigError("scoped.line_bytes: " + std::to_string(line_bytes) +
                      " is not a power of two");
  if (l1_lines < 2)
    throw ConfigError("scoped.l1_lines: need at least 2 lines (a fill must not evict the line "
                      "an operation is waiting for)");
  parse_protocol(protocol);
}

const std::vector<std::string>& Mutations::names() {
  static const std::vector<std::string> n{"no_selflush", "no_drain_to_marker", "drop_dirty",
                                          "late_lock",   "no_pa_insert",       "no_selinv_acks",
                                          "early_ack",   "slot_pointers",      "brsp_open_release"};
  return n;
}

void Mutations::set(const std::string& name) {
  bool* f[] = {&no_selflush, &no_drain_to_marker, &drop_dirty,
               &late_lock,   &no_pa_insert,       &no_selinv_acks,
               &early_ack,   &slot_pointers,      &brsp_open_release};
  const auto& n = names();
  for (size_t i = 0; i < n.size(); ++i)
    if (n[i] == name) {
      *f[i] = true;
      return;
    }
  std::string all;
  for (const auto& s : n)
    all += (all.empty() ? "" : ", ") + s;
  throw ConfigError("--mutate: unknown mutation '" + name + "' (one of: " + all + ")");
}

bool Mutations::any() const {
  return no_selflush || no_drain_to_marker || drop_dirty || late_lock || no_pa_insert ||
         no_selinv_acks || early_ack || slot_pointers || brsp_open_release;
}

} // namespace tlmgpu::scoped
