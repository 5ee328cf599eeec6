// The Triton frontend's insides, shared by its files: the Triton object (the running launch,
// block arithmetic with Triton's semantics), kernels and launches (launch.cc), memory and block
// pointers (memory.cc), and tl.* by family (language.cc, reductions.cc, decorators.cc).
// Internal to frontends/triton/; the public header is triton.h.
#pragma once

#include <absl/container/flat_hash_map.h>
#include <absl/container/inlined_vector.h>

#include <algorithm>
#include <cmath>
#include <optional>

#include "frontends/torch/tensor_ops.h"
#include "frontends/triton/compile_checks.h"
#include "frontends/triton/triton.h"
#include "ir/interval.h"

namespace keq::triton::impl {

// torch._inductor.runtime.triton_helpers, modelled in Python (inductor_helpers.cc).
void register_inductor_helpers(python::Interp& in);

using namespace torch::detail;
using python::CallArgs;
using python::Ref;
using python::Value;
using torch::DType;
using torch::Tensor;
using K = Value::Kind;
using ir::Op;
using ir::TermId;

using Attrs = absl::flat_hash_map<std::string, Ref>;

// A Python number met in a kernel (a literal, a constexpr) becomes a constant through Triton's
// scalar_constant, which gives every value equal to 0 the null value: -0.0 is +0 there
// (`other=-0.0`, `tl.where(m, x, -0.0)`, `x + -0.0`; measured on the H200:
// tests/fixtures/gpu/negative_zero_constants.txt). A runtime float argument keeps its sign.
inline bool literal_zero(const Ref& v) {
  return v->kind == K::Float && !v->b && v->f == 0;
}
inline TensorPtr as_tensor(python::Interp& in, const Ref& v, python::Span at,
                           DType like = DType::F32) {
  return torch::detail::as_tensor(in, literal_zero(v) ? python::floating(0.0) : v, at, like);
}

// One launch: the program running now and who wrote which element (races are between programs
// of one launch; launches are ordered).
struct Launch {
  int64_t pid[3] = {0, 0, 0}, grid[3] = {1, 1, 1};
  absl::flat_hash_map<const Tensor*, std::vector<int64_t>>
      writer;  // program id per element, -1: none
  // Within the running program, since its last tl.debug_barrier: which lane of which block
  // shape stored each element. Another lane reading it back may be another thread, and nothing
  // orders global memory between a program's threads but a barrier.
  struct LaneMark {
    std::vector<int64_t> shape;
    int64_t lane;
  };
  absl::flat_hash_map<std::pair<const Tensor*, int64_t>, LaneMark> stored_lane;
  // The values tl.program_id returned in the running program, with their axes: a comparison of
  // one of them with the grid's extent is a guard no program crosses (TensorHooks::grid_guard).
  std::vector<std::pair<python::Ref, int>> program_ids;
  // Whether the launch's result depends on what the memory it writes held before it: an
  // element loaded before this launch wrote it and written afterwards, an atomic, a
  // conditional store keeping the old value. Such a launch run twice leaves a different result.
  bool reads_prior = false;
  bool wrote = false;  // a store or atomic changed memory
  absl::flat_hash_map<const Tensor*, std::vector<bool>> read_unwritten;
  void note_read(const Tensor* t, int64_t off, int64_t writer, size_t size) {
    if (writer >= 0) return;
    std::vector<bool>& r = read_unwritten[t];
    if (r.empty()) r.assign(size, false);
    r[off] = true;
  }
  void note_write(const Tensor* t, int64_t off) {
    if (auto it = read_unwritten.find(t); it != read_unwritten.end() && it->second[off])
      reads_prior = true;
  }
  int64_t program() const { return pid[0] + grid[0] * (pid[1] + grid[1] * pid[2]); }
  std::string program_str() const {
    return "program (" + std::to_string(pid[0]) + ", " + std::to_string(pid[1]) + ", " +
           std::to_string(pid[2]) + ")";
  }
};

struct Triton {
  Interp& in;
  torch::TorchState& st;
  ir::TermStore& s;
  python::TensorHooks torch_hooks;  // what applies outside kernels
  Launch* run = nullptr;
  int64_t undef_count = 0;
  // The conditions of the data-dependent `if`s being run (each a bool term, negated in else):
  // effects under them are guarded or, where guarding is not modelled, UNSUPPORTED.
  std::vector<TermId> path;

