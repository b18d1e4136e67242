// `logreg`: one-vs-rest logistic regression on the real digits images, trained
// for an epoch of minibatch gradient descent on the device. Per minibatch one
// kernel computes each sample's prediction and scatter-adds its gradient
// terms with device-scope commutative float atomicAdd; a second tiny kernel
// applies the step and clears the gradient, so the weights never leave the
// device between minibatches (as in a training framework).
#include "models/host/host_module.hpp"
#include "tlmgpu/params.hpp"
#include "workloads/ml/digits.hpp"
#include "workloads/ml_apps/ml_apps.hpp"

#include <cmath>
#include <cstdio>
#include <filesystem>

namespace tlmgpu {

namespace {

struct LogregArgs {
  Addr x = 0;    // float[d][rows], feature-major so a warp's samples load coalesced
  Addr y = 0;    // float[rows], 1 for the target digit, else 0
  Addr w = 0;    // float[d], the weights (feature d-1 is the bias input 1)
  Addr grad = 0; // float[d], zero at each minibatch start
  uint64_t rows = 0, first = 0, count = 0; // the minibatch is rows [first, first + count)
  uint32_t d = 0;
  float lr = 0.4f;
};

// One thread per sample: z = w.x, r = sigmoid(z) - y, then grad[j] += r * x_j
// for every feature. Every lane of a warp adds to the same grad[j], so each
// red instruction is 32 same-word atomics (the hot-spot pattern of a naive
// gradient scatter).
WarpTask logreg_grad_kernel(Warp& w, LogregArgs a) {
  const Lanes<uint64_t> t = w.global_thread_id();
  const Mask m = w.active() & (t < Lanes<uint64_t>(a.count));
  if (m.empty()) co_return;
  const Lanes<uint64_t> i = t + Lanes<uint64_t>(a.first);
  std::vector<Lanes<float>> x(a.d); // the sample stays in registers for the scatter
  Lanes<float> z(0.0f);
  for (uint32_t j = 0; j < a.d; ++j) {
    x[j] = co_await w.load<float>(address_of<float>(a.x + uint64_t(j) * a.rows * 4, i), m);
    const Lanes<float> wj = co_await w.load<float>(Lanes<Addr>(a.w + 4ull * j), m); // broadcast
    co_await w.compute(2);                                                          // FMA, loop
    z += x[j] * wj;
  }
  const Lanes<float> y = co_await w.load<float>(address_of<float>(a.y, i), m);
  co_await w.compute(8); // sigmoid: negate, ex2 (with its scaling), add, reciprocal, subtract
  const Lanes<float> r = z.map([](float v) { return 1.0f / (1.0f + std::exp(-v)); }) - y;
  for (uint32_t j = 0; j < a.d; ++j) {
    co_await w.compute(2); // multiply, loop
    co_await w.red<float>(AtomicOp::Add, Lanes<Addr>(a.grad + 4ull * j), r * x[j], m,
                          MemOrder::Commutative, Scope::Device);
  }
}

// One thread per weight: w[j] -= lr * grad[j] / count; grad[j] = 0.
WarpTask logreg_update_kernel(Warp& w, LogregArgs a) {
  const Lanes<uint64_t> j = w.global_thread_id();
  const Mask m = w.active() & (j < Lanes<uint64_t>(a.d));
  if (m.empty()) co_return;
  const Lanes<float> g = co_await w.load<float>(address_of<float>(a.grad, j), m);
  const Lanes<float> wv = co_await w.load<float>(address_of<float>(a.w, j), m);
  co_await w.compute(3);
  co_await w.store<float>(address_of<float>(a.w, j),
                          wv - Lanes<float>(a.lr) * g / Lanes<float>(float(a.count)), m);
  co_await w.store<float>(address_of<float>(a.grad, j), Lanes<float>(0.0f), m);
}

double parse_positive(const WorkloadArgs& v, const std::string& name) {
  const std::string s = v.str(name);
  size_t used = 0;
  double d = 0;
  try {
    d = std::stod(s, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != s.size() || !(d > 0) || !std::isfinite(d))
    throw ConfigError("workload logreg argument " + name + ": expected a positive number, got '" +
                      s + "'");
  return d;
}

class LogregWorkload : public Workload {
public:
  explicit LogregWorkload(const WorkloadArgs& v) {
    input_ = v.str("input");
    if (input_.rfind("digits:", 0) != 0)
      throw ConfigError(
          "workload logreg argument input: expected 'digits:<path to digits.csv.gz>', got '" +
          input_ + "'");
    target_ = uint32_t(v.u64("target", 0, 9));
    batch_ = v.u64("batch", 1, 1u << 20);
    epochs_ = v.u64("epochs", 1, 1000);
    rows_limit_ = v.u64("rows", 0, 1u << 24);
    block_ = uint32_t(v.u64("block", 1, 1024));
    lr_ = float(parse_positive(v, "lr"));
    tol_ = parse_positive(v, "tol");
    corrupt_ = v.u64("corrupt", 0, 1) != 0;
  }

  void elaborate(SimContext& ctx, GpuModule& gpu) override {
    // Read before simulating: a bad file is an error, not a half run, and
    // an input error like a bad config (exit code 2), as for histogram.
    ml::DigitsData data;
    try {
      data = ml::read_digits(input_.substr(7));
    } catch (const std::exception& e) {
      throw ConfigError(std::string("workload argument input: ") + e.what());
    }
    rows_ = rows_limit_ ? std::min<uint64_t>(rows_limit_, data.rows) : data.rows;
    x_.assign(uint64_t(kD) * rows_, 0.0f);
    y_.resize(rows_);
    for (uint64_t i = 0; i < rows_; ++i) {
      // Pixels / 16 lie in [0, 1] and are exact in float; the last feature is the bias.
      for (size_t j = 0; j < ml::kDigitsPixels; ++j)
        x_[j * rows_ + i] = float(data.row(i)[j]) / 16.0f;
      x_[(kD - 1) * rows_ + i] = 1.0f;
      y_[i] = data.labels[i] == target_ ? 1.0f : 0.0f;
    }
    host_ = std::make_unique<HostModule>("host", ctx, gpu);
    host_->program = [this](HostModule& h) { program(h); };
    (void)ctx;
  }
  bool finished() const override { return host_ && host_->finished(); }
  std::string check(SimContext& ctx, GpuModule&, std::ostream& out) override;

private:
  static constexpr uint32_t kD = ml::kDigitsPixels + 1;

  void program(HostModule& h) {
    LogregArgs a;
    a.rows = rows_;
    a.d = kD;
    a.lr = lr_;
    a.x = h.upload(x_, "x");
    a.y = h.upload(y_, "y");
    a.w = h.malloc(kD * 4, "w");
    a.grad = h.malloc(kD * 4, "grad");
    h.memset(a.w, 0, kD * 4); // training starts from w = 0
    h.memset(a.grad, 0, kD * 4);
    for (uint64_t e = 0; e < epochs_; ++e)
      for (a.first = 0; a.first < rows_; a.first += batch_) {
        a.count = std::min(batch_, rows_ - a.first); // the last minibatch may be short
        KernelLaunch g;
        g.name = "logreg_grad";
        g.grid = {uint32_t((a.count + block_ - 1) / block_), 1, 1};
        g.block = {block_, 1, 1};
        g.body = [a](Warp& w) { return logreg_grad_kernel(w, a); };
        h.launch(std::move(g));
        KernelLaunch u;
        u.name = "logreg_update";
        u.grid = {1, 1, 1};
        u.block = {kD, 1, 1};
        u.body = [a](Warp& w) { return logreg_update_kernel(w, a); };
        h.launch(std::move(u)); // same stream: runs after the gradient kernel
        ++steps_;
      }
    h.synchronize();
    result_ = h.download<float>(a.w, kD);
  }

  std::string input_;
  uint32_t target_ = 0, block_ = 128;
  uint64_t batch_ = 64, epochs_ = 1, rows_limit_ = 0, rows_ = 0, steps_ = 0;
  float lr_ = 0.4f;
  double tol_ = 2e-3;
  bool corrupt_ = false;
  std::vector<float> x_, y_, result_;
  std::unique_ptr<HostModule> host_;
};

std::string LogregWorkload::check(SimContext& ctx, GpuModule&, std::ostream& out) {
  if (corrupt_) result_[kD - 1] = ml_apps::flip_exponent_bit(result_[kD - 1]); // the bias
  // The same algorithm in double: same minibatches, same order of updates.
  std::vector<double> w(kD, 0.0), grad(kD);
  for (uint64_t e = 0; e < epochs_; ++e)
    for (uint64_t first = 0; first < rows_; first += batch_) {
      const uint64_t count = std::min(batch_, rows_ - first);
      std::fill(grad.begin(), grad.end(), 0.0);
      for (uint64_t i = first; i < first + count; ++i) {
        double z = 0;
        for (uint32_t j = 0; j < kD; ++j)
          z += w[j] * x_[j * rows_ + i];
        const double r = 1.0 / (1.0 + std::exp(-z)) - y_[i];
        for (uint32_t j = 0; j < kD; ++j)
          grad[j] += r * x_[j * rows_ + i];
      }
      for (uint32_t j = 0; j < kD; ++j)
        w[j] -= double(lr_) * grad[j] / double(count);
    }
  std::string error;
  double max_err = 0;
  for (uint32_t j = 0; j < kD; ++j) {
    const double err = std::fabs(double(result_[j]) - w[j]);
    const double tol = tol_ * std::max(1.0, std::fabs(w[j]));
    max_err = std::max(max_err, err);
    if (!(err <= tol) && error.empty()) {
      char buf[200];
      std::snprintf(buf, sizeof buf,
                    "w[%u]: device %.9g, CPU reference %.12g, error %.3g > tolerance %.3g", j,
                    double(result_[j]), w[j], err, tol);
      error = buf;
    }
  }
  // Training accuracy of the device weights: a sanity figure, not part of the check.
  uint64_t correct = 0;
  for (uint64_t i = 0; i < rows_; ++i) {
    double z = 0;
    for (uint32_t j = 0; j < kD; ++j)
      z += double(result_[j]) * x_[j * rows_ + i];
    correct += (z > 0) == (y_[i] > 0.5f);
  }
  const auto path = ctx.result_path("logreg.txt");
  FileWriter file = ctx.result_file("logreg.txt");
  std::ostream& f = file.stream();
  f << "# logreg weights: digit " << target_ << " vs rest, " << rows_ << " rows, batch " << batch_
    << ", lr " << lr_ << ", " << epochs_
    << " epoch(s); features j=0..63 are pixel/16 (row-major 8x8), j=64 is the bias\n"
    << "# j weight\n";
  char line[64];
  for (uint32_t j = 0; j < kD; ++j) {
    std::snprintf(line, sizeof line, "%u %.9g\n", j, double(result_[j]));
    f << line;
  }
  file.close();
  out << "logreg: digit " << target_ << " vs rest on " << rows_ << " digits, " << steps_
      << " minibatches of " << batch_ << ", lr " << lr_ << (corrupt_ ? " (corrupt=1)" : "")
      << "; max |w - w_ref| " << max_err << " (tolerance " << tol_
      << " x max(1,|w_ref|)), training accuracy " << double(correct) / double(rows_)
      << "; weights in " << path.string() << "\n";
  return error;
}

} // namespace

WorkloadEntry logreg_workload() {
  WorkloadInfo info{
      "logreg",
      "logistic-regression minibatch gradient on the digits data: scatter-add with commutative "
      "float atomicAdd",
      {{"input", "digits:" + std::string(TLMGPU_SOURCE_DIR) + "/../shared/data/digits.csv.gz",
        "'digits:<path to digits.csv.gz>'"},
       {"target", "0", "the digit trained one-vs-rest (label 1 for it, 0 for the others)"},
       {"batch", "64", "samples per minibatch (one gradient kernel and one update kernel each)"},
       {"lr", "0.4", "learning rate (README.md: the tolerance argument assumes lr <= 0.47)"},
       {"epochs", "1", "passes over the data"},
       {"rows", "0", "use the first rows samples only (0 = all 1797)"},
       {"block", "128", "threads per block of the gradient kernel"},
       {"tol", "2e-3", "check: |w - w_ref| <= tol * max(1, |w_ref|) per weight"},
       {"corrupt", "0", "test hook: 1 = flip one device result before the check (must fail)"}}};
  return {info, [](const WorkloadArgs& a) { return std::make_unique<LogregWorkload>(a); }};
}

} // namespace tlmgpu
