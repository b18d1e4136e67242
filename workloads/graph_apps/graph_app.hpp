// Shared base of the graph-analytics workloads (bfs, sssp, pagerank, cca, clr,
// mis, bc): common arguments, loading the input graph, uploading CSR to the
// device, launching one thread per vertex, the per-lane CSR edge loop, the
// result file and the first-mismatch check.
//
// A workload derives from GraphApp and implements
//   run()     the host program after the graph is on the device: launch
//             kernels until convergence, download the result;
//   verify()  compare the downloaded result with an independent CPU
//             reference; "" or the first mismatch;
//   corrupt() the `corrupt=1` test hook: change one downloaded value so that
//             verify() must fail (tests prove each checker can fail);
//   write_result() via write_vertex_values().
//
// Result file `<workload>.txt` in the output directory: '#' comment lines
// (workload, graph source, what the value means), then one line per vertex
// "vertex value". `vertex` is the file's name of the vertex when it has one
// (edge lists with named vertices, GML labels; quoted when it holds a space),
// else the file's id when the reader kept original ids (SNAP edge lists,
// whose ids are compacted), otherwise the 0-based CSR index (for 1-based
// formats such as .mtx and .graph: file id - 1). Unreachable vertices are
// written as "inf". See workloads/graph_apps/README.md.
#pragma once

#include "tlmgpu/simt/warp.hpp"
#include "workloads/graph/csr_graph.hpp"
#include "workloads/workload.hpp"

#include <filesystem>
#include <functional>
#include <future>
#include <memory>
#include <string>
#include <vector>

namespace tlmgpu {

class HostModule;

namespace graph_apps {

inline constexpr uint32_t kInf = 0xffffffffu; // unreachable depth / distance

// The CSR arrays in device memory. weights is 0 when the graph is unweighted;
// kernels then use weight 1 (for_each_edge does this).
struct DeviceCsr {
  Addr row_offsets = 0, col_indices = 0, weights = 0;
  uint32_t n = 0;
  uint32_t m = 0; // stored arcs
};

// The common arguments (input, format, block, max_iters, corrupt) followed by
// `extra`.
std::vector<WorkloadArg> graph_args(std::vector<WorkloadArg> extra = {});
// The `source` argument of single-source kernels (bfs, sssp); see
// GraphApp::pick_source.
WorkloadArg source_arg();
// The `weights` argument of kernels that read weights (sssp).
WorkloadArg weights_arg();

// The arc lane i is visiting: src -> dst with weight (1 when unweighted), at
// CSR position edge; degree is src's out-degree (push kernels divide by it).
struct EdgeLanes {
  Lanes<uint32_t> src, dst, weight, edge, degree;
};
using EdgeFn = std::function<WarpTask(Warp&, EdgeLanes, Mask)>;

// The per-lane CSR loop of thread-per-vertex graph kernels (Pannotia style):
// every lane in `m` walks the adjacency list of its vertex v, and the warp
// runs fn once per step with the lanes that still have an edge left. Lanes
// with shorter lists idle (SIMT divergence), as on the hardware.
// with_weight = false skips the weight load for kernels that ignore weights.
WarpTask for_each_edge(Warp& w, DeviceCsr g, Lanes<uint32_t> v, Mask m, bool with_weight,
                       EdgeFn fn);

// One thread per vertex: this lane's vertex and the lanes holding one (< n).
inline Lanes<uint32_t> my_vertex(const Warp& w) {
  return w.global_thread_id().as<uint32_t>();
}
// Threads [0, n) of the grid: one per vertex, or per frontier element.
inline Mask first_threads(const Warp& w, uint64_t n) {
  return w.active() & (w.global_thread_id() < Lanes<uint64_t>(n));
}
inline Mask vertex_mask(const Warp& w, uint32_t n) {
  return first_threads(w, n);
}

class GraphApp : public Workload {
public:
  // Loads the graph now (before any simulation), so a bad input is a
  // ConfigError naming the file and line. undirected = simple_undirected().
  // weighted: the kernel reads weights, maps them by the `weights` argument
  // (weights_arg()); otherwise file weights are checked to be numbers and
  // dropped (WeightMode::ignore), so that any sign loads.
  GraphApp(std::string name, const WorkloadArgs& a, bool undirected, bool weighted = false);