  Ref module(const std::string& name) { return python::module_object(name); }
  Ref wrap(TensorPtr t) { return torch::tensor_value(std::move(t)); }
  TermId mk(Op op, std::initializer_list<TermId> kids) { return s.make(op, kids); }
  void finding(Span at, const std::string& what) {
    if (!what.starts_with("load out of bounds")) st.findings_beyond_loads = true;
    if (st.findings.size() >= torch::TorchState::kMostListedFindings) {
      ++st.findings_unlisted;
      return;
    }
    st.findings.push_back(in.where(at) + ": " + what +
                          (run ? " (" + run->program_str() + ")" : ""));
  }
  bool is_const(TermId t) const { return s.op(t) == Op::Const; }
  // Index arithmetic is concrete at a bound: integer and bool blocks fold as they are built.
  TermId fold(TermId t) {
    if (s.op(t) == Op::Const || s.op(t) == Op::Var) return t;
    // A mask's constant false (or true) decides an `and` (an `or`) whatever the loaded part is:
    // a masked lane's `(x > t) & mask` must not carry its other=-inf into the terms.
    if (s.op(t) == Op::And || s.op(t) == Op::Or) {
      int64_t absorbing = s.op(t) == Op::And ? 0 : 1;
      for (TermId c : s.children(t))
        if (is_const(c) && s.type(c) == ir::Type::Bool && s.constant_of(c).i == absorbing) return c;
    }
    if (s.op(t) == Op::Select && is_const(s.children(t)[0]))  // a masked lane's where()
      return s.children(t)[s.constant_of(s.children(t)[0]).i != 0 ? 1 : 2];
    if (std::optional<TermId> v = decided_by_a_constant(t)) return *v;
    for (TermId c : s.children(t))
      if (!is_const(c)) return s.type(t) == ir::Type::F32 ? t : decided_by_floats(t);
    if (s.type(t) == ir::Type::F32) return t;  // float values stay terms
    return evaluated(s.op(t), s.children(t));
  }
  // Float terms one constant operand decides in both semantics, whatever the other is: a
  // comparison with an infinity on the side that never wins (`-inf > x` is false, NaN
  // included), and x + 0, x - 0 (x a nonzero constant) and x * 1. A running argmax starts at
  // `tl.zeros(...) + -inf` and reads masked rows as other=-inf: folded, its chain is the row's.
  std::optional<TermId> decided_by_a_constant(TermId t) {
    auto k = s.children(t);
    if (k.size() != 2 || ir::is_int(s.type(k[0])) || s.type(k[0]) == ir::Type::Bool)
      return std::nullopt;
    auto is = [&](TermId c, double v) { return is_const(c) && s.constant_of(c).f == v; };
    switch (s.op(t)) {
      case Op::Gt:
        if (is(k[0], -INFINITY) || is(k[1], INFINITY)) return bool_constant(false);
        return std::nullopt;
      case Op::Lt:
        if (is(k[0], INFINITY) || is(k[1], -INFINITY)) return bool_constant(false);
        return std::nullopt;
      case Op::Add:
      case Op::Sub: {
        auto nonzero_const = [&](TermId c) {
          return is_const(c) && !std::isnan(s.constant_of(c).f) && s.constant_of(c).f != 0;
        };
        if (is(k[1], 0) && nonzero_const(k[0])) return k[0];
        if (s.op(t) == Op::Add && is(k[0], 0) && nonzero_const(k[1])) return k[1];
        return std::nullopt;
      }
      case Op::Mul:
        if (is(k[1], 1)) return k[0];
        if (is(k[0], 1)) return k[1];
        return std::nullopt;
      default:
        return std::nullopt;
    }
  }
  // An integer or bool computed from floats that come from constants alone (a tile index as
  // floor((sqrt(8 * pid + 1) - 1) / 2)): its value where the enclosure that covers fp32
  // rounding and Triton's approximations (ir::interval_of, IEEE) holds one integer, which both
  // semantics then give; t itself where it holds more (rounding decides: const_int says so) or
  // the floats depend on loaded data.
  TermId decided_by_floats(TermId t) {
    if (!closed(t)) return t;
    ir::Interval r = ieee_interval(t);
    if (r.nan || r.empty_range() || r.lo != r.hi || !std::isfinite(r.lo)) return t;
    return s.constant(s.type(t) == ir::Type::Bool
                          ? ir::Constant::of_bool(r.lo != 0)
                          : ir::Constant::of_int(s.type(t), static_cast<int64_t>(r.lo)));
  }
  // No variable below t. Iterative, children first, memoized: a running maximum over a row is a
  // chain as long as the row, too deep to recurse on.
  bool closed(TermId t) {
    if (s.op(t) == Op::Const) return true;
    if (s.op(t) == Op::Var) return false;
    std::vector<TermId> todo{t};
    while (!todo.empty()) {
      TermId x = todo.back();
      if (closed_.contains(x)) {
        todo.pop_back();
        continue;
      }
      bool open = false;
      size_t pending = todo.size();
      for (TermId c : s.children(x)) {
        if (s.op(c) == Op::Const) continue;
        auto it = closed_.find(c);
        if (s.op(c) == Op::Var || (it != closed_.end() && !it->second)) {
          open = true;
          break;
        }
        if (it == closed_.end()) todo.push_back(c);
      }
      if (open) todo.resize(pending);  // a variable below x decides it: its other children wait
      if (open || todo.size() == pending) {
        closed_[x] = !open;
        todo.resize(pending - 1);
      }
    }
    return closed_[t];
  }
  // The enclosure of a closed term, children first (iteratively, as closed()).
  ir::Interval ieee_interval(TermId t) {
    std::vector<TermId> todo{t};
    while (!todo.empty()) {
      TermId x = todo.back();
      if (s.op(x) == Op::Const || intervals_.contains(x)) {
        todo.pop_back();
        continue;
      }
      size_t pending = todo.size();
      for (TermId c : s.children(x))
        if (s.op(c) != Op::Const && !intervals_.contains(c)) todo.push_back(c);
      if (todo.size() > pending) continue;
      todo.pop_back();
      absl::InlinedVector<ir::Interval, 4> args;
      for (TermId c : s.children(x)) args.push_back(interval_known(c));
      intervals_.emplace(x, interval_of_node(x, args));
    }
    return interval_known(t);
  }
  ir::Interval interval_known(TermId t) const {
    if (s.op(t) != Op::Const) return intervals_.at(t);
    const ir::Constant& c = s.constant_of(t);
    return ir::Interval::point(c.type == ir::Type::F32 ? c.f : static_cast<double>(c.i));
  }
  ir::Interval interval_of_node(TermId t, std::span<const ir::Interval> args) const {
    // Only float results round: integer and bool ones are exact, and so are rounding to an
    // integer (an fp32 value's floor is one) and an int below 2^24 made a float.
    const Op op = s.op(t);
    const bool to_integer = op == Op::Floor || op == Op::Ceil || op == Op::Trunc ||
                            op == Op::Round || op == Op::RoundAway;
    const bool exact_float = op == Op::CastF32 && s.type(s.children(t)[0]) != ir::Type::F32 &&
                             args[0].lo >= -0x1p24 && args[0].hi <= 0x1p24;
    const bool rounds = s.type(t) == ir::Type::F32 && !to_integer && !exact_float;
    if (rounds)
      if (std::optional<double> r = exact_point(op, args)) return ir::Interval::point(*r);
    return ir::interval_of(op, args, rounds ? ir::Semantics::Ieee : ir::Semantics::Real);
  }
  // The result of a float op on points where it is exact on the GPU: a sum, difference or
  // product of fp32 integers that is one (IEEE rounds once, so a representable result is
  // returned, fused or not), an fp32 integer times a power of two, tl.sqrt of a perfect square
  // k * k for k up to 4095 (and 0), an fp32 integer divided by 2, 4, 8 or 16; the last two
  // measured on the H200 for every such operand (tests/fixtures/gpu/sqrt_perfect_squares.txt).
  // A tile index such as floor((sqrt(8 * pid + 1) - 1) / 2) is exactly an integer at every
  // triangular pid, where an enclosure widened for rounding holds two.
  static std::optional<double> exact_point(Op op, std::span<const ir::Interval> args) {
    auto integral = [](double v) {
      return std::isfinite(v) && v == std::floor(v) && std::fabs(v) <= 0x1p24;
    };
    auto power_of_two = [](double v) {
      int e = 0;
      return std::fabs(std::frexp(v, &e)) == 0.5 && e >= -23 && e <= 25;
    };
    for (const ir::Interval& a : args)
      if (a.nan || a.lo != a.hi || !std::isfinite(a.lo)) return std::nullopt;
    auto all_integral = [&] {
      return std::all_of(args.begin(), args.end(),
                         [&](const ir::Interval& a) { return integral(a.lo); });
    };
    const double a = args[0].lo, b = args.size() > 1 ? args[1].lo : 0;
    switch (op) {
      case Op::Add:
      case Op::Sub:
      case Op::Fma:
      case Op::Neg: {
        if (!all_integral()) return std::nullopt;
        double r = op == Op::Add   ? a + b
                   : op == Op::Sub ? a - b
                   : op == Op::Neg ? -a
                                   : a * b + args[2].lo;  // exact in double: |a b| <= 2^48
        return integral(r) ? std::optional<double>(r) : std::nullopt;
      }
      case Op::Mul:
        if (all_integral() && integral(a * b)) return a * b;
        // An integer's 24 bits scaled by a power of two stay an fp32 value (no subnormals here).
        if ((integral(a) && power_of_two(b)) || (power_of_two(a) && integral(b))) return a * b;
        return std::nullopt;
      case Op::Sqrt:
      case Op::SqrtApprox: {
        double k = std::round(std::sqrt(a));
        if (a >= 0 && k <= 4095 && k * k == a) return k;
        return std::nullopt;
      }
      case Op::Div:
      case Op::DivFull:
        if (integral(a) && (b == 2 || b == 4 || b == 8 || b == 16)) return a / b;
        return std::nullopt;
      default:
        return std::nullopt;
    }
  }

