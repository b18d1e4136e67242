#include "workloads/graph_apps/graph_app.hpp"

#include "models/host/host_module.hpp"
#include "tlmgpu/params.hpp"
#include "workloads/graph/readers.hpp"

#include <cstdio>

namespace tlmgpu::graph_apps {

std::vector<WorkloadArg> graph_args(std::vector<WorkloadArg> extra) {
  std::vector<WorkloadArg> v = {
      {"input", "gen:rmat?scale=10&ef=8&seed=1",
       "graph file (Matrix Market, edge list: SNAP/KONECT/.edges/CSV, METIS .graph, DIMACS .gr, "
       "TNTP, GML; plain, gzip, xz, bzip2 or zstd) or gen: spec (workloads/graph/README.md)"},
      {"format", "auto",
       graph::graph_format_choices() +
           ": the input's format; auto = by extension, else by content"},
      {"block", "256", "threads per block (one thread per vertex)"},
      {"max_iters", "0",
       "cap on kernel rounds (0 = enough: vertices + 1; pagerank: its iterations); hitting it "
       "fails the check"},
      {"corrupt", "0", "test hook: 1 = change one device result before the check (must fail)"}};
  v.insert(v.end(), extra.begin(), extra.end());
  return v;
}

WorkloadArg source_arg() {
  return {"source", "auto",
          "source vertex: auto = the vertex with the most out-arcs, or a 0-based CSR index"};
}

WorkloadArg weights_arg() {
  return {"weights", "auto",
          std::string(graph::kWeightPolicyChoices) +
              ": file weights to integers; auto = integers exact, fractions fixed point x1000, "
              "negatives an error (workloads/graph/README.md)"};
}

WarpTask for_each_edge(Warp& w, DeviceCsr g, Lanes<uint32_t> v, Mask m, bool with_weight,
                       EdgeFn fn) {
  if (m.empty()) co_return;
  const Lanes<uint32_t> begin =
      co_await w.load<uint32_t>(address_of<uint32_t>(g.row_offsets, v), m);
  const Lanes<uint32_t> end =
      co_await w.load<uint32_t>(address_of<uint32_t>(g.row_offsets, v + Lanes<uint32_t>(1u)), m);
  co_await w.compute(2); // v + 1, loop setup
  for (Lanes<uint32_t> e = begin;; e += Lanes<uint32_t>(1u)) {
    const Mask em = m & (e < end);
    if (em.empty()) co_return;
    EdgeLanes el{v, {}, Lanes<uint32_t>(1u), e, end - begin};
    el.dst = co_await w.load<uint32_t>(address_of<uint32_t>(g.col_indices, e), em);
    if (with_weight && g.weights)
      el.weight = co_await w.load<uint32_t>(address_of<uint32_t>(g.weights, e), em);
    co_await w.compute(3); // e++, e < end, branch
    co_await fn(w, el, em);
  }
}

GraphApp::GraphApp(std::string name, const WorkloadArgs& a, bool undirected, bool weighted)
    : name_(std::move(name)) {
  block_ = uint32_t(a.u64("block", 1, 1024));
  max_iters_ = a.u64("max_iters", 0, uint64_t(1) << 40);
  corrupt_ = a.u64("corrupt", 0, 1) != 0;
  const std::string input = a.str("input");
  graph::GraphBuildOptions options = undirected ? graph::GraphBuildOptions::simple_undirected()
                                                : graph::GraphBuildOptions::as_stored();
  try {
    options.format = graph::parse_graph_format(a.str("format"));
  } catch (const graph::InputOptionError& e) {
    throw ConfigError("workload argument format: " + std::string(e.what()));
  }
  try {
    options.weights = weighted ? graph::WeightPolicy::parse(a.str("weights"))
                               : graph::WeightPolicy{graph::WeightMode::ignore};
  } catch (const graph::InputOptionError& e) {
    throw ConfigError("workload argument weights: " + std::string(e.what()));
  }
  try {
    graph_ = graph::load_graph(input, options);
  } catch (const std::exception& e) {
    throw ConfigError("workload argument input: " + std::string(e.what()));
  }
  if (graph_.num_vertices() == 0)
    throw ConfigError("workload argument input: '" + input + "' has no vertices");
}

void GraphApp::elaborate(SimContext& ctx, GpuModule& gpu) {
  host_ = std::make_unique<HostModule>("host", ctx, gpu);
  host_->program = [this, &ctx](HostModule& h) {
    DeviceCsr d;
    d.n = uint32_t(graph_.num_vertices());
    d.m = uint32_t(graph_.num_edges());
    d.row_offsets = h.upload(graph_.row_offsets, "row_offsets");
    // A graph without arcs still gets a (4-byte) array so that every address is valid.
    d.col_indices = graph_.col_indices.empty() ? h.malloc(4, "col_indices")
                                               : h.upload(graph_.col_indices, "col_indices");
    if (graph_.has_weights()) d.weights = h.upload(graph_.weights, "weights");
    run(ctx, h, d);
  };
  start_reference();
}

bool GraphApp::finished() const {
  return host_ && host_->finished();
}

std::string GraphApp::check(SimContext& ctx, GpuModule&, std::ostream& out) {
  if (corrupt_) corrupt();
  std::string error =
      converged_
          ? verify()
          : "did not converge within max_iters=" + std::to_string(iteration_cap()) + " rounds";
  const std::filesystem::path file = ctx.result_path(name_ + ".txt");
  result_shown_ = file;
  write_result(std::filesystem::path(ctx.out_dir) / (name_ + ".txt"));
  out << name_ << ": " << graph_.name << " (" << graph_.num_vertices() << " vertices, "
      << graph_.num_edges() << " arcs" << (graph_.directed ? ", directed" : ", undirected")
      << (graph_.has_weights() ? ", weighted" : "") << "), " << iterations_ << " rounds"
      << extra_summary() << (corrupt_ ? " (corrupt=1: one result changed on purpose)" : "")
      << ", result in " << file.string() << "\n";
  return error;
}

void GraphApp::launch_per_vertex(HostModule& h, const std::string& kernel,
                                 std::function<WarpTask(Warp&)> body) {
  launch_threads(h, kernel, graph_.num_vertices(), std::move(body));
}

void GraphApp::launch_threads(HostModule& h, const std::string& kernel, uint64_t threads,
                              std::function<WarpTask(Warp&)> body, uint32_t shared_bytes) {
  KernelLaunch k;
  k.shared_bytes = shared_bytes;
  k.name = kernel;
  k.grid = {uint32_t((threads + block_ - 1) / block_), 1, 1};
  k.block = {block_, 1, 1};
  k.body = std::move(body);
  h.launch(std::move(k));
}

Addr GraphApp::make_flag(HostModule& h) {
  return h.malloc(4, "flag");
}
void GraphApp::clear_flag(HostModule& h, Addr flag) {
  h.memset(flag, 0, 4);
}
bool GraphApp::read_flag(HostModule& h, Addr flag) {
  return h.download<uint32_t>(flag, 1)[0] != 0;
}

std::string GraphApp::vertex_label(uint32_t v) const {
  if (graph_.vertex_names.empty())
    return std::to_string(graph_.original_ids.empty() ? v : graph_.original_ids[v]);
  const std::string& name = graph_.vertex_names[v];
  // Quoted when it would not read back as one field of a "vertex value" line.
  if (!name.empty() && name.find_first_of(" \t\"\\") == std::string::npos) return name;
  std::string out = "\"";
  for (char c : name)
    out += (c == '"' || c == '\\') ? std::string{'\\', c} : std::string{c};
  return out + "\"";
}

uint32_t GraphApp::pick_source(const WorkloadArgs& a) {
  const uint32_t n = uint32_t(graph_.num_vertices());
  source_auto_ = a.str("source") == "auto";
  if (!source_auto_) return uint32_t(a.u64("source", 0, n - 1));
  uint32_t best = 0;
  for (uint32_t v = 1; v < n; ++v)
    if (graph_.degree(v) > graph_.degree(best)) best = v;
  return best;
}

std::string GraphApp::source_summary(uint32_t source) const {
  return ", source " + vertex_label(source) +
         (source_auto_ ? " (auto: most out-arcs, " + std::to_string(graph_.degree(source)) + ")"
                       : "");
}

void GraphApp::write_vertex_values(const std::filesystem::path& file, const std::string& meaning,
                                   const std::function<std::string(uint32_t)>& value) const {
  FileWriter out(file, result_shown_);
  std::ostream& f = out.stream();
  f << "# " << name_ << " on " << graph_.source << "\n";
  f << "# vertex " << meaning << "\n";
  f << "# vertex: "
    << (!graph_.vertex_names.empty()  ? "the file's vertex name"
        : graph_.original_ids.empty() ? "0-based CSR index"
                                      : "the file's vertex id")
    << "\n";
  for (uint32_t v = 0; v < graph_.num_vertices(); ++v)
    f << vertex_label(v) << " " << value(v) << "\n";
  out.close();
}

std::string GraphApp::fmt(float x) {
  char b[32];
  std::snprintf(b, sizeof b, "%.9g", double(x));
  return b;
}

} // namespace tlmgpu::graph_apps
