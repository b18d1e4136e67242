// Derived geometry of the caches and the platform-wide constraints that no
// single block can check on its own; the block registry of `tlmgpu describe`,
// its table, and the typo suggestions every "unknown ..." error uses.
#include "tlmgpu/platform.hpp"

#include "models/sm/sram_split.hpp"
#include "tlmgpu/config.hpp"
#include "tlmgpu/device_memory.hpp"
#include "tlmgpu/memory_budget.hpp"
#include "tlmgpu/types.hpp"

#include <algorithm>
#include <cctype>
#include <functional>
#include <sstream>
#include <utility>

namespace tlmgpu {
namespace {

std::string str(uint64_t v) {
  return std::to_string(v);
}
bool pow2(uint64_t v) {
  return v != 0 && (v & (v - 1)) == 0;
}

// Line/sector geometry shared by L1 and L2; `p` is the block's key prefix.
uint32_t check_line(const std::string& p, uint32_t line, uint32_t sector) {
  if (!pow2(line)) throw ConfigError(p + ".line_bytes (" + str(line) + ") must be a power of two");
  if (line > kMaxLineBytes)
    throw ConfigError(p + ".line_bytes (" + str(line) + ") exceeds the supported maximum of " +
                      str(kMaxLineBytes));
  if (!pow2(sector))
    throw ConfigError(p + ".sector_bytes (" + str(sector) + ") must be a power of two");
  if (sector > line)
    throw ConfigError(p + ".sector_bytes (" + str(sector) + ") must divide " + p + ".line_bytes (" +
                      str(line) + ")");
  const uint32_t sectors = line / sector;
  if (sectors > 32)
    throw ConfigError(p + ".line_bytes / " + p + ".sector_bytes = " + str(line) + " / " +
                      str(sector) + " = " + str(sectors) +
                      " sectors per line; at most 32 are supported");
  return sectors;
}

// sets = bytes / (ways * line), which must be a positive whole number.
uint32_t check_sets(const std::string& p, const char* bytes_key, uint64_t bytes, uint64_t ways,
                    uint64_t line) {
  const uint64_t set_bytes = ways * line;
  const std::string what = p + "." + bytes_key + " (" + str(bytes) + ")";
  const std::string arith = p + ".ways * " + p + ".line_bytes = " + str(ways) + " * " + str(line) +
                            " = " + str(set_bytes);
  if (bytes < set_bytes) throw ConfigError(what + " is smaller than one set: " + arith);
  if (bytes % set_bytes != 0)
    throw ConfigError(what + " must be a multiple of " + arith + " (a whole number of sets; " +
                      str(bytes) + " / " + str(set_bytes) + " leaves " + str(bytes % set_bytes) +
                      ")");
  return static_cast<uint32_t>(bytes / set_bytes);
}

struct Block {
  const char* name;
  std::function<std::vector<ParamRow>()> rows;
};

// The groups PlatformSpec::visit declares, in its order: parameters are
// declared once, and `describe`/`list` follow the platform's own list.
struct GroupLister {
  std::vector<Block> out;
  template <class T, class D>
  void param(T&, const char*, D, Range, const char*, const char*) {}
  void text(std::string&, const char*, const char*, const char*) {}
  void choice(std::string&, const char*, const char*, std::initializer_list<const char*>,
              const char*) {}
  template <class S>
  void group(const char* name, S&) {
    out.push_back({name, [name] { return describe_rows<S>(name); }});
  }
};

const std::vector<Block>& blocks() {
  static const std::vector<Block> list = [] {
    PlatformSpec p{};
    GroupLister g;
    p.visit(g);
    return g.out;
  }();
  return list;
}

} // namespace

void L2Spec::derive() {
  sectors_per_line = check_line("l2", line_bytes, sector_bytes);
  sets = check_sets("l2", "slice_bytes", slice_bytes, ways, line_bytes);
}

void L1Spec::derive() {
  sectors_per_line = check_line("l1", line_bytes, sector_bytes);
  sets = bytes == 0 ? 0 : check_sets("l1", "bytes", bytes, ways, line_bytes); // 0: L1 disabled
  // Empty in an L1Spec built by hand (unit tests): off, as "none".
  if (!rsp.empty() && rsp != "none" && atomic_mode != "scoped")
    throw ConfigError("l1.rsp = " + rsp +
                      " needs l1.atomic_mode = scoped: remote scope promotion flushes sFIFOs "
                      "and invalidates scoped L1s");
}

void PlatformSpec::derive() {
  sim.derive();
  sm.derive();
  l1.derive();
  shared_mem.derive();
  xbar.derive();
  l2.derive();
  dram.derive();
  address_map.derive();
  lab.derive();
  dab.derive();
  jitter.derive();
  iru.derive();
  if (dab.enabled() && sm.cta_placement != "deterministic")
    throw ConfigError("dab.level = " + dab.level +
                      " needs sm.cta_placement = deterministic: the warps sharing a buffer, and "
                      "so the order of its reds, must not depend on timing");
  if (dab.grouped() && sm.cta_groups == 0)
    throw ConfigError("dab.keying = group needs sm.cta_groups: the number of CTA groups its "
                      "buffers belong to, the same on every GPU (e.g. 144 for 72 and 80 SMs)");
  // GPUDet owns every global store and atomic (notes §4): another buffer of
  // reds would take them first, and a write-back L1 would keep a commit's
  // bytes from the other SMs.
  if (gpudet.enable && (dab.enabled() || lab.enabled() || l1.atomic_mode != "bypass"))
    throw ConfigError("gpudet.enable and dab.level, a LAB or l1.atomic_mode are alternatives "
                      "for atomics: enable one");
  if (gpudet.enable && l1.write_policy != "write_through")
    throw ConfigError("gpudet.enable needs l1.write_policy = write_through: a commit's writes "
                      "must reach L2 before the next quantum opens");
  if (dab.enabled() && sm.warp_size != kDabLanes)
    throw ConfigError("dab.level = " + dab.level + " needs sm.warp_size = " + str(kDabLanes) +
                      ", not " + str(sm.warp_size) +
                      ": DAB's all-or-nothing insertion and its flush packets are the paper's "
                      "32-lane design, with no 64-wide counterpart");
  if (dab.enabled() && (lab.enabled() || l1.atomic_mode != "bypass"))
    throw ConfigError("dab.level = " + dab.level +
                      " and a LAB or l1.atomic_mode are alternatives for reds: enable one");

  if (l1.carveout == "fixed") {
    const uint64_t sram = uint64_t(l1.bytes) + shared_mem.bytes;
    if (sram > sm.unified_sram_bytes)
      throw ConfigError("l1.bytes + shared_mem.bytes = " + str(l1.bytes) + " + " +
                        str(shared_mem.bytes) + " = " + str(sram) +
                        " exceeds sm.unified_sram_bytes (" + str(sm.unified_sram_bytes) + ")");
  }
  // The LAB takes its lines from the L1 at each launch (models/sm/sram_split);
  // refuse now a LAB that cannot fit even beside a kernel with no shared memory.
  sram_split(l1, lab_sram_claim(lab), 0, sm.unified_sram_bytes);
  if (l1.atomic_mode != "bypass" && lab.enabled())
    throw ConfigError("l1.atomic_mode = " + l1.atomic_mode +
                      " and a LAB (lab.entries / lab.infinite) are alternatives: enable one");
  if (l1.atomic_mode != "bypass" && l1.bytes == 0)
    throw ConfigError("l1.atomic_mode = " + l1.atomic_mode + " needs an L1 (l1.bytes > 0)");
  // The LAB's partial lines go down as the L1's lines would (one request per
  // line, a sector mask in the caches' sectors): a LAB line of another size
  // would send misaligned lines (found on apu64's 64 B lines).
  if (lab.enabled() && (lab.line_bytes != l1.line_bytes || lab.sector_bytes != l1.sector_bytes))
    throw ConfigError("lab.line_bytes / lab.sector_bytes (" + str(lab.line_bytes) + " / " +
                      str(lab.sector_bytes) + ") must equal l1.line_bytes / l1.sector_bytes (" +
                      str(l1.line_bytes) + " / " + str(l1.sector_bytes) +
                      ") when a LAB is enabled");
  if (l1.line_bytes != l2.line_bytes)
    throw ConfigError("l1.line_bytes (" + str(l1.line_bytes) + ") must equal l2.line_bytes (" +
                      str(l2.line_bytes) + ")");
  if (l1.sector_bytes != l2.sector_bytes)
    throw ConfigError("l1.sector_bytes (" + str(l1.sector_bytes) +
                      ") must equal l2.sector_bytes (" + str(l2.sector_bytes) + ")");
  if (!pow2(address_map.interleave_bytes))
    throw ConfigError("address_map.interleave_bytes (" + str(address_map.interleave_bytes) +
                      ") must be a power of two");
  if (address_map.device_windows > 0) {
    const AddressMapSpec& m = address_map;
    if (!pow2(m.device_window_bytes) || m.device_window_bytes < l2.line_bytes)
      throw ConfigError("address_map.device_window_bytes (" + str(m.device_window_bytes) +
                        ") must be a power of two and at least l2.line_bytes (" +
                        str(l2.line_bytes) + ")");
    if (m.device_base % m.device_window_bytes != 0)
      throw ConfigError("address_map.device_base (" + str(m.device_base) +
                        ") must be a multiple of address_map.device_window_bytes (" +
                        str(m.device_window_bytes) + ")");
    const uint64_t end =
        uint64_t(m.device_base) + uint64_t(m.device_windows) * m.device_window_bytes;
    if (end > DeviceMemory::kBase)
      throw ConfigError("address_map device windows end at " + str(end) +
                        ", inside device memory (which starts at " + str(DeviceMemory::kBase) +
                        "): lower address_map.device_base or the window count/size");
  }
  if (address_map.interleave_bytes < l2.line_bytes)
    throw ConfigError("address_map.interleave_bytes (" + str(address_map.interleave_bytes) +
                      ") must be at least l2.line_bytes (" + str(l2.line_bytes) + ")");
}

std::vector<std::string> block_names() {
  std::vector<std::string> names;
  for (const Block& b : blocks())
    names.emplace_back(b.name);
  return names;
}

std::vector<ParamRow> describe_block(const std::string& name) {
  for (const Block& b : blocks())
    if (name == b.name) return b.rows();
  std::string list;
  for (const std::string& n : block_names())
    list += (list.empty() ? "" : ", ") + n;
  const std::string m = closest_match(name, block_names());
  throw ConfigError("unknown block '" + name + "'" +
                    (m.empty() ? "" : " (did you mean '" + m + "'?)") + "; blocks: " + list);
}

std::string render_describe(const std::vector<ParamRow>& rows) {
  const std::vector<std::string> head = {"KEY", "TYPE", "DEFAULT", "UNIT", "RANGE", "DESCRIPTION"};
  std::vector<std::size_t> width(5);
  for (std::size_t c = 0; c < 5; ++c)
    width[c] = head[c].size();
  for (const ParamRow& r : rows) {
    const std::string cells[5] = {r.path, r.type, r.def, r.unit, r.range};
    for (std::size_t c = 0; c < 5; ++c)
      width[c] = std::max(width[c], cells[c].size());
  }
  std::size_t desc_col = 0;
  for (std::size_t w : width)
    desc_col += w + 2;
  // Wrap descriptions at 120 columns unless that leaves them too narrow.
  const std::size_t desc_width = desc_col + 36 <= 120 ? 120 - desc_col : std::string::npos;

  std::ostringstream os;
  auto line = [&](const std::string(&cells)[5], const std::string& desc) {
    std::string s;
    for (std::size_t c = 0; c < 5; ++c)
      s += cells[c] + std::string(width[c] + 2 - cells[c].size(), ' ');
    std::istringstream words(desc);
    std::string word, cur;
    bool first = true;
    auto flush = [&] {
      os << (first ? s : std::string(desc_col, ' ')) << cur << '\n';
      first = false;
      cur.clear();
    };
    while (words >> word) {
      if (!cur.empty() && cur.size() + 1 + word.size() > desc_width) flush();
      cur += (cur.empty() ? "" : " ") + word;
    }
    if (!cur.empty() || first) {
      if (cur.empty()) s.erase(s.find_last_not_of(' ') + 1);
      flush();
    }
  };
  const std::string head5[5] = {head[0], head[1], head[2], head[3], head[4]};
  line(head5, head[5]);
  for (const ParamRow& r : rows) {
    const std::string cells[5] = {r.path, r.type, r.def, r.unit, r.range};
    line(cells, r.description);
  }
  return os.str();
}

// Optimal-string-alignment distance: a swap of neighbours ("rnu") is one edit.
std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i)
    d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j)
    d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i)
    for (std::size_t j = 1; j <= b.size(); ++j) {
      d[i][j] = std::min(
          {d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.size()][b.size()];
}

std::string closest_match(std::string_view key, const std::vector<std::string>& candidates) {
  auto lower = [](std::string_view s) {
    std::string out(s);
    for (char& c : out)
      c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
  };
  const std::string k = lower(key);
  // About one edit per three characters is a typo; more is a different word.
  std::size_t best = std::max<std::size_t>(1, k.size() / 3) + 1;
  std::string match;
  for (const std::string& c : candidates) {
    const std::size_t d = edit_distance(k, lower(c));
    if (d < best) best = d, match = c;
  }
  if (!match.empty()) return match;
  for (const std::string& c : candidates) {
    const std::string lc = lower(c);
    const std::size_t shorter = std::min(lc.size(), k.size());
    if (shorter >= 4 && lc.compare(0, shorter, k, 0, shorter) == 0) return c;
  }
  return "";
}

// Calibrated on titanv in lt, peak RSS of histogram n=4096 (docs/config.md,
// "Resource budgets"): sm.count 80 -> 640 added 624 KiB per SM (SRAM
// 128 KiB, 64 warp slots), l2.sub_partitions 1 -> 8 at sm.count 8 added
// 382 KiB per slice (96 KiB), and the rest of an 8-SM run is ~14 MiB. An
// SM costs its SRAM twice over (L1 data and valid masks, shared memory),
// its warp slots and a fixed part (its SystemC thread's stack, ports,
// stats); an L2 slice its data three times over (data, valid masks, tags)
// and a fixed part.
uint64_t estimate_platform_memory(const PlatformSpec& p) {
  constexpr uint64_t kSmFixed = 256 << 10, kPerWarp = 2 << 10, kSliceFixed = 96 << 10;
  constexpr uint64_t kBase = 16 << 20; // the process, the crossbar, DRAM's bookkeeping
  const uint64_t per_sm =
      2 * uint64_t(p.sm.unified_sram_bytes) + p.sm.max_warps * kPerWarp + kSmFixed;
  const uint64_t per_slice = 3 * uint64_t(p.l2.slice_bytes) + kSliceFixed;
  return sat_add(kBase, sat_add(sat_mul(p.sm.count, per_sm), sat_mul(p.l2_slices(), per_slice)));
}

void check_platform_memory(const PlatformSpec& p, const std::string& origin) {
  check_memory(estimate_platform_memory(p), "platform " + (origin.empty() ? p.name : origin) +
                                                " (sm.count=" + str(p.sm.count) + ", " +
                                                str(p.l2_slices()) + " L2 slices of " +
                                                format_bytes(p.l2.slice_bytes) + ")");
}

} // namespace tlmgpu