  // s.make then fold, without interning the node that folds away: a tiled matmul's index
  // arithmetic is millions of constant lanes, each of which left a dead node in the store.
  TermId fold_make(Op op, std::initializer_list<TermId> kids) {
    absl::InlinedVector<ir::Type, 4> types;
    for (TermId k : kids) {
      if (!is_const(k)) return fold(s.make(op, kids));
      types.push_back(s.type(k));
    }
    if (kids.size() == 2)
      if (std::optional<TermId> v = int_lane(op, kids.begin()[0], kids.begin()[1])) return *v;
    // The same constant operations recur in every program and lane (offsets, masks): memoized,
    // they cost one lookup instead of typing, evaluating and interning.
    std::pair<uint64_t, uint32_t> key{0, static_cast<uint32_t>(op)};
    if (kids.size() == 2) {
      key.first = uint64_t{kids.begin()[0]} << 32 | kids.begin()[1];
      if (auto hit = folded_.find(key); hit != folded_.end()) return hit->second;
    }
    ir::TypeResult r = ir::result_type(op, types);
    if (!r.type || *r.type == ir::Type::F32) return fold(s.make(op, kids));  // make says why
    TermId v = evaluated(op, std::span<const TermId>(kids.begin(), kids.size()));
    if (kids.size() == 2) folded_.emplace(key, v);
    return v;
  }
  // Integer lanes of index arithmetic computed here, as ir::eval_ieee computes them: on a
  // conv's millions of lanes the memo's table outgrew the caches and every lookup missed.
  std::optional<TermId> int_lane(Op op, TermId a, TermId b) {
    ir::Type t = s.type(a);
    if (t != s.type(b) || (t != ir::Type::I32 && t != ir::Type::I64)) return std::nullopt;
    TermId v = int_values(op, t, s.constant_of(a).i, s.constant_of(b).i);
    if (v == kNoConstant) return std::nullopt;
    return v;
  }
  // `x op y` of two constants of integer or bool type t: two's complement wrap at the type's
  // width, C's truncating / and %. kNoConstant (no std::optional: its flag, stored apart and
  // read back whole, stalled every lane) for an op it does not compute or a value the evaluator
  // must judge (a division by 0, MIN / -1).
  TermId int_values(Op op, ir::Type t, int64_t x, int64_t y) {
    if (t == ir::Type::Bool) {
      if (op == Op::And || op == Op::Or) return bool_constant(op == Op::And ? x && y : x || y);
      return kNoConstant;
    }
    auto wrapped = [t](uint64_t u) {
      return t == ir::Type::I32 ? int64_t{static_cast<int32_t>(static_cast<uint32_t>(u))}
                                : static_cast<int64_t>(u);
    };
    const uint64_t ux = static_cast<uint64_t>(x), uy = static_cast<uint64_t>(y);
    switch (op) {
      case Op::Add:
        return int_constant(t, wrapped(ux + uy));
      case Op::Sub:
        return int_constant(t, wrapped(ux - uy));
      case Op::Mul:
        return int_constant(t, wrapped(ux * uy));
      case Op::Min:
        return int_constant(t, std::min(x, y));
      case Op::Max:
        return int_constant(t, std::max(x, y));
      case Op::Lt:
        return bool_constant(x < y);
      case Op::Le:
        return bool_constant(x <= y);
      case Op::Gt:
        return bool_constant(x > y);
      case Op::Ge:
        return bool_constant(x >= y);
      case Op::Eq:
        return bool_constant(x == y);
      case Op::Ne:
        return bool_constant(x != y);
      case Op::DivC:
      case Op::ModC:
        if (y == 0 || (x == (t == ir::Type::I32 ? INT32_MIN : INT64_MIN) && y == -1))
          return kNoConstant;
        return int_constant(t, op == Op::DivC ? x / y : x % y);
      case Op::BitAnd:
        return int_constant(t, wrapped(ux & uy));
      case Op::BitOr:
        return int_constant(t, wrapped(ux | uy));
      case Op::BitXor:
        return int_constant(t, wrapped(ux ^ uy));
      default:
        return kNoConstant;
    }
  }
  // Non-negative integer constants by value, in a table grown to the largest seen: index values
  // run in sequence, so neighbours share a cache line (a hash table's lookups missed).
  // Negative ones (a conv's input row before its padding) in a table of their own, by -v.
  TermId int_constant(ir::Type t, int64_t v) {
    constexpr int64_t kDense = int64_t{1} << 22;
    if (v <= -kDense || v >= kDense) return s.constant(ir::Constant::of_int(t, v));
    const bool wide = t != ir::Type::I32;
    std::vector<TermId>& ids =
        v >= 0 ? (wide ? small_i64_ : small_i32_) : (wide ? negative_i64_ : negative_i32_);
    const size_t at = static_cast<size_t>(v >= 0 ? v : -v);
    if (at >= ids.size()) ids.resize(std::max(at + 1, 2 * ids.size()), kNoConstant);
    TermId& id = ids[at];
    if (id == kNoConstant) id = s.constant(ir::Constant::of_int(t, v));
    return id;
  }
  TermId bool_constant(bool b) {
    TermId& id = bools_[b ? 1 : 0];
    if (id == kNoConstant) id = s.constant(ir::Constant::of_bool(b));
    return id;
  }
  TermId evaluated(Op op, std::span<const TermId> constants) {
    absl::InlinedVector<ir::IeeeValue, 4> args;
    for (TermId c : constants) args.push_back(ir::IeeeValue::of(s.constant_of(c)));
    try {
      return s.constant(ir::eval_ieee(op, args).to_constant());
    } catch (const ir::EvalError& e) {
      in.error(Span{}, e.what());
    }
  }
  int64_t const_int(TermId t, Span at, const std::string& what) {
    if (!is_const(t) && closed(t))
      in.unsupported(at,
                     what +
                         " computed through float operations whose enclosure under fp32 rounding "
                         "holds more than one integer (how the GPU rounds decides it; keq "
                         "does not model that)");
    if (!is_const(t))
      in.unsupported(at, what + " that depends on loaded data (data-dependent indexing)");
    return s.constant_of(t).i;
  }

