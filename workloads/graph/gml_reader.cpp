// GML reader (Himsolt, "GML: A portable Graph File Format", 1997) for the
// exports of networkx (write_gml), igraph (write_graph(format="gml")) and
// Gephi, and Newman's data sets (lesmis.gml):
//
//   graph [ directed 0|1
//           node [ id <int> label "<name>" ... ]
//           edge [ source <id> target <id> weight|value <number> ... ] ]
//
// A file is a list of `key value` pairs, a value being an integer, a real, a
// "string" (which may span lines) or a [ list ]; '#' starts a comment that
// runs to the end of the line. Keys the reader does not use (Creator,
// Version, graphics, other attributes) are skipped whatever their value, so
// any well-formed export loads.
//
// Vertices are numbered in node order; their ids go to original_ids unless
// they are 0..n-1 in order, and their labels to vertex_names when every node
// has a distinct one (networkx identifies nodes by label). Without
// `directed 1` a graph is undirected (GML's default) and every edge is
// mirrored; self-loops are kept once.
#include "workloads/graph/readers.hpp"
#include "workloads/graph/text_input.hpp"
#include "workloads/graph/weight_reader.hpp"

#include <algorithm>
#include <cctype>
#include <unordered_map>
#include <unordered_set>

namespace tlmgpu::graph {

using namespace detail;

namespace {

// A string longer than this is a missing closing quote, not a label.
constexpr size_t kMaxString = size_t{1} << 20;
// Deepest nesting of lists inside an ignored key (GML allows any); real files
// nest 3 (graph, node, graphics).
constexpr int kMaxNesting = 256;

struct Token {
  enum Kind { end, key, number, string, open, close } kind = end;
  std::string text;
  uint64_t line = 0;
};

class Lexer {
public:
  explicit Lexer(LineReader& in) : in_(in) {}
  Token next();

private:
  Token string_token();

  LineReader& in_;
  std::string_view rest_; // the unread part of the current line
};

bool is_gml_space(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

Token Lexer::next() {
  for (;;) {
    while (!rest_.empty() && is_gml_space(rest_[0]))
      rest_.remove_prefix(1);
    if (rest_.empty()) {
      if (!in_.next(rest_)) return {Token::end, "", in_.line_number()};
      continue;
    }
    const uint64_t line = in_.line_number();
    const char c = rest_[0];
    const auto take_while = [&](auto pred) {
      size_t n = 0;
      while (n < rest_.size() && pred(rest_[n]))
        ++n;
      std::string text(rest_.substr(0, n));
      rest_.remove_prefix(n);
      return text;
    };
    if (c == '#') {
      rest_ = {};
    } else if (c == '[' || c == ']') {
      rest_.remove_prefix(1);
      return {c == '[' ? Token::open : Token::close, std::string(1, c), line};
    } else if (c == '"') {
      return string_token();
    } else if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      return {Token::key, take_while([](char x) {
                return std::isalnum(static_cast<unsigned char>(x)) || x == '_';
              }),
              line};
    } else if (std::isdigit(static_cast<unsigned char>(c)) || c == '-' || c == '+' || c == '.') {
      return {Token::number,
              take_while([](char x) { return !is_gml_space(x) && x != '[' && x != ']'; }), line};
    } else {
      in_.fail("unexpected character " + quote(rest_.substr(0, 1)));
    }
  }
}

Token Lexer::string_token() {
  Token t{Token::string, "", in_.line_number()};
  rest_.remove_prefix(1); // the opening quote
  for (;;) {
    const size_t close = rest_.find('"');
    t.text.append(rest_.substr(0, close));
    if (close != std::string_view::npos) {
      rest_.remove_prefix(close + 1);
      return t;
    }
    t.text += '\n';
    if (t.text.size() > kMaxString || !in_.next(rest_)) in_.fail_at(t.line, "unterminated string");
  }
}

struct GmlEdge {
  uint64_t source = 0, target = 0;
  Weight weight = 1;
  bool has_weight = false, weight_from_key = false; // weight_from_key: `weight`, not `value`
  uint64_t line = 0;
};

class Parser {
public:
  Parser(LineReader& in, const GraphBuildOptions& options)
      : in_(in), lex_(in), options_(options), weights_(options.weights) {}
  EdgeList parse();

private:
  void advance() { tok_ = lex_.next(); }
  [[noreturn]] void fail(const std::string& problem) const { in_.fail_at(tok_.line, problem); }
  // The current token must be a key; returns it and moves past it.
  Token key();
  // Moves past one value (a list with everything in it).
  void skip_value(const Token& k);
  // The current token as a non-negative integer (then moves past it).
  uint64_t count(const Token& k);
  void expect_open(const Token& k);
  // Calls fn(key) for every pair of the list just opened by `opener`, up to its ']'.
  template <class Fn>
  void for_each_pair(const Token& opener, Fn fn);
  void node(const Token& opener);
  void edge(const Token& opener);

