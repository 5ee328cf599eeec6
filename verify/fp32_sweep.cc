// The exhaustive proof of real rules about fp32 bits: see fp32_sweep.h.
#include "verify/fp32_sweep.h"

#include <algorithm>
#include <atomic>
#include <bit>
#include <cmath>
#include <thread>

namespace keq::verify::internal {

namespace {

using ir::Op;
using ir::TermId;

constexpr uint32_t kFirst = 0x00800000;  // 2^-126, the least normal
constexpr uint32_t kLast = 0x7F000000;   // 2^127
constexpr size_t kLanes = 4096;

// One node of both sides, in evaluation order; kids index earlier nodes.
struct Node {
  Op op;
  ir::Type type;
  std::vector<uint32_t> kids;
  ir::Constant constant;
};

// Both sides as a tape, or why they cannot be evaluated exactly at fp32 values.
struct Tape {
  std::vector<Node> nodes;
  uint32_t lhs = 0, rhs = 0;
  std::string unsupported;
};

bool exact_op(Op op, ir::Type type, const std::vector<ir::Type>& kid_types) {
  bool ints = ir::is_int(type) || type == ir::Type::Bool;
  for (ir::Type t : kid_types) ints = ints || ir::is_int(t);
  switch (op) {
    case Op::Add:
    case Op::Sub:
    case Op::Mul:
      return ints;  // float sums round in no exact way a double shows
    case Op::Var:
    case Op::Const:
    case Op::Neg:
    case Op::Abs:
    case Op::BitcastI32:
    case Op::BitcastF32:
    case Op::Shl:
    case Op::Shr:
    case Op::LShr:
    case Op::BitAnd:
    case Op::BitOr:
    case Op::BitXor:
    case Op::Lt:
    case Op::Le:
    case Op::Gt:
    case Op::Ge:
    case Op::Eq:
    case Op::Ne:
    case Op::Select:
    case Op::CastI32:
    case Op::CastI64:
    case Op::CastF32:
    case Op::CastBool:
    case Op::Floor:
    case Op::Ceil:
    case Op::Trunc:
    case Op::Exp2:
    case Op::Log2:
      return true;
    default:
      return false;
  }
}

class TapeBuilder {
 public:
  explicit TapeBuilder(const ir::TermStore& s) : s_(s) {}

  Tape build(TermId lhs, TermId rhs, TermId var) {
    var_ = var;
    tape_.lhs = add(lhs, Op::Const);
    tape_.rhs = add(rhs, Op::Const);
    return std::move(tape_);
  }

 private:
  // `parent`: the op reading t (Const for a root), which decides where s and log2 may appear.
  uint32_t add(TermId t, Op parent) {
    Op op = s_.op(t);
    if (t == var_ && parent != Op::BitcastI32 && parent != Op::Log2)
      fail("?s is read other than through bitcast.i32 or floor/ceil of log2");
    if (op == Op::Log2 && parent != Op::Floor && parent != Op::Ceil)
      fail("log2 is used other than under floor or ceil");
    if ((op == Op::Shl || op == Op::Shr || op == Op::LShr) && !shift_in_range(t))
      fail("a shift by an amount that is not a constant below the width");
    if (auto it = done_.find(t); it != done_.end()) return it->second;
    Node n{op, s_.type(t), {}, {}};
    std::vector<ir::Type> kid_types;
    for (TermId k : s_.children(t)) {
      n.kids.push_back(add(k, op));
      kid_types.push_back(s_.type(k));
    }
    if (op == Op::Const) n.constant = s_.constant_of(t);
    if (op == Op::Var && t != var_) fail("a second variable");
    if (!exact_op(op, n.type, kid_types))
      fail("op " + std::string(ir::op_info(op).name) + " is not evaluated exactly here");
    tape_.nodes.push_back(std::move(n));
    return done_[t] = static_cast<uint32_t>(tape_.nodes.size() - 1);
  }