  // A scalar block as a bool term (`if x:` on a number means x != 0).
  TermId condition_term(const Ref& c, Span at) {
    if (c->kind != K::Tensor || c->tensor->numel() != 1)
      in.error(at, "a condition in a kernel must be a scalar, not a block");
    TermId e = c->tensor->elems[0];
    if (c->tensor->dtype == DType::Bool) return e;
    return fold(mk(Op::Ne, {e, constant(s, c->tensor->dtype, 0)}));
  }
  TermId path_guard() {
    TermId g = path[0];
    for (size_t k = 1; k < path.size(); ++k) g = mk(Op::And, {g, path[k]});
    return g;
  }
  void need_unconditional(Span at, const std::string& what) {
    if (!path.empty()) in.unsupported(at, what + " under a condition that depends on loaded data");
  }
  // Writers: a program id, -1 for none, and -(id + 2) for a store under a data-dependent
  // condition (it may not happen, so it neither proves nor excludes a race: UNSUPPORTED).
  static bool conditional_other(int64_t w, int64_t program) {
    return w <= -2 && -(w + 2) != program;
  }

  // ---- kernels and launches ----
  Ref make_kernel(const Ref& fn);
  // Triton's DependenciesFinder, run as a kernel first compiles: a global the kernel (or a
  // @triton.jit function it refers to) names that holds a function without @triton.jit is
  // refused, called or not. TRITON_INTERPRET=1 skips it (measured on the GPU:
  // tests/fixtures/gpu/plain_python_in_kernel.txt).
  void check_references(const Ref& fn, Span at);
  void note_kernel_ran(const Ref& kernel) {  // TorchState::kernels_run
    if (auto site = kernel->attrs->find("<site>"); site != kernel->attrs->end())
      st.kernels_run[site->second->s].ran = true;
  }
  Ref jit_class;

  Ref launch(const Ref& kernel, const Ref& grid, CallArgs& a);
  // triton.runtime.autotuner.Autotuner.run(self, *args, **kwargs) (decorators.cc).
  Ref autotuned_launch(CallArgs& a);
  Ref autotuned_kernel(const Ref& autotuner, Span at);
  CallArgs kernel_call(const Ref& fn, const std::vector<std::string>& params, const CallArgs& a,
                       const Attrs& meta);
  void grid_of(const Ref& fn, const std::vector<std::string>& params, const Ref& grid, CallArgs& a,
               const Attrs& meta, Launch& l);
  std::optional<std::string> compile_first(const Ref& fn, const CallArgs& call);

  // For each positional parameter of a @triton.jit function: annotated tl.constexpr.
  std::vector<bool> constexpr_parameters(const Ref& fn) const;
  Ref kernel_arg(const Ref& v, bool runtime, Span at);
  void refuse_cpu_tensors(const std::vector<std::string>& params, const CallArgs& a,
                          const Attrs& meta);
  static bool is_launch_option(const std::string& name);  // num_warps, num_stages, ...
  // An InputDependentFloat as Triton receives a Python float: an fp32 scalar (a 0-d block).
  Ref input_dependent_scalar(const Ref& v);
  static TensorPtr storage_span(const TensorPtr& view);
  void record_loop_step(const CallArgs& a);

  void record_block_sizes(const Ref& fn, const std::vector<Ref>& pos, const Attrs& meta);

  // The autotuner may pick any config, so each is a configuration of its own (verify runs them
  // all); this launch runs the one chosen in the state.
  // Returns the config chosen.
  // A config Triton's benchmarking skipped (`skipped`, when given) is never chosen: the first
  // config it kept runs in its place.
  Ref apply_config(const Ref& fn, const std::vector<Ref>& configs, Span at, Attrs& meta,
                   const std::vector<std::string>* skipped = nullptr);
  size_t smallest_config(const std::vector<Ref>& configs) const;
  // Whether this launch of a kernel autotuned over several configs is the first for its key
  // (the autotuner's cache key: the `key` arguments and the tensors' dtypes), where Triton 3.6's
  // Autotuner.run benchmarks every config before the real run. Records the key.
  bool first_for_key(const Ref& kernel, const Ref& fn, CallArgs& a);
  void refuse_tuned_keywords(const std::vector<Ref>& configs, const Ref& chosen, CallArgs& a);
  bool is_grid_guard(const std::string& op, const Ref& a, const Ref& b) const;
  // The arguments @triton.autotune(reset_to_zero=[...] or restore_value=[...]) names.
  std::vector<TensorPtr> tuning_args(const Ref& kernel, const Ref& fn, CallArgs& a,
                                     const char* which);
  // The first launch for a key: Triton benchmarks each config (each run preceded by its
  // pre_hook and reset_to_zero, restore_value put back after), zeroes reset_to_zero, then runs
  // the chosen config. Where the real run's result depends on the memory it writes (it
  // accumulates), the benchmarking runs are modelled, one per config; else they change nothing.
  Ref launch_after_tuning(const Ref& kernel, const Ref& grid, CallArgs& a);
  // Triton 3.6's Autotuner._bench compiles and runs every config: one whose compilation raises
  // OutOfResources or a failed tl.static_assert (CompileTimeAssertionFailure) gets an infinite
  // time and is never chosen (PTXASError too; keq raises none); any other error propagates from
  // the launch. Each config's first program runs here, its effects undone. Per config, why it
  // was skipped (the error), or empty.
  std::vector<std::string> benchmark_configs(const Ref& kernel, const Ref& grid, CallArgs& a);
  // Per config, why prune_configs_by's early_config_prune drops it at this launch, or empty.
  std::vector<std::string> pruned_configs(const Ref& kernel, const Ref& grid, CallArgs& a);
  // Runs `kernel` with config `choice` and no autotuning of its own; whether it read prior memory.
  bool launch_config(const Ref& kernel, const Ref& grid, CallArgs& a, size_t choice);
  void run_pre_hook(const Ref& cfg, const Ref& fn, CallArgs& a, const Attrs& meta);
  // What a hook or heuristic gets: the positional arguments by name, then the keywords (launch
  // options included) and the config's constexprs, as Triton's Heuristics.run builds it.
  Ref named_args(const Ref& fn, CallArgs& a, const Attrs& meta);
  // What a grid function gets: JITFunction.run's bound_args, every parameter by name (positional,
  // keyword, a config's constexpr, else its default) and no launch option.
  Ref grid_args(const Ref& fn, const std::vector<std::string>& params, CallArgs& a,
                const Attrs& meta);

