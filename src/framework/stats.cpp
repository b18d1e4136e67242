#include "tlmgpu/stats.hpp"
#include "tlmgpu/json_text.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace tlmgpu {

nlohmann::json Counter::value_json(StatView v) const {
  return value(v);
}

double Average::mean(StatView v) const {
  double s = v == StatView::Epoch ? cur_sum_ : tot_sum_ + cur_sum_;
  return ratio(s, static_cast<double>(count(v)));
}
nlohmann::json Average::value_json(StatView v) const {
  return mean(v);
}
void Average::close_epoch() {
  tot_sum_ += cur_sum_;
  tot_n_ += cur_n_;
  cur_sum_ = 0;
  cur_n_ = 0;
}

Histogram::Histogram(std::string name, std::string unit, std::string desc, uint64_t bucket_width,
                     unsigned buckets)
    : Stat(std::move(name), std::move(unit), std::move(desc)),
      width_(bucket_width == 0 ? 1 : bucket_width), cur_(buckets == 0 ? 1 : buckets, 0),
      tot_(cur_.size(), 0) {}

void Histogram::sample(uint64_t x, uint64_t times) {
  uint64_t b = std::min<uint64_t>(x / width_, cur_.size() - 1);
  cur_[b] += times;
  cur_max_ = std::max(cur_max_, x);
}
uint64_t Histogram::bucket(unsigned i, StatView v) const {
  return v == StatView::Epoch ? cur_.at(i) : cur_.at(i) + tot_.at(i);
}
nlohmann::json Histogram::value_json(StatView v) const {
  nlohmann::json::array_t b;
  b.reserve(cur_.size());
  for (unsigned i = 0; i < cur_.size(); ++i)
    b.emplace_back(bucket(i, v));
  // Keys in their sorted order, each added at the end (see StatGroup::dump).
  nlohmann::json::object_t o;
  o.emplace_hint(o.end(), "bucket_width", width_);
  o.emplace_hint(o.end(), "buckets", std::move(b));
  o.emplace_hint(o.end(), "max", v == StatView::Epoch ? cur_max_ : std::max(cur_max_, tot_max_));
  return o;
}
void Histogram::close_epoch() {
  for (size_t i = 0; i < cur_.size(); ++i)
    tot_[i] += cur_[i], cur_[i] = 0;
  tot_max_ = std::max(tot_max_, cur_max_);
  cur_max_ = 0;
}

nlohmann::json Formula::value_json(StatView v) const {
  return value(v);
}

StatGroup::StatGroup(StatGroup& parent, std::string name)
    : name_(std::move(name)), parent_(&parent) {
  parent.children_.push_back(this);
  ++shape_;
}
StatGroup::~StatGroup() {
  ++shape_;
  if (parent_) parent_->detach(this);
  for (StatGroup* c : children_)
    c->parent_ = nullptr;
}
void StatGroup::detach(StatGroup* child) {
  children_.erase(std::remove(children_.begin(), children_.end(), child), children_.end());
}

std::string StatGroup::path() const {
  if (!parent_ || parent_->path().empty()) return name_;
  return parent_->path() + "." + name_;
}

template <class T, class... A>
T& StatGroup::add(A&&... a) {
  auto p = std::make_unique<T>(std::forward<A>(a)...);
  T& ref = *p;
  stats_.push_back(std::move(p));
  ++shape_;
  return ref;
}

Counter& StatGroup::counter(const std::string& n, const std::string& u, const std::string& d) {
  for (auto& s : stats_)
    if (s->name() == n)
      if (auto* c = dynamic_cast<Counter*>(s.get())) return *c;
  return add<Counter>(n, u, d);
}
Average& StatGroup::average(const std::string& n, const std::string& u, const std::string& d) {
  return add<Average>(n, u, d);
}
Histogram& StatGroup::histogram(const std::string& n, const std::string& u, const std::string& d,
                                uint64_t w, unsigned b) {
  return add<Histogram>(n, u, d, w, b);
}
Formula& StatGroup::formula(const std::string& n, const std::string& u, const std::string& d,
                            Formula::Fn fn) {
  return add<Formula>(n, u, d, std::move(fn));
}

const Stat* StatGroup::find(const std::string& dotted) const {
  auto dot = dotted.find('.');
  if (dot == std::string::npos) {
    for (auto& s : stats_)
      if (s->name() == dotted) return s.get();
  }
  std::string head = dotted.substr(0, dot);
  for (StatGroup* c : children_)
    if (c->name_ == head)
      return dot == std::string::npos ? nullptr : c->find(dotted.substr(dot + 1));
  return nullptr;
}