  bool shift_in_range(TermId t) {
    TermId amount = s_.children(t)[1];
    if (s_.op(amount) != Op::Const) return false;
    int64_t k = s_.constant_of(amount).i;
    return k >= 0 && k < (s_.type(t) == ir::Type::I32 ? 32 : 64);
  }

  void fail(const std::string& why) {
    if (tape_.unsupported.empty()) tape_.unsupported = why;
  }

  const ir::TermStore& s_;
  TermId var_ = 0;
  Tape tape_;
  absl::flat_hash_map<TermId, uint32_t> done_;
};

int64_t wrap(ir::Type t, int64_t v) {
  return t == ir::Type::I32 ? static_cast<int32_t>(static_cast<uint32_t>(v)) : v;
}

int64_t to_int(ir::Type t, double x) {
  const double lo = t == ir::Type::I32 ? INT32_MIN : -0x1p63;
  const double hi = t == ir::Type::I32 ? INT32_MAX : 0x1p63;
  if (std::isnan(x)) return 0;
  if (x <= lo) return t == ir::Type::I32 ? INT32_MIN : INT64_MIN;
  if (x >= hi) return t == ir::Type::I32 ? INT32_MAX : INT64_MAX;
  return static_cast<int64_t>(std::trunc(x));
}

// floor(log2 x) and whether x is a power of two, from a positive normal double's bits.
bool log2_parts(double x, int64_t& floor_log2, bool& power_of_two) {
  uint64_t b = std::bit_cast<uint64_t>(x);
  uint64_t e = (b >> 52) & 0x7FF;
  if (x <= 0 || e == 0 || e == 0x7FF) return false;
  floor_log2 = static_cast<int64_t>(e) - 1023;
  power_of_two = (b & ((uint64_t{1} << 52) - 1)) == 0;
  return true;
}

// Lanes of every node for one chunk of inputs; `exact` turns false where a value is not held.
class Evaluator {
 public:
  explicit Evaluator(const Tape& t)
      : t_(t), f_(t.nodes.size() * kLanes), i_(t.nodes.size() * kLanes) {
    for (size_t k = 0; k < t.nodes.size(); ++k)  // constants' lanes, once
      if (t.nodes[k].op == Op::Const) {
        std::fill(f(k), f(k) + kLanes, t.nodes[k].constant.f);
        std::fill(i(k), i(k) + kLanes, t.nodes[k].constant.i);
      }
  }

  // Inputs first, first + 1, ... (n of them); the first lane where the sides differ or a value
  // is not exact, or n.
  size_t run(uint32_t first, size_t n, bool& exact) {
    exact = true;
    std::fill(lane_exact_, lane_exact_ + n, true);
    for (size_t k = 0; k < t_.nodes.size(); ++k) node(k, first, n);
    const Node& l = t_.nodes[t_.lhs];
    for (size_t j = 0; j < n; ++j) {
      if (!lane_exact_[j]) {
        exact = false;
        return j;
      }
      bool same = l.type == ir::Type::F32 ? (f(t_.lhs)[j] == f(t_.rhs)[j] ||
                                             (std::isnan(f(t_.lhs)[j]) && std::isnan(f(t_.rhs)[j])))
                                          : i(t_.lhs)[j] == i(t_.rhs)[j];
      if (!same) return j;
    }
    return n;
  }

 private:
  double* f(size_t k) { return &f_[k * kLanes]; }
  int64_t* i(size_t k) { return &i_[k * kLanes]; }