  // @triton.heuristics({"NAME": lambda args: ...}): each value is computed at launch from the
  // kernel's arguments by name (constexprs from the config included), in the dict's order.
  void apply_heuristics(const Ref& fn, const Ref& rules, CallArgs& a, Attrs& meta);

  // ---- block arithmetic, with Triton's semantics inside kernels ----
  Ref pointer_offset(const Ref& p, const Ref& by, bool minus, Span at) {
    TensorPtr off = as_tensor(in, by, at, DType::I32);
    check_pointer_offset(in, at, p->tensor->dtype, off->dtype);
    if (off->dtype == DType::I32) note_int32_offset(*off, *p->tensor, at);
    Tensor base;
    base.shape = p->shape;
    std::vector<int64_t> shape = broadcast_shapes(in, p->shape, off->shape, at);
    auto r = std::make_shared<Value>();
    r->kind = K::Pointer;
    r->tensor = p->tensor;
    r->shape = shape;
    std::vector<int64_t> idx(shape.size(), 0);
    int64_t n = 1;
    for (int64_t d : shape) n *= d;
    for (int64_t k = 0; k < n; ++k) {
      int64_t from = broadcast_index(base, shape, idx);
      TermId o = off->elems[broadcast_index(*off, shape, idx)];
      TermId before = p->loaded_offsets.empty() ? Value::kNoTerm : p->loaded_offsets[from];
      r->offsets.push_back(p->offsets[from] +
                           (is_const(o) ? (minus ? -1 : 1) * s.constant_of(o).i : 0));
      if (!is_const(o) || before != Value::kNoTerm) {
        if (r->loaded_offsets.empty()) r->loaded_offsets.assign(n, Value::kNoTerm);
        r->loaded_offsets[k] = loaded_sum(before, is_const(o) ? Value::kNoTerm : o, minus);
      }
      for (size_t d = idx.size(); d-- > 0;) {
        if (++idx[d] < shape[d]) break;
        idx[d] = 0;
      }
    }
    return r;
  }
  // Two parts of a lane's offset that depend on loaded data, as one i64 term (kNoTerm: none).
  TermId loaded_sum(TermId before, TermId added, bool minus) {
    auto i64 = [&](TermId t) { return s.type(t) == ir::Type::I64 ? t : s.make(Op::CastI64, {t}); };
    if (added == Value::kNoTerm) return before;
    if (minus) added = s.make(Op::Neg, {i64(added)});
    if (before == Value::kNoTerm) return added;
    return s.make(Op::Add, {i64(before), i64(added)});
  }
  // A pointer block reshaped, subscripted (ptrs[None, :]) or broadcast moves its lanes as a
  // block of the lanes' numbers would: the op runs on those numbers, and the pointer follows.
  TensorPtr lane_numbers(const Ref& p) {
    auto r = std::make_shared<Tensor>();
    r->shape = p->shape;
    r->dtype = DType::I64;
    for (size_t k = 0; k < p->offsets.size(); ++k)
      r->elems.push_back(s.constant(ir::Constant::of_int(ir::Type::I64, static_cast<int64_t>(k))));
    return r;
  }
  Ref pointer_from_lanes(const Ref& p, const TensorPtr& lanes) {
    auto r = std::make_shared<Value>();
    r->kind = K::Pointer;
    r->tensor = p->tensor;
    r->shape = lanes->shape;
    for (TermId e : lanes->elems) {
      int64_t k = s.constant_of(e).i;
      r->offsets.push_back(p->offsets[k]);
      if (!p->loaded_offsets.empty()) r->loaded_offsets.push_back(p->loaded_offsets[k]);
    }
    return r;
  }
  // p's lanes broadcast to `shape` (a load's wider mask broadcasts its pointers).
  Ref broadcast_pointer(const Ref& p, const std::vector<int64_t>& shape, Span at) {
    TensorPtr lanes = lane_numbers(p);
    auto zero = std::make_shared<Tensor>();
    zero->shape = shape;
    zero->dtype = DType::I64;
    zero->elems.assign(zero->numel(), constant(s, DType::I64, 0));
    return pointer_from_lanes(
        p, map2(
               in, lanes, zero, DType::I64, [](TermId k, TermId) { return k; }, at));
  }
  // x with its dimensions in the order `dims` (tl.trans, tl.permute).
  static TensorPtr permute_block(const Tensor& x, const std::vector<int64_t>& dims) {
    auto r = std::make_shared<Tensor>();
    r->dtype = x.dtype;
    for (int64_t d : dims) r->shape.push_back(x.shape[d]);
    r->elems = torch::detail::permuted_elems(x, dims);
    return r;
  }
  python::BuiltinFn moves_pointer_lanes(python::BuiltinFn fn) {
    return [this, fn](Interp& i2, CallArgs& a) -> Ref {
      if (a.pos.empty() || a.pos[0]->kind != K::Pointer) return fn(i2, a);
      Ref p = a.pos[0];
      a.pos[0] = wrap(lane_numbers(p));
      return pointer_from_lanes(p, fn(i2, a)->tensor);
    };
  }
  // A store, atomic or block pointer needs every lane's offset known.
  void need_known_offsets(const Ref& p, Span at, const std::string& what) {
    if (!p->loaded_offsets.empty())
      in.unsupported(at, what + " at a pointer offset that depends on loaded data (a scatter)");
  }
  // The element a load lane reads at offset `known` + `loaded` (loaded data), as a select over
  // each offset the loaded part can take (memory.cc).
  // `mask`: the lane's mask where it depends on the loaded index (kNoTerm: none), and `other`
  // what a masked-off lane reads.
  TermId gather_lane(const TensorPtr& buf, int64_t known, TermId loaded, int64_t lane, Span at,
                     TermId mask = Value::kNoTerm, TermId other = Value::kNoTerm);

