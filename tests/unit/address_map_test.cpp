// Address interleaving: coverage, balance, stride spreading, determinism,
// injectivity inside a channel, and configuration errors.
#include "tlmgpu/address_map.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <set>
#include <tuple>
#include <vector>

using namespace tlmgpu;

namespace {

AddressMapSpec spec(uint32_t interleave, const char* hash) {
  AddressMapSpec s;
  s.interleave_bytes = interleave;
  s.hash = hash;
  return s;
}

struct Geometry {
  uint32_t channels, subs, banks, row_bytes;
};
// A power-of-two GPU and an awkward one that exercises the division paths.
const Geometry kPow2{8, 2, 16, 2048};
const Geometry kOdd{6, 3, 12, 1536};

AddressMap make(const Geometry& g, const char* hash, uint32_t interleave = 256) {
  return AddressMap(spec(interleave, hash), g.channels, g.subs, g.banks, g.row_bytes);
}

} // namespace

TEST_CASE("hash none: hand-computed locations", "[address_map]") {
  AddressMap m(spec(256, "none"), 8, 2, 2, 512);
  auto l = m.locate(3 * 256 + 5);
  CHECK(l.channel == 3);
  CHECK(l.slice == 3 * 2 + 0);
  CHECK(l.local == 5);
  // chunk 43 = group 5 * 8 channels + channel 3; group 5 is odd -> sub 1.
  l = m.locate((8 * 5 + 3) * 256 + 17);
  CHECK(l.channel == 3);
  CHECK(l.slice == 7);
  CHECK(l.local == 5 * 256 + 17);
  CHECK(l.column == (5 * 256 + 17) % 512);
  CHECK(l.bank == 0); // local / 512 = 2 -> bank 2 % 2 = 0, row 1
  CHECK(l.row == 1);
  CHECK(m.slices() == 16);
  CHECK(m.channels() == 8);
}

TEST_CASE("every channel, slice and bank is reached", "[address_map]") {
  for (const Geometry& g : {kPow2, kOdd})
    for (const char* hash : {"none", "xor"}) {
      INFO(hash << " channels=" << g.channels);
      AddressMap m = make(g, hash);
      std::set<uint32_t> channels, slices;
      std::vector<std::set<uint32_t>> banks(g.channels);
      bool in_range = true; // one CHECK, not millions of assertions
      for (Addr a = 0; a < (Addr{16} << 20); a += 128) {
        const auto l = m.locate(a);
        in_range = in_range && l.channel < g.channels && l.slice / g.subs == l.channel &&
                   l.bank < g.banks && l.column < g.row_bytes;
        if (!in_range) break;
        channels.insert(l.channel);
        slices.insert(l.slice);
        banks[l.channel].insert(l.bank);
      }
      REQUIRE(in_range);
      CHECK(channels.size() == g.channels);
      CHECK(slices.size() == g.channels * g.subs);
      for (const auto& b : banks)
        CHECK(b.size() == g.banks);
    }
}

TEST_CASE("sequential lines spread evenly over slices", "[address_map]") {
  for (const Geometry& g : {kPow2, kOdd})
    for (const char* hash : {"none", "xor"}) {
      INFO(hash << " channels=" << g.channels);
      AddressMap m = make(g, hash);
      const uint32_t slices = g.channels * g.subs;
      std::vector<uint64_t> count(slices, 0);
      const uint64_t lines = uint64_t{slices} * 1000 * 2; // 1000 chunks per slice
      for (uint64_t i = 0; i < lines; ++i)
        ++count[m.locate(i * 128).slice];
      const double mean = double(lines) / slices;
      for (uint64_t c : count)
        CHECK(std::abs(double(c) - mean) / mean < 0.03);
    }
}

TEST_CASE("consecutive chunks of one channel alternate sub-partitions", "[address_map]") {
  AddressMap m = make(kPow2, "none");
  uint32_t last = ~0u;
  for (uint64_t chunk = 0; chunk < 64; ++chunk) {
    const auto l = m.locate(chunk * 256);
    if (l.channel != 5) continue;
    CHECK(l.slice != last);
    last = l.slice;
  }
}