  void node(size_t k, uint32_t first, size_t n) {
    const Node& nd = t_.nodes[k];
    double* of = f(k);
    int64_t* oi = i(k);
    const uint32_t* kid = nd.kids.data();
    // The operands' lanes, hoisted so the loops below vectorize.
    const double* kf[3] = {nullptr, nullptr, nullptr};
    const int64_t* ki[3] = {nullptr, nullptr, nullptr};
    for (size_t c = 0; c < nd.kids.size() && c < 3; ++c) kf[c] = f(kid[c]), ki[c] = i(kid[c]);
    bool kid_float = !nd.kids.empty() && t_.nodes[kid[0]].type == ir::Type::F32;
    ir::Type ty = nd.type;
    switch (nd.op) {
      case Op::Var:
        for (size_t j = 0; j < n; ++j)
          of[j] = std::bit_cast<float>(static_cast<uint32_t>(first + j));
        return;
      case Op::Const:  // filled once
        return;
      case Op::Neg:
        if (ty == ir::Type::F32)
          for (size_t j = 0; j < n; ++j) of[j] = -kf[0][j];
        else
          int_lanes(ty, n, oi, [&](size_t j) { return -static_cast<uint64_t>(ki[0][j]); });
        return;
      case Op::Abs:
        if (ty == ir::Type::F32)
          for (size_t j = 0; j < n; ++j) of[j] = std::fabs(kf[0][j]);
        else
          for (size_t j = 0; j < n; ++j) oi[j] = wrap(ty, ki[0][j] < 0 ? -ki[0][j] : ki[0][j]);
        return;
      case Op::BitcastI32:  // a real is rounded to fp32 first: here every value is one
        for (size_t j = 0; j < n; ++j) {
          float v = static_cast<float>(kf[0][j]);
          if (static_cast<double>(v) != kf[0][j]) lane_exact_[j] = false;
          oi[j] = static_cast<int32_t>(std::bit_cast<uint32_t>(v));
        }
        return;
      case Op::BitcastF32:
        for (size_t j = 0; j < n; ++j)
          of[j] = std::bit_cast<float>(static_cast<uint32_t>(ki[0][j]));
        return;
      case Op::Shl:
        int_lanes(ty, n, oi, [&](size_t j) { return static_cast<uint64_t>(ki[0][j]) << ki[1][j]; });
        return;
      case Op::Shr:
        for (size_t j = 0; j < n; ++j) oi[j] = ki[0][j] >> ki[1][j];
        return;
      case Op::LShr:
        for (size_t j = 0; j < n; ++j)
          oi[j] = ty == ir::Type::I32
                      ? wrap(ty, static_cast<uint32_t>(ki[0][j]) >> ki[1][j])
                      : static_cast<int64_t>(static_cast<uint64_t>(ki[0][j]) >> ki[1][j]);
        return;
      case Op::BitAnd:
        for (size_t j = 0; j < n; ++j) oi[j] = ki[0][j] & ki[1][j];
        return;
      case Op::BitOr:
        for (size_t j = 0; j < n; ++j) oi[j] = ki[0][j] | ki[1][j];
        return;
      case Op::BitXor:
        for (size_t j = 0; j < n; ++j) oi[j] = ki[0][j] ^ ki[1][j];
        return;
      case Op::Add:
        int_lanes(ty, n, oi, [&](size_t j) {
          return static_cast<uint64_t>(ki[0][j]) + static_cast<uint64_t>(ki[1][j]);
        });
        return;
      case Op::Sub:
        int_lanes(ty, n, oi, [&](size_t j) {
          return static_cast<uint64_t>(ki[0][j]) - static_cast<uint64_t>(ki[1][j]);
        });
        return;
      case Op::Mul:
        int_lanes(ty, n, oi, [&](size_t j) {
          return static_cast<uint64_t>(ki[0][j]) * static_cast<uint64_t>(ki[1][j]);
        });
        return;
      case Op::Lt:
      case Op::Le:
      case Op::Gt:
      case Op::Ge:
      case Op::Eq:
      case Op::Ne:
        if (kid_float)
          compare_lanes(nd.op, n, oi, kf[0], kf[1]);
        else
          compare_lanes(nd.op, n, oi, ki[0], ki[1]);
        return;
      case Op::Select:
        for (size_t j = 0; j < n; ++j) {
          of[j] = ki[0][j] ? kf[1][j] : kf[2][j];
          oi[j] = ki[0][j] ? ki[1][j] : ki[2][j];
        }
        return;
      case Op::CastI32:
      case Op::CastI64:
        for (size_t j = 0; j < n; ++j)
          oi[j] = kid_float ? to_int(ty, kf[0][j]) : wrap(ty, ki[0][j]);
        return;
      case Op::CastF32:
        for (size_t j = 0; j < n; ++j) {
          of[j] = kid_float ? kf[0][j] : static_cast<double>(ki[0][j]);
          if (!kid_float && std::abs(ki[0][j]) > (int64_t{1} << 53)) lane_exact_[j] = false;
        }
        return;
      case Op::CastBool:
        for (size_t j = 0; j < n; ++j) oi[j] = kid_float ? kf[0][j] != 0 : ki[0][j] != 0;
        return;
      case Op::Log2:  // read by its floor or ceil parent, from its operand
        for (size_t j = 0; j < n; ++j) of[j] = kf[0][j];
        return;
      case Op::Floor:
      case Op::Ceil:
        if (t_.nodes[kid[0]].op == Op::Log2) {
          for (size_t j = 0; j < n; ++j) {
            int64_t fl = 0;
            bool pow2 = false;
            if (!log2_parts(kf[0][j], fl, pow2)) lane_exact_[j] = false;
            of[j] = static_cast<double>(nd.op == Op::Floor || pow2 ? fl : fl + 1);
          }
          return;
        }
        for (size_t j = 0; j < n; ++j)
          of[j] = nd.op == Op::Floor ? std::floor(kf[0][j]) : std::ceil(kf[0][j]);
        return;
      case Op::Trunc:
        for (size_t j = 0; j < n; ++j) of[j] = std::trunc(kf[0][j]);
        return;
      case Op::Exp2:  // exact at integers a double's exponent holds
        for (size_t j = 0; j < n; ++j) {
          double x = kf[0][j];
          bool in = x == std::floor(x) && x >= -1022 && x <= 1023;
          lane_exact_[j] = lane_exact_[j] && in;
          int64_t e = in ? static_cast<int64_t>(x) : 0;
          of[j] = std::bit_cast<double>(static_cast<uint64_t>(e + 1023) << 52);
        }
        return;
      default:
        for (size_t j = 0; j < n; ++j) lane_exact_[j] = false;
        return;
    }
  }