  // TorchState::int32_offsets: how far an int32 offset block reaches into its buffer.
  void note_int32_offset(const Tensor& off, const Tensor& buffer, Span at) {
    int64_t most = 0;
    for (TermId e : off.elems)
      if (is_const(e)) most = std::max(most, std::abs(s.constant_of(e).i));
    auto& seen = st.int32_offsets[in.where(at)];
    seen.max_offset = std::max(seen.max_offset, most);
    int64_t numel = 1, seen_numel = 1;
    for (int64_t d : buffer.shape) numel *= d;
    for (int64_t d : seen.buffer_shape) seen_numel *= d;
    if (seen.buffer_shape.empty() || numel > seen_numel) seen.buffer_shape = buffer.shape;
  }
  // A block of integers ordered against one integer (offs < n_cols, n > offs) is how kernels
  // mask a tail: recorded for the default bound (TorchState::mask_limits).
  void note_mask_limit(const std::string& op, const Ref& a, const Ref& b) {
    if (op != "<" && op != "<=" && op != ">" && op != ">=") return;
    auto block = [](const Ref& v) {
      return v->kind == K::Tensor && v->tensor->numel() > 1 && !torch::is_float(v->tensor->dtype) &&
             v->tensor->dtype != DType::Bool;
    };
    auto note = [&](const TensorPtr& offs, int64_t n) {
      st.mask_limits.insert({n, index_extent(offs)});
      if (auto reach = strided_reach(offs)) st.mask_limits.insert({n, *reach});
    };
    if (block(a) && b->kind == K::Int) note(a->tensor, b->i);
    if (block(b) && a->kind == K::Int) note(b->tensor, a->i);
  }
  // The indices a block of lanes s apart covers with its neighbours (arange(0, B) * s + i, a
  // loop over i < s giving each lane s consecutive indices): B * s, past its extent B. A tail
  // past that reach is a limit of its own: an LLM's KL-div kernel covered 256 x 16 columns a
  // row, and the bound took only the block of 256 around the column count.
  std::optional<int64_t> strided_reach(const TensorPtr& t) const {
    if (t->shape.size() != 1 || t->numel() < 2) return std::nullopt;
    std::vector<int64_t> v;
    for (TermId e : t->elems) {
      if (!is_const(e)) return std::nullopt;
      v.push_back(s.constant_of(e).i);
    }
    const int64_t stride = v[1] - v[0];
    if (stride < 2 || v[0] < 0 || v[0] >= stride) return std::nullopt;
    for (size_t k = 2; k < v.size(); ++k)
      if (v[k] - v[k - 1] != stride) return std::nullopt;
    return static_cast<int64_t>(v.size()) * stride;
  }
  // How many indices a block covers: its distinct values where they are known at this bound,
  // not its lanes. A channel index pid * BLOCK_C + tid // BLOCK_HW over BLOCK_C * BLOCK_HW
  // lanes (or offs[:, None] broadcast over a tile) covers BLOCK_C, where its tail starts.
  int64_t index_extent(const TensorPtr& t) const {
    absl::flat_hash_set<TermId> values;
    for (TermId e : t->elems) {
      if (!is_const(e)) return t->numel();
      values.insert(e);
    }
    return static_cast<int64_t>(values.size());
  }

  // How Triton types an operand next to a pointer: a Python float is fp32, an int int32
  // (to_tensor), a bool int1; anything else is left to the operator's own checks.
  std::optional<OperandType> operand_type(const Ref& v) {
    switch (v->kind) {
      case K::Pointer:
        return OperandType{true, v->tensor->dtype};
      case K::Tensor:
        return OperandType{false, v->tensor->dtype};
      case K::Float:
      case K::InputDependentFloat:
        return OperandType{false, DType::F32};
      case K::Bool:
        return OperandType{false, DType::Bool};
      case K::Int:
        return OperandType{false, v->i == static_cast<int32_t>(v->i) ? DType::I32 : DType::I64};
      default:
        return std::nullopt;
    }
  }

  Ref binary(const std::string& op, const Ref& a, const Ref& b, Span at) {
    if (a->kind == K::Pointer || b->kind == K::Pointer) {
      auto x = operand_type(a), y = operand_type(b);
      if (x && y) check_pointer_operands(in, at, op, *x, *y);
    }
    if (a->kind == K::Pointer && (op == "+" || op == "-"))
      return pointer_offset(a, b, op == "-", at);
    if (b->kind == K::Pointer && op == "+") return pointer_offset(b, a, false, at);
    if (a->kind == K::Pointer || b->kind == K::Pointer)
      in.unsupported(at, "pointer operator " + op);
    note_mask_limit(op, a, b);
    DType out = promote(a, b, in, at);
    // Triton computes / and % of fp16 or bf16 in fp32 and keeps that result (computation_type_
    // impl's div_or_mod: PTX divides no halves); the interpreter agrees.
    if ((op == "/" || op == "%") && (out == DType::F16 || out == DType::BF16)) out = DType::F32;
    TensorPtr x = as_tensor(in, a, at, out), y = as_tensor(in, b, at, out);
    check_broadcast(in, at, x->shape, y->shape);
    bool is_f = torch::is_float(out);
    Op o;
    DType result = out;
    if (op == "+")
      o = Op::Add;
    else if (op == "-")
      o = Op::Sub;
    else if (op == "*")
      o = Op::Mul;
    else if (op == "/")
      o = Op::DivFull, result = is_f ? out : DType::F32;  // div.full.f32: approximate
    else if (op == "//" && !is_f)
      o = Op::DivC;  // C semantics in kernels
    else if (op == "%")
      o = is_f ? Op::FMod : Op::ModC;
    else if (op == "<")
      o = Op::Lt, result = DType::Bool;
    else if (op == "<=")
      o = Op::Le, result = DType::Bool;
    else if (op == ">")
      o = Op::Gt, result = DType::Bool;
    else if (op == ">=")
      o = Op::Ge, result = DType::Bool;
    else if (op == "==")
      o = Op::Eq, result = DType::Bool;
    else if (op == "!=")
      o = Op::Ne, result = DType::Bool;
    else if (op == "&")
      o = out == DType::Bool ? Op::And : Op::BitAnd;
    else if (op == "|")
      o = out == DType::Bool ? Op::Or : Op::BitOr;
    else if (op == "^" && out != DType::Bool)
      o = Op::BitXor;
    else if (op == "<<" && !is_f)
      o = Op::Shl;
    else if (op == ">>" && !is_f)
      o = Op::Shr;
    else
      in.unsupported(at, "operator " + op + " in a kernel");
    DType operand = o == Op::DivFull ? DType::F32 : out;
    DType xd = x->dtype, yd = y->dtype;
    if (!is_f && xd == out && yd == out && !x->strided && !y->strided)  // blocks, not views
      if (TensorPtr r = constant_int_lanes(o, x, y, result, at)) return wrap(r);
    bool fusable = is_f && (o == Op::Add || o == Op::Sub);
    return wrap(map2(
        in, x, y, result,
        [&](TermId p, TermId q) {
          TermId r =
              fold_make(o, {fold(convert(s, p, xd, operand)), fold(convert(s, q, yd, operand))});
          if (fusable && (s.op(p) == Op::Mul || s.op(q) == Op::Mul))
            st.ieee_unfixed.emplace(r, "a*b+c in a kernel (Triton fuses it into one fma)");
          return r;
        },
        at));
  }