  void elaborate(SimContext& ctx, GpuModule& gpu) override;
  bool finished() const override;
  // Applies corrupt() when asked, calls verify(), writes the result file and
  // a one-line summary (graph, iterations, result path, extra_summary()).
  std::string check(SimContext& ctx, GpuModule& gpu, std::ostream& out) override;

protected:
  virtual void run(SimContext& ctx, HostModule& h, const DeviceCsr& g) = 0;
  virtual std::string verify() = 0;
  // A CPU reference that reads only the input (the graph and the arguments)
  // starts here, on its own thread (std::async), when the simulation is
  // built, so that it runs beside the simulation instead of after it (issue
  // 13); verify() waits for it. Checks that need the device's result (the
  // validity checks of clr and mis) do not override this.
  virtual void start_reference() {}
  virtual void corrupt() = 0;
  virtual void write_result(const std::filesystem::path& file) = 0;
  virtual std::string extra_summary() const { return ""; }

  // Launches `body` with one thread per vertex (grid = ceil(n / block)).
  void launch_per_vertex(HostModule& h, const std::string& kernel,
                         std::function<WarpTask(Warp&)> body);
  // Launches `body` with `threads` threads in blocks of `block` (frontiers)
  // and `shared_bytes` of shared memory per CTA.
  void launch_threads(HostModule& h, const std::string& kernel, uint64_t threads,
                      std::function<WarpTask(Warp&)> body, uint32_t shared_bytes = 0);
  // A device u32 flag: clear it before a launch, read it after synchronize
  // (kernel boundaries order the kernel's flag writes before the read).
  Addr make_flag(HostModule& h);
  void clear_flag(HostModule& h, Addr flag);
  bool read_flag(HostModule& h, Addr flag);

  // "vertex value" lines with the header described above; value(v) formats
  // vertex v's value.
  void write_vertex_values(const std::filesystem::path& file, const std::string& meaning,
                           const std::function<std::string(uint32_t)>& value) const;
  // How vertex v is written in result files and messages (see above).
  std::string vertex_label(uint32_t v) const;

  // The `source` argument: a 0-based CSR index, or "auto": the vertex with
  // the most out-arcs (the lowest index among equals). Vertex 0 may be
  // isolated or have no out-arcs (R-MAT with Graph500's permutation: it
  // reaches one vertex); the hub has edges whenever the graph does and, in
  // the graphs these kernels run on, sits in the giant component.
  uint32_t pick_source(const WorkloadArgs& a);
  // ", source <label> (auto: most out-arcs, d)" or ", source <label>".
  std::string source_summary(uint32_t source) const;

  // The first index where device and ref differ: "vertex <label>: device x,
  // CPU reference y", or "".
  template <class T>
  std::string first_mismatch(const std::vector<T>& device, const std::vector<T>& ref,
                             const std::string& what) const {
    if (device.size() != ref.size()) return what + ": device result has the wrong size";
    for (size_t v = 0; v < ref.size(); ++v)
      if (device[v] != ref[v])
        return what + " of vertex " + vertex_label(uint32_t(v)) + ": device " + fmt(device[v]) +
               ", CPU reference " + fmt(ref[v]);
    return "";
  }
  static std::string fmt(uint32_t x) { return x == kInf ? "inf" : std::to_string(x); }
  static std::string fmt(float x);

  const std::string name_;
  graph::CsrGraph graph_;
  uint32_t block_ = 256;
  uint64_t max_iters_ = 0; // 0 = n + 1 (enough for any level-synchronous kernel)
  bool source_auto_ = false;
  bool corrupt_ = false;
  uint64_t iterations_ = 0; // kernel rounds the driver ran (for the summary)
  bool converged_ = true;   // false when max_iters stopped the driver

  uint64_t iteration_cap() const { return max_iters_ ? max_iters_ : graph_.num_vertices() + 1; }

private:
  std::unique_ptr<HostModule> host_;
  // The result file as named in messages: write_result() writes into the
  // run's staging directory (SimContext::result_file).
  std::filesystem::path result_shown_;
};

} // namespace graph_apps
} // namespace tlmgpu
