// The SystemC-free core of `conv-bwd-filter`: the DAB paper's ResNet layers
// (Table III), the CTA -> filter-region mapping of cuDNN's non-deterministic
// backward-filter algorithm (seed-001 §3.6, §10.6), the input generator and
// the CPU reference with its check. The kernel (conv_bwd_filter.cpp) and the
// unit tests share these, so the mapping the tests prove is the one that runs.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace tlmgpu::conv {

// dW[k][c][r][s] = sum over (n, p, q) of dY[n][k][p][q] * X[n][c][p*stride+r-pad][q*stride+s-pad]
// (NCHW, KCRS; terms that fall in the zero padding are absent).
struct Shape {
  uint64_t n = 1, c = 1, h = 1, w = 1, k = 1, r = 1, s = 1, stride = 1, pad = 0;

  uint64_t p() const { return (h + 2 * pad - r) / stride + 1; }
  uint64_t q() const { return (w + 2 * pad - s) / stride + 1; }
  uint64_t elements() const { return k * c * r * s; }  // dW words
  uint64_t positions() const { return n * p() * q(); } // the reduction length
  uint64_t x_size() const { return n * c * h * w; }
  uint64_t dy_size() const { return n * k * p() * q(); }
  // Throws ConfigError (naming `who`) for a filter larger than the padded
  // input or a tensor beyond 2^30 words.
  void validate(const std::string& who) const;
};

// How the kernel is cut (seed-001 §3.6): dW is split into `regions` (n)
// equal regions of consecutive elements and m * n CTAs are launched; CTA c
// adds into region c mod n, over reduction slice c / n of the m slices. So
// the m CTAs congruent mod n write the same addresses in the same pattern.
struct Mapping {
  uint64_t regions = 1, m = 1, block = 256;

  uint64_t ctas() const { return regions * m; }
  uint64_t region_of(uint64_t cta) const { return cta % regions; }
  uint64_t slice_of(uint64_t cta) const { return cta / regions; }
  // Elements per region (the last may be shorter) and per thread.
  uint64_t region_size(const Shape& s) const { return (s.elements() + regions - 1) / regions; }
  uint64_t per_thread(const Shape& s) const { return (region_size(s) + block - 1) / block; }
  // Slice j is positions [begin, end): sizes differ by at most one, and
  // slices are empty when m exceeds the reduction length (a scaled-down layer
  // keeps the paper's m and n, so its CTAs and reds stay the layer's).
  uint64_t slice_begin(const Shape& s, uint64_t j) const { return j * s.positions() / m; }
  uint64_t slice_end(const Shape& s, uint64_t j) const { return slice_begin(s, j + 1); }
  uint64_t max_slice(const Shape& s) const { return (s.positions() + m - 1) / m; }
};

// A Table III layer: its shape at batch 16, and the paper's n or m where it
// gives them (0 = not given: see default_mapping).
struct Layer {
  const char* name;
  Shape shape;
  uint64_t regions, m;
};
const std::vector<Layer>& resnet_layers();
const Layer* find_layer(const std::string& name); // null if unknown
std::string layer_names();                        // "cnv2_1, cnv2_2, ..."

// n and m for a layer (null: explicit dims) where the paper is silent; see
// README.md, "CTAs and regions".
Mapping default_mapping(const Layer* layer, const Shape& s, uint64_t block);

// Inputs. f32: +-(1 + f) * 2^e, f with 23 random bits, e uniform in
// [-spread, spread], random sign: exact floats over many magnitudes, built
// without <random>'s distributions so every library gives the same values.
// u32: all 32 bits random (products and sums wrap mod 2^32).
std::vector<float> make_f32(std::mt19937_64& rng, uint64_t count, uint32_t spread);
std::vector<uint32_t> make_u32(std::mt19937_64& rng, uint64_t count);

// Calls f(dy_index, x_index) for every term of dW element e, in (n, p, q)
// order, over positions [begin, end).
template <class F>
void for_each_term(const Shape& s, uint64_t e, uint64_t begin, uint64_t end, F&& f) {
  const uint64_t fs = e % s.s, fr = (e / s.s) % s.r, fc = (e / (s.s * s.r)) % s.c;
  const uint64_t fk = e / (s.s * s.r * s.c), pq = s.p() * s.q();
  for (uint64_t i = begin; i < end; ++i) {
    const uint64_t n = i / pq, p = (i / s.q()) % s.p(), q = i % s.q();
    const int64_t hi = int64_t(p * s.stride + fr) - int64_t(s.pad);
    const int64_t wi = int64_t(q * s.stride + fs) - int64_t(s.pad);
    if (hi < 0 || hi >= int64_t(s.h) || wi < 0 || wi >= int64_t(s.w)) continue;
    f(((n * s.k + fk) * s.p() + p) * s.q() + q,
      ((n * s.c + fc) * s.h + uint64_t(hi)) * s.w + uint64_t(wi));
  }
}

struct CheckResult {
  std::string error;    // "" = passed, else the first mismatch
  double max_abs = 0;   // f32: max |device - reference|
  double max_ratio = 0; // f32: max error / tolerance
  uint64_t mismatches = 0;
};

// f32: against a double reference, per element within
// (max_slice + m + 2) * 2^-24 * sum |dy * x| (README.md, "Check").
CheckResult check_f32(const Shape& s, const Mapping& map, const std::vector<float>& x,
                      const std::vector<float>& dy, const std::vector<float>& result);
// u32: exact, against the same sums mod 2^32.
CheckResult check_u32(const Shape& s, const std::vector<uint32_t>& x,
                      const std::vector<uint32_t>& dy, const std::vector<uint32_t>& result);

} // namespace tlmgpu::conv