  // out = op(j) wrapped to the type's width; the width is chosen once, outside the loop.
  template <class F>
  static void int_lanes(ir::Type ty, size_t n, int64_t* out, F op) {
    if (ty == ir::Type::I32)
      for (size_t j = 0; j < n; ++j) out[j] = static_cast<int32_t>(static_cast<uint32_t>(op(j)));
    else
      for (size_t j = 0; j < n; ++j) out[j] = static_cast<int64_t>(op(j));
  }

  template <class T>
  static void compare_lanes(Op op, size_t n, int64_t* out, const T* a, const T* b) {
    auto each = [&](auto cmp) {
      for (size_t j = 0; j < n; ++j) out[j] = cmp(a[j], b[j]);
    };
    switch (op) {
      case Op::Lt:
        return each([](T x, T y) { return x < y; });
      case Op::Le:
        return each([](T x, T y) { return x <= y; });
      case Op::Gt:
        return each([](T x, T y) { return x > y; });
      case Op::Ge:
        return each([](T x, T y) { return x >= y; });
      case Op::Eq:
        return each([](T x, T y) { return x == y; });
      default:
        return each([](T x, T y) { return x != y; });
    }
  }

  const Tape& t_;
  std::vector<double> f_;
  std::vector<int64_t> i_;
  bool lane_exact_[kLanes];
};

bool has_condition(const rules::KeqRule& r, const std::string& name) {
  for (const auto& spec : r.condition_specs)
    if (spec.first == name) return true;
  return false;
}

// Why the sweep cannot prove a rule under f32-binade: its conditions must be exactly
// f32-binade and ue8m0-range of its one fp32 variable.
std::optional<std::string> not_sweepable(const ir::TermStore& s, const rules::KeqRule& r,
                                         const RuleTerms& t) {
  for (const auto& [name, idx] : r.condition_specs)
    if (name != "f32-binade" && name != "ue8m0-range")
      return "a condition other than f32-binade and ue8m0-range: " + name;
  if (!has_condition(r, "ue8m0-range")) return "no ue8m0-range condition";
  if (t.vars.size() != 1 || s.type(t.vars[0]) != ir::Type::F32) return "not one fp32 variable";
  return std::nullopt;
}

}  // namespace

Fp32Sweep sweep_fp32_values(ir::TermStore& s, const rules::KeqRule& r, const RuleTerms& t) {
  Fp32Sweep out;
  // NotApplicable: Z3's, over all reals; in IEEE semantics every value is an fp32 value anyway.
  if (r.holds != ir::Semantics::Real || !has_condition(r, "f32-binade")) return out;
  // f32-binade restricts ?s to what no Z3 encoding states: only the sweep may decide the rule.
  if (auto why = not_sweepable(s, r, t)) {
    out.outcome = Fp32Sweep::Outcome::Unknown;
    out.detail = "f32-binade rules are proved by the fp32 sweep only, and this one has " + *why;
    return out;
  }
  Tape tape = TapeBuilder(s).build(t.lhs, t.rhs, t.vars[0]);
  if (!tape.unsupported.empty()) {
    out.outcome = Fp32Sweep::Outcome::Unknown;
    out.detail = "not swept: " + tape.unsupported;
    return out;
  }
  // The first input (in bit order) where the sides differ or are not exact; kLast + 1 if none.
  std::atomic<uint64_t> first_bad{uint64_t{kLast} + 1};
  unsigned threads = std::max(1u, std::min(8u, std::thread::hardware_concurrency()));
  const uint64_t total = uint64_t{kLast} - kFirst + 1;
  std::vector<std::thread> pool;
  for (unsigned w = 0; w < threads; ++w)
    pool.emplace_back([&, w] {
      Evaluator ev(tape);
      uint64_t lo = kFirst + total * w / threads, hi = kFirst + total * (w + 1) / threads;
      for (uint64_t b = lo; b < hi && b < first_bad.load(); b += kLanes) {
        size_t n = static_cast<size_t>(std::min<uint64_t>(kLanes, hi - b));
        bool exact = true;
        size_t j = ev.run(static_cast<uint32_t>(b), n, exact);
        if (j == n) continue;
        uint64_t at = b + j, cur = first_bad.load();
        while (at < cur && !first_bad.compare_exchange_weak(cur, at)) {
        }
        return;
      }
    });
  for (auto& th : pool) th.join();
  out.inputs = total;
  uint64_t bad = first_bad.load();
  if (bad > kLast) {
    out.outcome = Fp32Sweep::Outcome::Proved;
    out.detail = "by exhaustion: every fp32 value of ?s in [2^-126, 2^127] (" +
                 std::to_string(total) +
                 "), which covers every real ?s under f32-binade (fp32_sweep.h)";
    return out;
  }
  bool exact = true;
  Evaluator(tape).run(static_cast<uint32_t>(bad), 1, exact);
  double x = std::bit_cast<float>(static_cast<uint32_t>(bad));
  std::vector<ir::Constant> point = point_of(s, t.vars, {x});
  std::string diff = differs_at(s, t, point, ir::Semantics::Real);
  if (!diff.empty()) {
    out.outcome = Fp32Sweep::Outcome::Refuted;
    out.detail = "at " + point_str(t.vars, point, s) + ": " + diff;
    return out;
  }
  out.outcome = Fp32Sweep::Outcome::Unknown;
  out.detail = std::string(!exact ? "a value not held exactly"
                                  : "a difference rigorous evaluation did not confirm") +
               " at " + point_str(t.vars, point, s);
  return out;
}

}  // namespace keq::verify::internal