  // Index arithmetic whose lanes are all constants (offsets, masks, decoded indices), computed
  // as numbers over the broadcast with a table lookup per result lane: map2's call, fold and
  // broadcast index per lane were most of a conv kernel's interpretation (LLMKernel L1 72).
  // Null where a lane is no constant of its type, or where the evaluator must judge a value
  // (a division by 0, MIN / -1): the general path then computes it, errors included.
  TensorPtr constant_int_lanes(Op o, const TensorPtr& x, const TensorPtr& y, DType result,
                               Span at) {
    // int8 and uint8 are i32 terms that round_to wraps to the byte's range: not here.
    if (x->dtype != DType::I32 && x->dtype != DType::I64 && x->dtype != DType::Bool) return nullptr;
    const ir::Type t = torch::detail::term_type(x->dtype);
    auto values = [&](const Tensor& v, std::vector<int64_t>& out) {
      out.resize(v.elems.size());
      for (size_t k = 0; k < v.elems.size(); ++k) {
        TermId e = v.elems[k];
        if (e == Tensor::kUninit || s.op(e) != Op::Const || s.type(e) != t) return false;
        out[k] = s.constant_of(e).i;
      }
      return true;
    };
    std::vector<int64_t> a, b;
    if (!values(*x, a) || !values(*y, b)) return nullptr;
    auto r = std::make_shared<Tensor>();
    r->shape = torch::detail::broadcast_shapes(in, x->shape, y->shape, at);
    r->dtype = result;
    r->elems.resize(r->numel());
    const size_t n = r->shape.size();
    // Each operand's step per result dimension: 0 where it broadcasts.
    auto steps = [&](const Tensor& v) {
      std::vector<int64_t> st(n, 0);
      int64_t stride = 1;
      for (size_t k = v.shape.size(); k-- > 0;) {
        if (v.shape[k] != 1) st[k + n - v.shape.size()] = stride;
        stride *= v.shape[k];
      }
      return st;
    };
    const std::vector<int64_t> sa = steps(*x), sb = steps(*y);
    std::vector<int64_t> idx(n, 0);
    int64_t ia = 0, ib = 0;
    for (TermId& out : r->elems) {
      out = int_values(o, t, a[ia], b[ib]);
      if (out == kNoConstant) return nullptr;
      for (size_t d = n; d-- > 0;) {  // the odometer: the next index, and both operands' offsets
        ia += sa[d], ib += sb[d];
        if (++idx[d] < r->shape[d]) break;
        ia -= sa[d] * idx[d], ib -= sb[d] * idx[d];
        idx[d] = 0;
      }
    }
    return r;
  }

  // tl.sum's operand: in `dtype` when given, else integers narrower than 32 bits (and masks)
  // widened to int32, as Triton's _pick_sum_dtype does (it picks uint32 for masks and uint8;
  // a block's count of them fits int32 alike). tl.sum(mask) counts the lanes that are on.
  TensorPtr summed_as(const TensorPtr& x, const Ref& dtype, python::Span at) {
    DType to = x->dtype;
    if (dtype && dtype->kind != K::None) {
      if (dtype->kind != K::DType) in.error(at, "tl.sum's dtype must be a dtype");
      torch::require_modelled_dtype(in, dtype, at);
      to = dtype->dtype;
    } else if (x->dtype == DType::Bool || x->dtype == DType::I8 || x->dtype == DType::U8) {
      to = DType::I32;
    }
    if (to == x->dtype) return x;
    return torch::detail::map1(
        in, x, to, [&](TermId e) { return fold(to_dtype(e, x->dtype, to)); }, at);
  }

  // A store converts to the buffer's dtype as Triton does: fp8 saturates (satfinite).
  TermId to_dtype(TermId t, DType from, DType to) {
    if (from == to) return t;
    if (to == DType::E4M3)
      return s.make(Op::CastE4M3Sat, {torch::is_float(from) ? t : convert(s, t, from, DType::F32)});
    if (to == DType::E5M2)
      return s.make(Op::CastE5M2Sat, {torch::is_float(from) ? t : convert(s, t, from, DType::F32)});
    // A float to int8 / uint8: Triton saturates to 16 bits, then keeps the low byte
    // (tests/fixtures/gpu/int8_casts.txt: 40000.0 is -1 in Triton, 64 in torch).
    if ((to == DType::I8 || to == DType::U8) && torch::is_float(from)) {
      bool sign = to == DType::I8;
      auto c = [&](double v) { return s.constant(ir::Constant::of_float(v)); };
      t = s.make(Op::Clamp,
                 {convert(s, t, from, DType::F32), c(sign ? -32768 : 0), c(sign ? 32767 : 65535)});
      return fold(convert(s, t, DType::F32, to));
    }
    return fold(convert(s, t, from, to));
  }