TEST_CASE("xor hash spreads power-of-two strides, none does not", "[address_map]") {
  for (const Geometry& g : {kPow2, kOdd}) {
    INFO("channels=" << g.channels);
    // Stride of exactly one round of channels: hash none always lands on channel 0.
    const Addr stride = Addr{g.channels} * 256;
    std::set<uint32_t> with_xor, without;
    AddressMap x = make(g, "xor"), n = make(g, "none");
    for (Addr k = 0; k < 256; ++k) {
      with_xor.insert(x.locate(k * stride).channel);
      without.insert(n.locate(k * stride).channel);
    }
    CHECK(without.size() == 1);
    CHECK(with_xor.size() == g.channels);
  }
  // A 64 KiB stride (power of two, much larger than a round) on the pow2 GPU.
  std::set<uint32_t> x_slices, n_slices;
  AddressMap x = make(kPow2, "xor"), n = make(kPow2, "none");
  for (Addr k = 0; k < 512; ++k) {
    x_slices.insert(x.locate(k << 16).slice);
    n_slices.insert(n.locate(k << 16).slice);
  }
  CHECK(n_slices.size() <= 2);
  CHECK(x_slices.size() >= kPow2.channels * kPow2.subs / 2);
}

TEST_CASE("locate is deterministic", "[address_map]") {
  AddressMap a = make(kOdd, "xor"), b = make(kOdd, "xor");
  for (Addr addr = 0; addr < (Addr{1} << 40); addr = addr * 3 + 977) {
    const auto p = a.locate(addr), q = b.locate(addr), r = a.locate(addr);
    CHECK(std::tie(p.channel, p.slice, p.bank, p.row, p.column, p.local) ==
          std::tie(q.channel, q.slice, q.bank, q.row, q.column, q.local));
    CHECK(std::tie(p.channel, p.slice, p.bank, p.row, p.column, p.local) ==
          std::tie(r.channel, r.slice, r.bank, r.row, r.column, r.local));
  }
}

TEST_CASE("distinct addresses in one channel get distinct bank, row and column", "[address_map]") {
  for (const Geometry& g : {kPow2, kOdd})
    for (const char* hash : {"none", "xor"})
      for (uint32_t interleave : {256u, 4096u}) {
        INFO(hash << " channels=" << g.channels << " interleave=" << interleave);
        AddressMap m = make(g, hash, interleave);
        std::map<uint32_t, std::set<std::tuple<uint32_t, uint64_t, uint32_t>>> seen;
        std::set<std::pair<uint32_t, Addr>> locals;
        uint64_t n = 0;
        bool reassembles = true;
        // Every 8th byte of 1 MiB: all chunk offsets and many groups.
        for (Addr a = 0; a < (Addr{1} << 20); a += 8, ++n) {
          const auto l = m.locate(a);
          seen[l.channel].insert({l.bank, l.row, l.column});
          locals.insert({l.channel, l.local});
          // The split inside a channel must reassemble to the local address.
          reassembles =
              reassembles && (l.row * g.banks + l.bank) * g.row_bytes + l.column == l.local;
        }
        CHECK(reassembles);
        uint64_t distinct = 0;
        for (const auto& [ch, s] : seen)
          distinct += s.size();
        CHECK(distinct == n);
        CHECK(locals.size() == n);
        // Dense: each channel's locals are exactly 0..max without holes.
        for (uint32_t ch = 0; ch < g.channels; ++ch) {
          auto lo = locals.lower_bound({ch, 0}), hi = locals.lower_bound({ch + 1, 0});
          const auto count = static_cast<uint64_t>(std::distance(lo, hi));
          REQUIRE(count > 0);
          CHECK(std::prev(hi)->second == (count - 1) * 8);
        }
      }
}

TEST_CASE("invalid geometry is a ConfigError naming the key", "[address_map]") {
  auto message = [](auto&& build) {
    try {
      build();
    } catch (const ConfigError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  using Catch::Matchers::Contains;
  CHECK_THAT(message([] { AddressMap(spec(300, "xor"), 8, 2, 16, 2048); }),
             Contains("address_map.interleave_bytes"));
  CHECK_THAT(message([] { AddressMap(spec(0, "xor"), 8, 2, 16, 2048); }),
             Contains("address_map.interleave_bytes"));
  CHECK_THAT(message([] { AddressMap(spec(256, "mod"), 8, 2, 16, 2048); }),
             Contains("address_map.hash"));
  CHECK_THAT(message([] { AddressMap(spec(256, "xor"), 0, 2, 16, 2048); }),
             Contains("dram.channels"));
  CHECK_THAT(message([] { AddressMap(spec(256, "xor"), 8, 0, 16, 2048); }),
             Contains("l2.sub_partitions"));
  CHECK_THAT(message([] { AddressMap(spec(256, "xor"), 8, 2, 0, 2048); }), Contains("dram.banks"));
  CHECK_THAT(message([] { AddressMap(spec(256, "xor"), 8, 2, 16, 0); }),
             Contains("dram.row_bytes"));
  CHECK(message([] { AddressMap(spec(256, "xor"), 1, 1, 1, 64); }) == "no error");
}
