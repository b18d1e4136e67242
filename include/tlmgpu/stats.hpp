// Declared statistics (house style rule 6).
//
// Blocks own a StatGroup named like their sc_object ("gpu.l2_3") and declare
// counters, averages, histograms and formulas once, with unit and description.
// Each stat keeps two accumulators: the current epoch (one kernel) and the
// total of closed epochs, so per-kernel sections and run totals come from the
// same objects. Formulas are evaluated at dump time on either view; nobody
// recomputes a derived value by hand.
#pragma once

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace tlmgpu {

enum class StatView { Epoch, Total };

class Stat {
public:
  Stat(std::string name, std::string unit, std::string desc)
      : name_(std::move(name)), unit_(std::move(unit)), desc_(std::move(desc)) {}
  virtual ~Stat() = default;
  const std::string& name() const { return name_; }
  const std::string& unit() const { return unit_; }
  const std::string& desc() const { return desc_; }
  virtual const char* type() const = 0;
  virtual nlohmann::json value_json(StatView v) const = 0;
  virtual void close_epoch() = 0;

private:
  std::string name_, unit_, desc_;
};

class Counter final : public Stat {
public:
  using Stat::Stat;
  void inc(uint64_t n = 1) { cur_ += n; }
  Counter& operator++() {
    ++cur_;
    return *this;
  }
  Counter& operator+=(uint64_t n) {
    cur_ += n;
    return *this;
  }
  uint64_t value(StatView v = StatView::Total) const {
    return v == StatView::Epoch ? cur_ : tot_ + cur_;
  }
  const char* type() const override { return "counter"; }
  nlohmann::json value_json(StatView v) const override;
  void close_epoch() override {
    tot_ += cur_;
    cur_ = 0;
  }

private:
  uint64_t cur_ = 0, tot_ = 0;
};

class Average final : public Stat {
public:
  using Stat::Stat;
  void sample(double x) {
    cur_sum_ += x;
    ++cur_n_;
  }
  double mean(StatView v = StatView::Total) const;
  uint64_t count(StatView v = StatView::Total) const {
    return v == StatView::Epoch ? cur_n_ : tot_n_ + cur_n_;
  }
  const char* type() const override { return "average"; }
  nlohmann::json value_json(StatView v) const override;
  void close_epoch() override;

private:
  double cur_sum_ = 0, tot_sum_ = 0;
  uint64_t cur_n_ = 0, tot_n_ = 0;
};

// Fixed-width buckets [0,w), [w,2w), ...; the last bucket also takes overflow.
class Histogram final : public Stat {
public:
  Histogram(std::string name, std::string unit, std::string desc, uint64_t bucket_width,
            unsigned buckets);
  void sample(uint64_t x, uint64_t times = 1);
  uint64_t bucket(unsigned i, StatView v = StatView::Total) const;
  unsigned buckets() const { return static_cast<unsigned>(cur_.size()); }
  const char* type() const override { return "histogram"; }
  nlohmann::json value_json(StatView v) const override;
  void close_epoch() override;

private:
  uint64_t width_;
  std::vector<uint64_t> cur_, tot_;
  uint64_t cur_max_ = 0, tot_max_ = 0;
};

class Formula final : public Stat {
public:
  using Fn = std::function<double(StatView)>;
  Formula(std::string name, std::string unit, std::string desc, Fn fn)
      : Stat(std::move(name), std::move(unit), std::move(desc)), fn_(std::move(fn)) {}
  double value(StatView v = StatView::Total) const { return fn_(v); }
  const char* type() const override { return "formula"; }
  nlohmann::json value_json(StatView v) const override;
  void close_epoch() override {}

private:
  Fn fn_;
};

// Safe ratio for formulas: 0 when the denominator is 0 (no events yet).
inline double ratio(double num, double den) {
  return den == 0 ? 0.0 : num / den;
}

class StatGroup {
public:
  // Root group (no name); children attach with the constructor below.
  StatGroup() = default;
  StatGroup(StatGroup& parent, std::string name);
  StatGroup(const StatGroup&) = delete;
  StatGroup& operator=(const StatGroup&) = delete;
  ~StatGroup();

  // Declaring a counter the group already has returns that counter: several
  // instances of a part that report into one group (an SM's DAB buffers)
  // add up instead of listing the name twice.
  Counter& counter(const std::string& name, const std::string& unit, const std::string& desc);
  Average& average(const std::string& name, const std::string& unit, const std::string& desc);
  Histogram& histogram(const std::string& name, const std::string& unit, const std::string& desc,
                       uint64_t bucket_width, unsigned buckets);
  Formula& formula(const std::string& name, const std::string& unit, const std::string& desc,
                   Formula::Fn fn);

  const std::string& name() const { return name_; }
  std::string path() const; // dotted from the root
  // Find a stat by dotted path relative to this group (tests, reports).
  const Stat* find(const std::string& dotted) const;
  // The counters declared in this group itself (not its children), in
  // declaration order (the L1 replays a stalled request's counts in bulk).
  std::vector<Counter*> counters() const;

  // `full` adds type/unit/desc to each stat (used for the total section).
  void dump(nlohmann::json& out, StatView v, bool full) const;
  // Appends what append_json (tlmgpu/json_text.hpp) writes for a json that
  // dump() filled from null, without building it: stats.json's "total" is
  // 55,000 nodes for titanv, and the tree cost more than its text.
  void append_json(std::string& out, StatView v, bool full, int indent, unsigned depth) const;
  void close_epoch();

  // Bumped whenever any stat or group is added or a group goes: a kept
  // tree's shape (StatTree) is still the groups' while it is unchanged.
  static uint64_t shape() { return shape_; }
  // StatTree: the slot of each stat in a tree dump(.., false) filled;
  // false (nothing kept) where a name repeats in a group, whose dump merges.
  bool collect_slots(nlohmann::json& node,
                     std::vector<std::pair<const Stat*, nlohmann::json*>>& slots) const;

private:
  // A stat or child group under its name; dump() puts both into one object.
  struct Member {
    const std::string* name;
    const Stat* stat;
    const StatGroup* group;
  };
  // The members in key order, and whether a name repeats among them (dump()
  // then overwrites or merges, and only its tree says what comes out).
  std::vector<Member> members_by_name() const;
  static bool names_repeat(const std::vector<Member>& sorted);
  static inline uint64_t shape_ = 0;
  template <class T, class... A>
  T& add(A&&... a);
  void detach(StatGroup* child);
  std::string name_;
  StatGroup* parent_ = nullptr;
  std::vector<StatGroup*> children_;
  std::vector<std::unique_ptr<Stat>> stats_;
};

// The values-only tree of dump(v, false), kept between calls. The kernel
// end dumps the epoch's stats to compute its metrics: for titanv a tree of
// 55,000 nodes built and freed at every launch, 14 % of a BC run's
// instructions (issue 13). While no stat or group was added or removed
// since (StatGroup::shape), refresh() rewrites the values in place.
class StatTree {
public:
  StatTree();
  ~StatTree();
  const nlohmann::json& refresh(const StatGroup& root, StatView v);

private:
  std::unique_ptr<nlohmann::json> tree_; // json_fwd.hpp only here
  std::vector<std::pair<const Stat*, nlohmann::json*>> slots_;
  uint64_t shape_ = ~uint64_t{0};
  bool kept_ = false;
};

} // namespace tlmgpu