std::vector<Counter*> StatGroup::counters() const {
  std::vector<Counter*> out;
  for (auto& s : stats_)
    if (auto* c = dynamic_cast<Counter*>(s.get())) out.push_back(c);
  return out;
}

void StatGroup::dump(nlohmann::json& out, StatView v, bool full) const {
  for (auto& s : stats_) {
    nlohmann::json& slot = out[s->name()];
    if (!full) {
      slot = s->value_json(v);
      continue;
    }
    // Built in place, not from an initializer list: nlohmann makes each
    // {"key", value} pair of a list a two-element array (an allocation)
    // before it moves the pair into the object, about 1,300 instructions
    // a list and five lists a stat (issue 13). The keys go in in their
    // sorted order, so each insert is at the map's end.
    slot = nlohmann::json(nlohmann::json::value_t::object); // object() takes a list too
    auto& o = slot.get_ref<nlohmann::json::object_t&>();
    o.emplace_hint(o.end(), "desc", s->desc());
    o.emplace_hint(o.end(), "type", s->type());
    o.emplace_hint(o.end(), "unit", s->unit());
    o.emplace_hint(o.end(), "value", s->value_json(v));
  }
  for (StatGroup* c : children_)
    c->dump(out[c->name_], v, full);
}

std::vector<StatGroup::Member> StatGroup::members_by_name() const {
  std::vector<Member> members;
  members.reserve(stats_.size() + children_.size());
  for (auto& s : stats_)
    members.push_back({&s->name(), s.get(), nullptr});
  for (StatGroup* c : children_)
    members.push_back({&c->name_, nullptr, c});
  std::sort(members.begin(), members.end(),
            [](const Member& a, const Member& b) { return *a.name < *b.name; });
  return members;
}

bool StatGroup::names_repeat(const std::vector<Member>& sorted) {
  return std::adjacent_find(sorted.begin(), sorted.end(), [](const Member& a, const Member& b) {
           return *a.name == *b.name;
         }) != sorted.end();
}

void StatGroup::append_json(std::string& out, StatView v, bool full, int indent,
                            unsigned depth) const {
  const std::vector<Member> members = members_by_name();
  // Where a name repeats, dump() overwrites a stat, merges groups or adds a
  // group's members to a stat's object: that group is written from its tree.
  if (names_repeat(members)) {
    nlohmann::json tree;
    dump(tree, v, full);
    tlmgpu::append_json(out, tree, indent, depth);
    return;
  }
  if (members.empty()) { // dump() leaves the json as it was: null
    out += "null";
    return;
  }
  JsonNest o(out, '{', indent, depth);
  for (const Member& m : members) {
    o.key(*m.name);
    if (m.group) {
      m.group->append_json(out, v, full, indent, o.inner());
    } else if (!full) {
      tlmgpu::append_json(out, m.stat->value_json(v), indent, o.inner());
    } else { // as dump() builds it, keys in order
      JsonNest f(out, '{', indent, o.inner());
      f.key("desc");
      append_json_string(out, m.stat->desc());
      f.key("type");
      append_json_string(out, m.stat->type());
      f.key("unit");
      append_json_string(out, m.stat->unit());
      f.key("value");
      tlmgpu::append_json(out, m.stat->value_json(v), indent, f.inner());
      f.close();
    }
  }
  o.close();
}

bool StatGroup::collect_slots(nlohmann::json& node,
                              std::vector<std::pair<const Stat*, nlohmann::json*>>& slots) const {
  if (names_repeat(members_by_name())) return false;
  // The keys dump() made: operator[] finds them and adds nothing.
  for (auto& s : stats_)
    slots.emplace_back(s.get(), &node[s->name()]);
  for (StatGroup* c : children_)
    if (!c->collect_slots(node[c->name_], slots)) return false;
  return true;
}

StatTree::StatTree() : tree_(std::make_unique<nlohmann::json>()) {}
StatTree::~StatTree() = default;

const nlohmann::json& StatTree::refresh(const StatGroup& root, StatView v) {
  if (kept_ && shape_ == StatGroup::shape()) {
    for (auto& [stat, slot] : slots_)
      *slot = stat->value_json(v);
    return *tree_;
  }
  *tree_ = nlohmann::json();
  root.dump(*tree_, v, false);
  slots_.clear();
  kept_ = root.collect_slots(*tree_, slots_);
  shape_ = StatGroup::shape();
  return *tree_;
}

void StatGroup::close_epoch() {
  for (auto& s : stats_)
    s->close_epoch();
  for (StatGroup* c : children_)
    c->close_epoch();
}

} // namespace tlmgpu