  LineReader& in_;
  Lexer lex_;
  const GraphBuildOptions& options_;
  WeightReader weights_;
  Token tok_;
  bool directed_ = false, weighted_ = false;
  std::vector<uint64_t> ids_;
  std::vector<std::string> labels_;
  uint64_t labelled_ = 0;
  std::unordered_map<uint64_t, std::pair<VertexId, uint64_t>> index_; // id -> vertex, line
  std::vector<GmlEdge> edges_;
  int skip_depth_ = 0; // lists skip_value() is inside
};

Token Parser::key() {
  if (tok_.kind != Token::key) fail("expected a key, found " + quote(tok_.text));
  Token k = std::move(tok_);
  advance();
  return k;
}

void Parser::skip_value(const Token& k) {
  if (tok_.kind == Token::open) {
    // Recursive: a file nested 200,000 levels deep overflowed the stack.
    if (++skip_depth_ > kMaxNesting)
      fail("lists nested deeper than " + std::to_string(kMaxNesting) + " levels (the limit)");
    for_each_pair(k, [&](const Token& inner) { skip_value(inner); });
    --skip_depth_;
  } else if (tok_.kind == Token::number || tok_.kind == Token::string)
    advance();
  else
    fail("key " + quote(k.text) + " has no value");
}

uint64_t Parser::count(const Token& k) {
  if (tok_.kind != Token::number)
    fail(quote(k.text) + " must be an integer, found " + quote(tok_.text));
  const uint64_t v = parse_count(in_, tok_.text, k.text);
  advance();
  return v;
}

void Parser::expect_open(const Token& k) {
  if (tok_.kind != Token::open) fail("expected '[' after " + quote(k.text));
}

template <class Fn>
void Parser::for_each_pair(const Token& opener, Fn fn) {
  advance(); // past '['
  for (;;) {
    if (tok_.kind == Token::close) return advance();
    if (tok_.kind == Token::end)
      fail("'" + opener.text + " [' opened on line " + std::to_string(opener.line) +
           " is not closed");
    fn(key());
  }
}

void Parser::node(const Token& opener) {
  bool has_id = false;
  uint64_t id = 0;
  std::string label;
  bool has_label = false;
  for_each_pair(opener, [&](const Token& k) {
    if (k.text == "id") {
      id = count(k), has_id = true;
    } else if (k.text == "label" && tok_.kind == Token::string) {
      label = tok_.text, has_label = true;
      advance();
    } else {
      skip_value(k);
    }
  });
  if (!has_id) in_.fail_at(opener.line, "node without an id");
  const auto [it, added] = index_.try_emplace(id, static_cast<VertexId>(ids_.size()), opener.line);
  if (!added)
    in_.fail_at(opener.line, "node id " + std::to_string(id) + " already defined on line " +
                                 std::to_string(it->second.second));
  if (ids_.size() >= options_.max_vertices)
    in_.fail_at(opener.line, "more than " + limit_text(options_.max_vertices, options_) + " nodes");
  ids_.push_back(id);
  labels_.push_back(std::move(label));
  labelled_ += has_label;
}

void Parser::edge(const Token& opener) {
  GmlEdge e;
  e.line = opener.line;
  bool has_source = false, has_target = false;
  for_each_pair(opener, [&](const Token& k) {
    if (k.text == "source") {
      e.source = count(k), has_source = true;
    } else if (k.text == "target") {
      e.target = count(k), has_target = true;
    } else if ((k.text == "weight" || (k.text == "value" && !e.weight_from_key)) &&
               tok_.kind == Token::number) {
      // Read before advancing, so that an error names the value's line.
      e.weight = weights_.read(in_, tok_.text, edges_);
      e.has_weight = weighted_ = true;
      e.weight_from_key = k.text == "weight";
      advance();
    } else {
      skip_value(k);
    }
  });
  if (!has_source || !has_target) in_.fail_at(opener.line, "edge without a source and a target");
  if (edges_.size() >= options_.max_edges)
    in_.fail_at(opener.line, "more than " + limit_text(options_.max_edges, options_) + " edges");
  edges_.push_back(e);
}

EdgeList Parser::parse() {
  advance();
  bool found = false;
  while (tok_.kind != Token::end) {
    const Token k = key();
    if (k.text != "graph") {
      skip_value(k);
      continue;
    }
    if (found) in_.fail_at(k.line, "a second 'graph' (one graph per file)");
    found = true;
    expect_open(k);
    for_each_pair(k, [&](const Token& g) {
      if (g.text == "directed") {
        const uint64_t d = count(g);
        if (d > 1) in_.fail_at(g.line, "directed must be 0 or 1");
        directed_ = d == 1;
      } else if (g.text == "node" || g.text == "edge") {
        expect_open(g);
        g.text == "node" ? node(g) : edge(g);
      } else {
        skip_value(g);
      }
    });
  }
  if (!found) in_.fail_at(std::max<uint64_t>(tok_.line, 1), "no 'graph [ ... ]' in file");

  EdgeList list;
  describe(list, in_, "GML");
  list.num_vertices = ids_.size();
  list.undirected = !directed_;
  list.weighted = weighted_ && weights_.keeps();
  const Weight one = weights_.read(in_, "1", edges_); // for edges without a weight
  list.edges.reserve(edges_.size() * (directed_ ? 1 : 2));
  auto vertex = [&](uint64_t id, const GmlEdge& e, const char* end) {
    const auto it = index_.find(id);
    if (it == index_.end())
      in_.fail_at(e.line, std::string("edge ") + end + " " + std::to_string(id) +
                              " is not the id of a node");
    return it->second.first;
  };
  for (const GmlEdge& e : edges_) {
    const Edge arc{vertex(e.source, e, "source"), vertex(e.target, e, "target"),
                   e.has_weight ? e.weight : one};
    list.edges.push_back(arc);
    if (!directed_ && arc.src != arc.dst) list.edges.push_back({arc.dst, arc.src, arc.weight});
  }
  bool identity = true;
  for (size_t v = 0; v < ids_.size(); ++v)
    identity = identity && ids_[v] == v;
  if (!identity) list.original_ids = std::move(ids_);
  if (labelled_ == labels_.size() && !labels_.empty() &&
      std::unordered_set<std::string>(labels_.begin(), labels_.end()).size() == labels_.size())
    list.vertex_names = std::move(labels_);
  weights_.finish(list);
  return list;
}

} // namespace

CsrGraph read_gml(const std::string& path, const GraphBuildOptions& options) {
  check_limits(options);
  LineReader in(path);
  Parser parser(in, options);
  return build_csr(parser.parse(), options);
}

} // namespace tlmgpu::graph