  // ---- memory ----
  // `dependent`, when given, gets each lane's mask term where it depends on loaded data (that
  // lane counts as on; kNoTerm elsewhere); without it such a mask is UNSUPPORTED.
  std::vector<bool> mask_lanes(const Ref& mask, const std::vector<int64_t>& shape, Span at,
                               std::vector<TermId>* dependent = nullptr);
  std::vector<int64_t>& writers(const TensorPtr& t);
  TermId undefined(Span at, const std::string& why, DType dtype);
  Ref load(CallArgs& a);
  // Lanes off the mask take `other` (undefined without it); the rest read memory.
  Ref load_lanes(const Ref& p, const std::vector<bool>& lanes, const TensorPtr& other_t, Span at,
                 const std::vector<TermId>& dependent = {});
  // Appends to r the [m, n] product of the b-th [m, k] matrix of x and [k, n] matrix of y, plus
  // acc's b-th matrix where there is one (tl.dot, batch by batch).
  void dot_matrix(const Tensor& x, const Tensor& y, const Tensor* acc, int64_t b, int64_t m,
                  int64_t k, int64_t n, Tensor& r);
  Ref store(CallArgs& a);
  // ---- block pointers: tl.make_block_ptr(base, shape, strides, offsets, block_shape, order) ----
  Ref block_ptr_class;
  bool nested_launch_ = false;     // a launch the autotuning model makes: no tuning of its own
  bool last_reads_prior_ = false;  // the last launch's Launch::reads_prior
  // A launch run again with the same arguments on memory that holds the same terms (an
  // autotuner's warm-up and benchmark runs, a hand-rolled timing loop) writes what it wrote
  // before: its result, by a key of the kernel, its constants, grid and arguments, with every
  // pointed-to tensor's elements before (compared whole on a hit) and after. Only launches
  // that read nothing they write, made no undefined value and reported nothing are kept.
  struct LaunchResult {
    std::vector<std::vector<TermId>> before, after;  // per pointer argument, in order
    bool finished = false;  // run to the end (a launch with no pointer argument keeps no after)
  };
  absl::flat_hash_map<std::string, LaunchResult> launch_memo_;
  size_t memo_elements_ = 0;  // the elements launch_memo_ holds, bounded
  // Per autotuned kernel, what its latest benchmarking skipped (kept for the launches whose
  // key is cached).
  absl::flat_hash_map<const python::Value*, std::vector<std::string>> skipped_configs_;
  // The key, and the pointer arguments' tensors in order; none for an argument it cannot key.
  std::optional<std::string> launch_key(const Ref& fn, const std::string& consts, const Launch& l,
                                        const CallArgs& call, std::vector<TensorPtr>& pointed);
  bool replay_launch(const std::string& key, const std::vector<TensorPtr>& pointed);
  absl::flat_hash_map<TermId, bool> closed_;                           // decided_by_floats's memos
  absl::flat_hash_map<std::pair<uint64_t, uint32_t>, TermId> folded_;  // fold_make's memo
  static constexpr TermId kNoConstant = ~TermId{0};
  std::vector<TermId> small_i32_, small_i64_;        // int_constant's, by value
  std::vector<TermId> negative_i32_, negative_i64_;  // and by -value
  TermId bools_[2] = {kNoConstant, kNoConstant};
  // A launch raised after some of its programs had stored: on the GPU a kernel raises only as it
  // compiles, before any store, and keq cannot undo them, so a `try` that would catch this is
  // UNSUPPORTED (Interp's in_kernel hook), as while the launch runs.
  bool raised_after_stores_ = false;
  // The functions under @triton.jit: any other function a kernel calls is a plain helper.
  absl::flat_hash_set<const python::Value*> jit_bodies_;
  absl::flat_hash_set<const python::Value*> references_checked_;  // kernels that passed it
  std::string plain_helper_;  // the outermost plain helper a kernel called, named in errors
  absl::flat_hash_map<TermId, ir::Interval> intervals_;
  bool is_block_ptr(const Ref& v) const;
  int64_t int_of(const Ref& v, Span at);
  std::vector<int64_t> ints_of(const Ref& v, Span at);
  static Ref int_tuple(const std::vector<int64_t>& v);  // ints_of's inverse
  Ref make_block_ptr(const Ref& base, std::vector<int64_t> shape, std::vector<int64_t> strides,
                     std::vector<int64_t> offsets, std::vector<int64_t> block, Span at);
  // The pointer block a block pointer addresses, and which lanes the boundary check keeps: a
  // lane outside the parent shape in a checked dimension is not accessed. Unchecked dimensions
  // address memory as the strides say (out of the buffer: a finding at the access).
  Ref block_lanes(const Ref& bp, const Ref& check, Span at, std::vector<bool>& lanes);
  Ref load_block_ptr(const Ref& bp, CallArgs& a);
  Ref dtype_named(const Ref& name, Span at);

  static std::vector<int64_t> unflatten(int64_t k, const std::vector<int64_t>& shape);
  // The associative op a combine_fn computes (tl.associative_scan, tl.reduce), or UNSUPPORTED.
  Op combine_op(const Ref& fn, DType dtype, Span at);
  // Combines `parts` (in order) with an associative op: n-ary for + and *, as tl.sum is.
  TermId combine(Op op, std::vector<TermId> parts);
  // The dimensions a reduction's `axis` names: every one for None or no axis.
  std::vector<int64_t> reduced_dims(const Ref& axis, const TensorPtr& x, Span at);
  // An inclusive scan of x along `axis` with an associative op, from the end when `reverse`.
  TensorPtr scan(const TensorPtr& x, int64_t axis, Op op, bool reverse);

  void install_language(const Ref& tl, const Ref& triton);  // language.cc
  void install_reductions_and_atomics(const Ref& tl);       // reductions.cc
  void install_descriptors(const Ref& tl);                  // descriptors.cc
  // ---- TMA tensor descriptors (descriptors.cc) ----
  Ref descriptor_class, host_descriptor_class;
  bool allocator_set_ = false;  // triton.set_allocator was called on the host
  Ref make_tensor_descriptor(CallArgs& a);
  Ref tensor_descriptor(const Ref& base, const std::vector<int64_t>& shape,
                        const std::vector<int64_t>& strides, const std::vector<int64_t>& block,
                        const std::string& padding, Span at);
  Ref kernel_descriptor(const Ref& host, Span at);  // a host TensorDescriptor as an argument
  // tl.argmax/argmin, and the indices of tl.max/min(return_indices=True), over `axis`.
  TensorPtr arg_reduce(const TensorPtr& x, const Ref& axis, bool is_max, const Ref& tie_break_left,
                       bool keep_dims, Span at);              // reductions.cc
  void install_decorators(const Ref& tl, const Ref& triton);  // decorators.cc
  // Shared by the tl.* definitions.
  // Each raises in a plain helper a kernel called, as Triton's builtins do there.
  void define_tl(const Ref& tl, const std::string& name, python::BuiltinFn fn) {
    (*tl->attrs)[name] =
        python::builtin("tl." + name, [this, fn = std::move(fn)](Interp& i2, CallArgs& a) {
          refuse_in_plain_helper(a.at);
          return fn(i2, a);
        });
  }
  // Triton's compiler calls a function without @triton.jit as Python: its builtins (tl.*, a
  // block's operators and methods) need the compiler's `_semantic` and raise there, so the
  // kernel does not compile. TRITON_INTERPRET=1 runs such helpers (measured:
  // tests/fixtures/measure/plain_python_in_kernel.py).
  void refuse_in_plain_helper(Span at) {
    if (in.in_plain_kernel_helper())
      in.raise(at,
               "ValueError: Did you forget to add @triton.jit ? (`_semantic` argument must be "
               "provided outside of JIT functions.) (in " +
                   plain_helper_ +
                   ", which a kernel calls without @triton.jit: Triton's compiler runs it as "
                   "Python, where its operations raise)");
  }
  // The propagate_nan argument at position `pos`: false for NONE or absent, true for ALL.
  bool propagates_nan(CallArgs& a, size_t pos) {
    Ref v = a.get(pos, "propagate_nan");
    if (!v || v->kind == K::None) return false;
    int64_t mode = in.to_int(v, a.at);
    if (mode != 0 && mode != 0xFFFF)
      in.error(a.at, "propagate_nan takes tl.PropagateNan.NONE or ALL");
    return mode == 0xFFFF;
  }
  void require_kernel(CallArgs& a, const std::string& what) {
    if (!run) in.error(a.at, what + " outside a kernel");
  }
};

}  // namespace keq::triton::impl
