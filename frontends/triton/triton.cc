#include "frontends/triton/triton.h"

#include <absl/container/flat_hash_map.h>

#include "frontends/torch/tensor_ops.h"
#include "frontends/triton/compile_checks.h"

namespace keq::triton {

using namespace torch::detail;
using python::CallArgs;
using python::Ref;
using python::Value;
using K = Value::Kind;
using ir::Op;
using ir::TermId;

namespace {

using Attrs = absl::flat_hash_map<std::string, Ref>;

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

  Ref module(const std::string& name) {
    auto m = std::make_shared<Value>();
    m->kind = K::Module;
    m->s = name;
    m->attrs = std::make_shared<Attrs>();
    return m;
  }
  Ref wrap(TensorPtr t) { return python::tensor_value(std::move(t)); }
  TermId mk(Op op, std::initializer_list<TermId> kids) { return s.make(op, kids); }
  void finding(Span at, const std::string& what) {
    st.findings.push_back(in.where(at) + ": " + what +
                          (run ? " (" + run->program_str() + ")" : ""));
  }
  bool is_const(TermId t) const { return s.op(t) == Op::Const; }
  // Index arithmetic is concrete at a bound: integer and bool blocks fold as they are built.
  TermId fold(TermId t) {
    if (s.op(t) == Op::Const || s.op(t) == Op::Var) return t;
    std::vector<ir::IeeeValue> args;
    for (TermId c : s.children(t)) {
      if (!is_const(c)) return t;
      args.push_back(ir::IeeeValue::of(s.constant_of(c)));
    }
    if (s.type(t) == ir::Type::F32) return t;  // float values stay terms
    try {
      return s.constant(ir::eval_ieee(s.op(t), args).to_constant());
    } catch (const ir::EvalError& e) {
      in.error(Span{}, e.what());
    }
  }
  int64_t const_int(TermId t, Span at, const std::string& what) {
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
  Ref make_kernel(const Ref& fn) {
    auto attrs = std::make_shared<Attrs>();
    (*attrs)["fn"] = fn;
    auto inst = std::make_shared<Value>();
    inst->kind = K::Instance;
    inst->cls = jit_class;
    inst->attrs = attrs;
    return inst;
  }
  Ref jit_class;

  Ref launch(const Ref& kernel, const Ref& grid, CallArgs& a) {
    if (run) in.unsupported(a.at, "a kernel launch inside a kernel");
    Ref fn = (*kernel->attrs)["fn"];
    // Constexprs and launch options come as keywords; an autotuned kernel adds its config's.
    Attrs meta;
    for (auto& [k, v] : a.kw)
      if (k != "num_warps" && k != "num_stages" && k != "num_ctas") meta[k] = v;
    if (auto it = kernel->attrs->find("configs"); it != kernel->attrs->end())
      apply_config(fn, it->second->items, a.at, meta);
    if (auto it = kernel->attrs->find("heuristics"); it != kernel->attrs->end())
      apply_heuristics(fn, it->second, a, meta);
    Ref g = grid;
    if (g->kind == K::Function || g->kind == K::Builtin) {
      auto d = std::make_shared<Value>();
      d->kind = K::Dict;
      for (auto& [k, v] : meta) d->dict.push_back({python::string(k), v});
      CallArgs c;
      c.at = a.at;
      c.pos = {d};
      g = in.call(g, c);
    }
    std::vector<Ref> dims =
        g->kind == K::Tuple || g->kind == K::List ? g->items : std::vector<Ref>{g};
    if (dims.empty() || dims.size() > 3) in.error(a.at, "a grid has 1 to 3 dimensions");
    Launch l;
    for (size_t d = 0; d < dims.size(); ++d) l.grid[d] = in.to_int(dims[d], a.at);
    check_grid(in, a.at, l.grid);
    record_block_sizes(fn, a.pos, meta);
    std::string consts;
    for (const auto& [k, v] : std::map<std::string, Ref>(meta.begin(), meta.end()))
      consts += (consts.empty() ? "" : ", ") + k + "=" + in.repr(v);
    st.launches.push_back(in.where(a.at) + ": " + fn->s + " grid (" + std::to_string(l.grid[0]) +
                          ", " + std::to_string(l.grid[1]) + ", " + std::to_string(l.grid[2]) +
                          ")" + (consts.empty() ? "" : " with " + consts));
    CallArgs call;
    call.at = a.at;
    std::vector<bool> constexpr_param = constexpr_parameters(fn);
    for (size_t k = 0; k < a.pos.size(); ++k) {
      const Ref& v = a.pos[k];
      if (v->kind == K::Int && (k >= constexpr_param.size() || !constexpr_param[k])) {
        call.pos.push_back(runtime_int(v->i));  // a runtime scalar, not a constexpr
        continue;
      }
      if (v->kind == K::Tensor && v->tensor->strided)
        in.unsupported(a.at,
                       "a tensor whose torch layout is not contiguous (a permute, transpose, "
                       "expand or slice view) passed to a kernel: keq models contiguous "
                       "buffers only; pass .contiguous()");
      if (v->kind == K::Tensor) {
        auto p = std::make_shared<Value>();
        p->kind = K::Pointer;
        p->tensor = v->tensor;
        p->offsets = {0};
        call.pos.push_back(p);
      } else {
        call.pos.push_back(v);
      }
    }
    for (auto& [k, v] : meta) call.kw.push_back({k, v});
    run = &l;
    for (l.pid[2] = 0; l.pid[2] < l.grid[2]; ++l.pid[2])
      for (l.pid[1] = 0; l.pid[1] < l.grid[1]; ++l.pid[1])
        for (l.pid[0] = 0; l.pid[0] < l.grid[0]; ++l.pid[0]) {
          l.stored_lane.clear();
          CallArgs c = call;
          in.call(fn, c);
        }
    run = nullptr;
    return python::none();
  }

  // For each positional parameter of a @triton.jit function: annotated tl.constexpr.
  std::vector<bool> constexpr_parameters(const Ref& fn) const {
    std::vector<bool> out;
    if (fn->kind != K::Function) return out;
    const python::Tree& t = *fn->fn->tree;
    const python::Node& def = t.at(fn->fn->def);
    if (def.kind != python::NodeKind::FunctionDef) return out;
    for (python::NodeId p : t.at(def.kids[1]).kids) {
      const python::Node& param = t.at(p);
      if (param.flags != 0) continue;
      python::NodeId ann = param.kids.empty() ? python::kNoNode : param.kids[0];
      bool is_constexpr = false;
      if (ann != python::kNoNode) {
        const python::Node& a = t.at(ann);
        is_constexpr = a.text == "constexpr";  // tl.constexpr (an Attribute) or constexpr
      }
      out.push_back(is_constexpr);
    }
    return out;
  }

  void record_block_sizes(const Ref& fn, const std::vector<Ref>& pos, const Attrs& meta) {
    auto block_like = [](const Ref& v) {
      return v->kind == K::Int && v->i >= 2 && (v->i & (v->i - 1)) == 0;
    };
    for (const auto& [k, v] : meta)
      if (block_like(v)) st.block_sizes.insert(v->i);
    std::vector<std::string> names = in.parameter_names(fn);
    for (size_t k = 0; k < pos.size() && k < names.size(); ++k)
      if (names[k].find("BLOCK") != std::string::npos && block_like(pos[k]))
        st.block_sizes.insert(pos[k]->i);
  }

  // The autotuner may pick any config, so each is a configuration of its own (verify runs them
  // all); this launch runs the one chosen in the state.
  void apply_config(const Ref& fn, const std::vector<Ref>& configs, Span at, Attrs& meta) {
    if (configs.empty()) in.error(at, "@triton.autotune with no configs");
    size_t k = std::min(st.autotune_choice, configs.size() - 1);
    st.autotune_configs = std::max(st.autotune_configs, configs.size());
    const Ref& cfg = configs[k];
    std::string desc;
    for (auto& [key, v] : (*cfg->attrs)["kwargs"]->dict) {
      meta[key->s] = v;
      desc += (desc.empty() ? "" : ", ") + key->s + "=" + in.repr(v);
    }
    for (const char* opt : {"num_warps", "num_stages"})
      if (auto o = cfg->attrs->find(opt); o != cfg->attrs->end() && o->second->kind != K::None)
        desc += std::string(", ") + opt + "=" + in.repr(o->second);
    desc = fn->s + " config " + std::to_string(k + 1) + " of " + std::to_string(configs.size()) +
           " (" + desc + ")";
    if (std::find(st.autotune_used.begin(), st.autotune_used.end(), desc) == st.autotune_used.end())
      st.autotune_used.push_back(desc);
  }

  // @triton.heuristics({"NAME": lambda args: ...}): each value is computed at launch from the
  // kernel's arguments by name (constexprs from the config included), in the dict's order.
  void apply_heuristics(const Ref& fn, const Ref& rules, CallArgs& a, Attrs& meta) {
    std::vector<std::string> names = in.parameter_names(fn);
    auto args = std::make_shared<Value>();
    args->kind = K::Dict;
    for (size_t k = 0; k < a.pos.size() && k < names.size(); ++k)
      args->dict.push_back({python::string(names[k]), a.pos[k]});
    for (auto& [k, v] : meta) args->dict.push_back({python::string(k), v});
    for (auto& [key, rule] : rules->dict) {
      CallArgs c;
      c.at = a.at;
      c.pos = {args};
      Ref v = in.call(rule, c);
      meta[key->s] = v;
      args->dict.push_back({key, v});
    }
  }

  // ---- block arithmetic, with Triton's semantics inside kernels ----
  Ref pointer_offset(const Ref& p, const Ref& by, bool minus, Span at) {
    TensorPtr off = as_tensor(in, by, at, DType::I32);
    check_pointer_offset(in, at, p->tensor->dtype, off->dtype);
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
      int64_t o = const_int(off->elems[broadcast_index(*off, shape, idx)], at, "a pointer offset");
      r->offsets.push_back(p->offsets[broadcast_index(base, shape, idx)] + (minus ? -o : o));
      for (size_t d = idx.size(); d-- > 0;) {
        if (++idx[d] < shape[d]) break;
        idx[d] = 0;
      }
    }
    return r;
  }

  Ref binary(const std::string& op, const Ref& a, const Ref& b, Span at) {
    if (a->kind == K::Pointer && (op == "+" || op == "-"))
      return pointer_offset(a, b, op == "-", at);
    if (b->kind == K::Pointer && op == "+") return pointer_offset(b, a, false, at);
    if (a->kind == K::Pointer || b->kind == K::Pointer)
      in.unsupported(at, "pointer operator " + op);
    DType out = promote(a, b, in, at);
    TensorPtr x = as_tensor(in, a, at, out), y = as_tensor(in, b, at, out);
    check_broadcast(in, at, x->shape, y->shape);
    bool is_f = python::is_float(out);
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
    bool fusable = is_f && (o == Op::Add || o == Op::Sub);
    return wrap(map2(
        in, x, y, result,
        [&](TermId p, TermId q) {
          TermId r = fold(s.make(o, {convert(s, p, xd, operand), convert(s, q, yd, operand)}));
          if (fusable && (s.op(p) == Op::Mul || s.op(q) == Op::Mul))
            st.ieee_unfixed.emplace(r, "a*b+c in a kernel (Triton fuses it into one fma)");
          return r;
        },
        at));
  }

  // A store converts to the buffer's dtype as Triton does: fp8 saturates (satfinite).
  TermId to_dtype(TermId t, DType from, DType to) {
    if (from == to) return t;
    if (to == DType::E4M3)
      return s.make(Op::CastE4M3Sat,
                    {python::is_float(from) ? t : convert(s, t, from, DType::F32)});
    if (to == DType::E5M2)
      return s.make(Op::CastE5M2Sat,
                    {python::is_float(from) ? t : convert(s, t, from, DType::F32)});
    return fold(convert(s, t, from, to));
  }

  // ---- memory ----
  std::vector<bool> mask_lanes(const Ref& mask, const std::vector<int64_t>& shape, Span at) {
    int64_t n = 1;
    for (int64_t d : shape) n *= d;
    if (!mask || mask->kind == K::None) return std::vector<bool>(n, true);
    if (mask->kind == K::Bool) return std::vector<bool>(n, mask->b);
    if (mask->kind != K::Tensor) in.error(at, "a mask must be a boolean block");
    TensorPtr m = mask->tensor;
    std::vector<bool> lanes;
    auto& seen = st.mask_coverage[in.where(at)];
    std::vector<int64_t> idx(shape.size(), 0);
    for (int64_t k = 0; k < n; ++k) {
      lanes.push_back(const_int(m->elems[broadcast_index(*m, shape, idx)], at, "a mask") != 0);
      (lanes.back() ? seen.on : seen.off) = true;
      for (size_t d = idx.size(); d-- > 0;) {
        if (++idx[d] < shape[d]) break;
        idx[d] = 0;
      }
    }
    return lanes;
  }
  std::vector<int64_t>& writers(const TensorPtr& t) {
    auto [it, fresh] = run->writer.try_emplace(t.get());
    if (fresh) it->second.assign(t->elems.size(), -1);
    return it->second;
  }
  TermId undefined(Span at, const std::string& why) {
    // A lane with no defined value: if it reaches an output, that is a finding (checked after
    // forward).
    std::string name =
        "undef@" + in.where(at) + "#" + std::to_string(undef_count++) + "[" + why + "]";
    return s.variable(name);
  }
  Ref load(CallArgs& a) {
    Ref p = a.get(0, "pointer");
    if (p && is_block_ptr(p)) return load_block_ptr(p, a);
    if (!p || p->kind != K::Pointer)
      in.unsupported(a.at, "tl.load of something that is not a pointer block");
    std::vector<bool> lanes = mask_lanes(a.get(1, "mask"), p->shape, a.at);
    Ref other = a.get(2, "other");
    TensorPtr other_t =
        other && other->kind != K::None ? as_tensor(in, other, a.at, p->tensor->dtype) : nullptr;
    return load_lanes(p, lanes, other_t, a.at);
  }
  // Lanes off the mask take `other` (undefined without it); the rest read memory.
  Ref load_lanes(const Ref& p, const std::vector<bool>& lanes, const TensorPtr& other_t, Span at) {
    const TensorPtr& buf = p->tensor;
    auto r = std::make_shared<Tensor>();
    r->shape = p->shape;
    r->dtype = buf->dtype;
    std::vector<int64_t>& w = writers(buf);
    for (size_t k = 0; k < lanes.size(); ++k) {
      if (!lanes[k]) {
        r->elems.push_back(
            other_t
                ? convert(
                      s,
                      other_t->elems[broadcast_index(*other_t, p->shape, unflatten(k, p->shape))],
                      other_t->dtype, buf->dtype)
                : undefined(at, "masked lane without other="));
        continue;
      }
      int64_t off = p->offsets[k];
      bool oob = off < 0 || off >= static_cast<int64_t>(buf->elems.size());
      if (oob || (w[off] >= 0 && w[off] != run->program()))
        need_unconditional(at, "a load out of bounds or racing with another program");
      if (!oob && conditional_other(w[off], run->program()))
        in.unsupported(at,
                       "a load of an element another program stores under a condition "
                       "that depends on loaded data");
      if (oob) {
        finding(at, "load out of bounds: lane " + std::to_string(k) + " reads element " +
                        std::to_string(off) + " of a buffer of " +
                        std::to_string(buf->elems.size()));
        r->elems.push_back(undefined(at, "out-of-bounds lane"));
        continue;
      }
      if (w[off] >= 0 && w[off] != run->program())
        finding(at, "read-write race: element " + std::to_string(off) +
                        " was stored by another program of this launch");
      if (auto m = run->stored_lane.find({buf.get(), off});
          m != run->stored_lane.end() &&
          (m->second.shape != p->shape || m->second.lane != int64_t(k)))
        finding(at, "intra-program hazard: lane " + std::to_string(k) + " reads element " +
                        std::to_string(off) +
                        ", which another lane of this program stored with "
                        "no tl.debug_barrier between");
      TermId e = buf->elems[off];
      r->elems.push_back(e == Tensor::kUninit ? undefined(at, "uninitialized memory") : e);
    }
    return wrap(r);
  }
  Ref store(CallArgs& a) {
    Ref p = a.get(0, "pointer");
    std::vector<bool> lanes;
    if (p && is_block_ptr(p)) {
      p = block_lanes(p, a.get(3, "boundary_check"), a.at, lanes);
    } else {
      if (!p || p->kind != K::Pointer)
        in.unsupported(a.at, "tl.store to something that is not a pointer block");
      lanes = mask_lanes(a.get(2, "mask"), p->shape, a.at);
    }
    const TensorPtr& buf = p->tensor;
    TensorPtr v = as_tensor(in, a.get(1, "value"), a.at, buf->dtype);
    std::vector<int64_t>& w = writers(buf);
    for (size_t k = 0; k < lanes.size(); ++k) {
      if (!lanes[k]) continue;
      int64_t off = p->offsets[k];
      bool oob = off < 0 || off >= static_cast<int64_t>(buf->elems.size());
      if (!oob && conditional_other(w[off], run->program()))
        in.unsupported(a.at,
                       "a store to an element another program stores under a condition "
                       "that depends on loaded data");
      TermId e = v->elems[broadcast_index(*v, p->shape, unflatten(k, p->shape))];
      if (!path.empty()) {  // the store happens only where the conditions hold
        if (oob || buf->elems[off] == Tensor::kUninit || (w[off] >= 0 && w[off] != run->program()))
          need_unconditional(a.at, "a store out of bounds, to memory nothing wrote, or racing");
        w[off] = -(run->program() + 2);
        buf->elems[off] =
            s.make(Op::Select, {path_guard(), to_dtype(e, v->dtype, buf->dtype), buf->elems[off]});
        continue;
      }
      if (oob) {
        finding(a.at, "store out of bounds: lane " + std::to_string(k) + " writes element " +
                          std::to_string(off) + " of a buffer of " +
                          std::to_string(buf->elems.size()));
        continue;
      }
      if (w[off] >= 0 && w[off] != run->program())
        finding(a.at, "write-write race: element " + std::to_string(off) +
                          " is stored by several programs of this launch");
      w[off] = run->program();
      run->stored_lane[{buf.get(), off}] = {p->shape, static_cast<int64_t>(k)};
      buf->elems[off] = to_dtype(e, v->dtype, buf->dtype);
    }
    return python::none();
  }
  // ---- block pointers: tl.make_block_ptr(base, shape, strides, offsets, block_shape, order) ----
  Ref block_ptr_class;
  bool is_block_ptr(const Ref& v) const {
    return v->kind == K::Instance && v->cls == block_ptr_class;
  }
  int64_t int_of(const Ref& v, Span at) {
    if (v->kind == K::Tensor && v->tensor->numel() == 1)
      return const_int(v->tensor->elems[0], at, "a block pointer's shape, stride or offset");
    return in.to_int(v, at);
  }
  std::vector<int64_t> ints_of(const Ref& v, Span at) {
    std::vector<int64_t> out;
    for (const Ref& x : in.to_sequence(v, at)) out.push_back(int_of(x, at));
    return out;
  }
  Ref make_block_ptr(const Ref& base, std::vector<int64_t> shape, std::vector<int64_t> strides,
                     std::vector<int64_t> offsets, std::vector<int64_t> block, Span at) {
    if (!base || base->kind != K::Pointer || base->offsets.size() != 1)
      in.error(at, "tl.make_block_ptr needs a scalar pointer as base");
    size_t n = shape.size();
    if (strides.size() != n || offsets.size() != n || block.size() != n)
      in.error(at, "tl.make_block_ptr: shape, strides, offsets and block_shape differ in rank");
    auto attrs = std::make_shared<Attrs>();
    auto ints = [](const std::vector<int64_t>& v) {
      std::vector<Ref> items;
      for (int64_t x : v) items.push_back(python::integer(x));
      return python::tuple(items);
    };
    (*attrs)["base"] = base;
    (*attrs)["shape"] = ints(shape);
    (*attrs)["strides"] = ints(strides);
    (*attrs)["offsets"] = ints(offsets);
    (*attrs)["block_shape"] = ints(block);
    auto v = std::make_shared<Value>();
    v->kind = K::Instance;
    v->cls = block_ptr_class;
    v->attrs = attrs;
    return v;
  }
  // The pointer block a block pointer addresses, and which lanes the boundary check keeps: a
  // lane outside the parent shape in a checked dimension is not accessed. Unchecked dimensions
  // address memory as the strides say (out of the buffer: a finding at the access).
  Ref block_lanes(const Ref& bp, const Ref& check, Span at, std::vector<bool>& lanes) {
    auto field = [&](const char* f) { return ints_of((*bp->attrs)[f], at); };
    std::vector<int64_t> shape = field("shape"), strides = field("strides"),
                         offsets = field("offsets"), block = field("block_shape");
    std::vector<bool> checked(shape.size(), false);
    if (check && check->kind != K::None)
      for (int64_t d : ints_of(check, at)) {
        if (d < 0 || d >= static_cast<int64_t>(shape.size()))
          in.error(at, "boundary_check names dimension " + std::to_string(d));
        checked[d] = true;
      }
    const Ref& base = (*bp->attrs)["base"];
    auto p = std::make_shared<Value>();
    p->kind = K::Pointer;
    p->tensor = base->tensor;
    p->shape = block;
    int64_t n = 1;
    for (int64_t b : block) n *= b;
    auto& seen = st.mask_coverage[in.where(at)];
    for (int64_t k = 0; k < n; ++k) {
      std::vector<int64_t> idx = unflatten(k, block);
      int64_t off = base->offsets[0];
      bool inside = true;
      for (size_t d = 0; d < block.size(); ++d) {
        int64_t c = offsets[d] + idx[d];
        off += c * strides[d];
        if (checked[d] && (c < 0 || c >= shape[d])) inside = false;
      }
      p->offsets.push_back(off);
      lanes.push_back(inside);
      (inside ? seen.on : seen.off) = true;
    }
    return p;
  }
  Ref load_block_ptr(const Ref& bp, CallArgs& a) {
    if (a.get(1, "mask") || a.get(2, "other"))
      in.error(a.at, "tl.load of a block pointer takes boundary_check=, not mask= or other=");
    std::vector<bool> lanes;
    Ref p = block_lanes(bp, a.get(3, "boundary_check"), a.at, lanes);
    Ref pad = a.get(4, "padding_option");
    std::string option = pad && pad->kind == K::Str ? pad->s : "";
    TensorPtr other_t;  // "": lanes off the boundary are undefined
    if (option == "zero" || option == "nan") {
      other_t = std::make_shared<Tensor>();
      other_t->dtype = p->tensor->dtype;
      other_t->elems = {constant(s, other_t->dtype, option == "zero" ? 0.0 : std::nan(""))};
    } else if (!option.empty()) {
      in.error(a.at, "padding_option is \"\", \"zero\" or \"nan\"");
    }
    return load_lanes(p, lanes, other_t, a.at);
  }

  static std::vector<int64_t> unflatten(int64_t k, const std::vector<int64_t>& shape) {
    std::vector<int64_t> idx(shape.size());
    for (size_t d = shape.size(); d-- > 0;) {
      idx[d] = k % shape[d];
      k /= shape[d];
    }
    return idx;
  }

  void install_language(const Ref& tl, const Ref& triton);
};

void Triton::install_language(const Ref& tl, const Ref& triton) {
  auto& t = *tl->attrs;
  auto def = [&](const std::string& name, python::BuiltinFn fn) {
    t[name] = python::builtin("tl." + name, std::move(fn));
  };
  auto need_kernel = [this](CallArgs& a, const std::string& what) {
    if (!run) in.error(a.at, what + " outside a kernel");
  };
  def("program_id", [this, need_kernel](Interp&, CallArgs& a) {
    need_kernel(a, "tl.program_id");
    int64_t axis = in.to_int(a.get(0, "axis"), a.at);
    if (axis < 0 || axis > 2) in.error(a.at, "axis must be 0, 1 or 2");
    return runtime_int(run->pid[axis]);  // a runtime value in Triton, never a constexpr
  });
  def("num_programs", [this, need_kernel](Interp&, CallArgs& a) {
    need_kernel(a, "tl.num_programs");
    int64_t axis = in.to_int(a.get(0, "axis"), a.at);
    if (axis < 0 || axis > 2) in.error(a.at, "axis must be 0, 1 or 2");
    return runtime_int(run->grid[axis]);
  });
  def("arange", [this](Interp&, CallArgs& a) {
    if (!a.get(0, "start") || !a.get(1, "end")) in.error(a.at, "tl.arange takes start and end");
    check_arange(in, a.at, a.get(0, "start"), a.get(1, "end"));
    int64_t lo = in.to_int(a.get(0, "start"), a.at), hi = in.to_int(a.get(1, "end"), a.at);
    auto r = std::make_shared<Tensor>();
    r->dtype = DType::I32;
    for (int64_t v = lo; v < hi; ++v)
      r->elems.push_back(s.constant(ir::Constant::of_int(ir::Type::I32, v)));
    r->shape = {hi - lo};
    return wrap(r);
  });
  auto dtype_of = [this](const Ref& d, Span at) {
    if (!d || d->kind == K::None) return DType::F32;
    if (d->kind != K::DType) in.error(at, "expected a tl dtype");
    return d->dtype;
  };
  // A block shape, checked as Triton checks it before anything is allocated.
  auto shape_of = [this](const Ref& v, Span at) {
    if (!v) in.error(at, "a block shape is missing");
    std::vector<Ref> dims =
        v->kind == K::Tuple || v->kind == K::List ? v->items : std::vector<Ref>{v};
    check_block_shape(in, at, dims);
    std::vector<int64_t> shape;
    for (const Ref& x : dims) shape.push_back(in.to_int(x, at));
    return shape;
  };
  def("zeros", [this, dtype_of, shape_of](Interp&, CallArgs& a) {
    auto r = std::make_shared<Tensor>();
    r->shape = shape_of(a.get(0, "shape"), a.at);
    r->dtype = dtype_of(a.get(1, "dtype"), a.at);
    r->elems.assign(r->numel(), constant(s, r->dtype, 0));
    return wrap(r);
  });
  def("full", [this, dtype_of, shape_of](Interp&, CallArgs& a) {
    auto r = std::make_shared<Tensor>();
    r->shape = shape_of(a.get(0, "shape"), a.at);
    r->dtype = dtype_of(a.get(2, "dtype"), a.at);
    r->elems.assign(r->numel(), constant(s, r->dtype, in.to_float(a.get(1, "value"), a.at)));
    return wrap(r);
  });
  def("load", [this, need_kernel](Interp&, CallArgs& a) {
    need_kernel(a, "tl.load");
    return load(a);
  });
  def("store", [this, need_kernel](Interp&, CallArgs& a) {
    need_kernel(a, "tl.store");
    return store(a);
  });
  def("where", [this](Interp&, CallArgs& a) {
    TensorPtr c = as_tensor(in, a.pos.at(0), a.at, DType::Bool);
    DType out = promote(a.pos.at(1), a.pos.at(2), in, a.at);
    if (out == DType::I64 && a.pos[1]->kind != K::Tensor && a.pos[2]->kind != K::Tensor)
      out = DType::I32;  // Triton types a Python int that fits as int32
    TensorPtr x = as_tensor(in, a.pos[1], a.at, out), y = as_tensor(in, a.pos[2], a.at, out);
    DType xd = x->dtype, yd = y->dtype;
    return wrap(map3(
        in, c, x, y, out,
        [&](TermId p, TermId q, TermId r) {
          return fold(s.make(Op::Select, {p, convert(s, q, xd, out), convert(s, r, yd, out)}));
        },
        a.at));
  });
  // tl.maximum and tl.minimum promote their operands as arithmetic does.
  for (auto [spelled, op] : ir::ops_spelled("tl")) {
    if (!ir::op_info(op).is_extremum()) continue;
    Op o = op;
    std::string name(spelled);
    def(name, [this, o](Interp&, CallArgs& a) {  // maxnum: the non-NaN operand wins (measured)
      DType out = promote(a.pos.at(0), a.pos.at(1), in, a.at);
      TensorPtr x = as_tensor(in, a.pos[0], a.at, out), y = as_tensor(in, a.pos[1], a.at, out);
      DType xd = x->dtype, yd = y->dtype;
      return wrap(map2(
          in, x, y, out,
          [&](TermId p, TermId q) {
            return fold(s.make(o, {convert(s, p, xd, out), convert(s, q, yd, out)}));
          },
          a.at));
    });
  }
  // tl.*, tl.math.* and libdevice share one table: tl.sqrt is approximate (sqrt.approx.f32),
  // sqrt_rn and libdevice's sqrt are correctly rounded; libdevice's rint rounds half to even.
  auto math = [this](const std::string& where, Op o, size_t arity) {
    return python::builtin(where, [this, where, o, arity](Interp&, CallArgs& a) {
      std::vector<TensorPtr> xs;
      DType out = DType::F32;
      for (size_t k = 0; k < arity; ++k) {
        xs.push_back(as_tensor(in, a.pos.at(k), a.at, DType::F32));
        if (python::is_float(xs[k]->dtype)) out = xs[k]->dtype;
      }
      if (!python::is_float(out) && o != Op::Abs) in.unsupported(a.at, where + " of integers");
      auto op = [&](std::initializer_list<TermId> kids) {
        std::vector<TermId> v;
        size_t k = 0;
        for (TermId e : kids) v.push_back(convert(s, e, xs[k++]->dtype, out));
        return fold(s.make(o, v));
      };
      if (arity == 1)
        return wrap(map1(
            in, xs[0], out, [&](TermId e) { return op({e}); }, a.at));
      if (arity == 2)
        return wrap(map2(
            in, xs[0], xs[1], out,
            [&](TermId p, TermId q) {
              return op({p, q});
            },
            a.at));
      return wrap(map3(
          in, xs[0], xs[1], xs[2], out,
          [&](TermId p, TermId q, TermId r) {
            return op({p, q, r});
          },
          a.at));
    });
  };
  auto math_module = module("triton.language.math");
  for (auto [spelled, op] : ir::ops_spelled("tl")) {
    if (ir::op_info(op).is_extremum()) continue;
    std::string name(spelled);
    size_t arity = ir::op_info(op).arity;
    t[name] = math("tl." + name, op, arity);
    (*math_module->attrs)[name] = math("tl.math." + name, op, arity);
  }
  auto libdevice = module("triton.language.extra.libdevice");
  for (auto [spelled, op] : ir::ops_spelled("libdevice")) {
    std::string name(spelled);
    (*libdevice->attrs)[name] = math("libdevice." + name, op, ir::op_info(op).arity);
  }
  auto extra = module("triton.language.extra"), cuda = module("triton.language.extra.cuda");
  (*extra->attrs)["libdevice"] = libdevice;
  (*extra->attrs)["cuda"] = cuda;
  (*cuda->attrs)["libdevice"] = libdevice;
  t["math"] = math_module;
  t["extra"] = extra;
  in.register_module("triton.language.math", math_module);
  in.register_module("triton.language.extra", extra);
  in.register_module("triton.language.extra.cuda", cuda);
  in.register_module("triton.language.extra.libdevice", libdevice);
  in.register_module("triton.language.extra.cuda.libdevice", libdevice);
  for (auto [name, op] : std::vector<std::pair<std::string, Op>>{
           {"sum", Op::Sum}, {"max", Op::TMax}, {"min", Op::TMin}}) {
    Op o = op;
    std::string n = name;
    def(n, [this, o, n](Interp&, CallArgs& a) {
      TensorPtr x = as_tensor(in, a.pos.at(0), a.at, DType::F32);
      Ref axis = a.get(1, "axis");
      bool keep = a.get(SIZE_MAX, "keep_dims") && in.truthy(a.get(SIZE_MAX, "keep_dims"), a.at);
      std::vector<int64_t> dims;
      if (!axis || axis->kind == K::None)
        for (size_t d = 0; d < x->shape.size(); ++d) dims.push_back(static_cast<int64_t>(d));
      else
        dims.push_back(norm_dim(in, in.to_int(axis, a.at), x->shape.size(), a.at));
      return wrap(reduce(
          in, x, dims, keep, x->dtype,
          [&](std::vector<TermId>& v) { return v.size() == 1 ? v[0] : fold(s.make(o, v)); }, a.at));
    });
  }
  def("zeros_like", [this](Interp&, CallArgs& a) {
    TensorPtr x = as_tensor(in, a.pos.at(0), a.at, DType::F32);
    auto r = std::make_shared<Tensor>(*x);
    r->elems.assign(x->numel(), constant(s, x->dtype, 0));
    return wrap(r);
  });
  def("dot", [this](Interp&, CallArgs& a) {
    // [M, K] x [K, N]; the accumulation order of the hardware is unspecified, so the sum is n-ary.
    // fp32 inputs use TF32 by default (inputs rounded to 10 mantissa bits). keq models the exact
    // product, so the default is recorded as a note: equal over the reals, not bit for bit.
    TensorPtr x = as_tensor(in, a.pos.at(0), a.at), y = as_tensor(in, a.pos.at(1), a.at);
    check_dot(in, a.at, x->shape, y->shape);
    Ref precision = a.get(3, "input_precision"), tf32 = a.get(4, "allow_tf32");
    bool ieee = (precision && precision->kind == K::Str && precision->s == "ieee") ||
                (tf32 && tf32->kind == K::Bool && !tf32->b);
    if (!ieee && (x->dtype == DType::F32 || y->dtype == DType::F32))
      st.findings.push_back(
          in.where(a.at) +
          ": note: tl.dot on fp32 rounds its inputs to TF32; keq models the exact "
          "product (pass input_precision=\"ieee\" for fp32 products)");
    Ref acc = a.get(2, "acc");
    int64_t m = x->shape[0], k = x->shape[1], n = y->shape[1];
    auto r = std::make_shared<Tensor>();
    r->shape = {m, n};
    r->dtype = DType::F32;
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        std::vector<TermId> terms;
        for (int64_t q = 0; q < k; ++q)
          terms.push_back(mk(Op::Mul, {convert(s, x->elems[i * k + q], x->dtype, DType::F32),
                                       convert(s, y->elems[q * n + j], y->dtype, DType::F32)}));
        TermId sum = terms.size() == 1 ? terms[0] : s.make(Op::Sum, terms);
        if (acc && acc->kind == K::Tensor) sum = mk(Op::Add, {acc->tensor->elems[i * n + j], sum});
        r->elems.push_back(sum);
      }
    return wrap(r);
  });
  def("trans", [this](Interp&, CallArgs& a) {
    TensorPtr x = as_tensor(in, a.pos.at(0), a.at);
    if (x->shape.size() != 2) in.unsupported(a.at, "tl.trans of a block that is not 2-d");
    auto r = std::make_shared<Tensor>();
    r->shape = {x->shape[1], x->shape[0]};
    r->dtype = x->dtype;
    for (int64_t j = 0; j < x->shape[1]; ++j)
      for (int64_t i = 0; i < x->shape[0]; ++i) r->elems.push_back(x->elems[i * x->shape[1] + j]);
    return wrap(r);
  });
  def("reshape", [this, shape_of](Interp&, CallArgs& a) {
    TensorPtr x = as_tensor(in, a.pos.at(0), a.at);
    auto r = std::make_shared<Tensor>(*x);
    r->shape = shape_of(a.get(1, "shape"), a.at);
    check_reshape(in, a.at, x->numel(), r->numel());
    return wrap(r);
  });
  def("expand_dims", [this](Interp&, CallArgs& a) {
    TensorPtr x = as_tensor(in, a.pos.at(0), a.at);
    int64_t d = in.to_int(a.get(1, "axis"), a.at);
    if (d < 0) d += static_cast<int64_t>(x->shape.size()) + 1;
    auto r = std::make_shared<Tensor>(*x);
    r->shape.insert(r->shape.begin() + d, 1);
    return wrap(r);
  });
  def("broadcast_to", [this, shape_of](Interp&, CallArgs& a) {
    TensorPtr x = as_tensor(in, a.pos.at(0), a.at);
    auto zero = std::make_shared<Tensor>();
    zero->shape = shape_of(a.get(1, "shape"), a.at);
    zero->dtype = x->dtype;
    zero->elems.assign(zero->numel(), constant(s, x->dtype, 0));
    return wrap(map2(
        in, x, zero, x->dtype, [](TermId p, TermId) { return p; }, a.at));
  });
  def("cumsum", [this](Interp&, CallArgs& a) {
    TensorPtr x = as_tensor(in, a.pos.at(0), a.at);
    int64_t axis =
        norm_dim(in, in.to_int(a.get(1, "axis") ? a.get(1, "axis") : python::integer(0), a.at),
                 x->shape.size(), a.at);
    if (axis != static_cast<int64_t>(x->shape.size()) - 1)
      in.unsupported(a.at, "tl.cumsum along an axis other than the last");
    auto r = std::make_shared<Tensor>(*x);
    int64_t len = x->shape.back();
    for (int64_t off = 0; off < x->numel(); off += len)
      for (int64_t k = 0; k < len; ++k) {
        std::vector<TermId> prefix(x->elems.begin() + off, x->elems.begin() + off + k + 1);
        r->elems[off + k] = prefix.size() == 1 ? prefix[0] : fold(s.make(Op::Sum, prefix));
      }
    return wrap(r);
  });
  auto atomic = [this, need_kernel](const std::string& name, Op op) {
    return [this, need_kernel, name, op](Interp&, CallArgs& a) {
      need_kernel(a, "tl." + name);
      need_unconditional(a.at, "tl." + name);
      // Atomics from several programs commute: the element accumulates every value (no race).
      Ref p = a.get(0, "pointer");
      if (!p || p->kind != K::Pointer)
        in.unsupported(a.at, "tl." + name + " to something that is not a pointer block");
      std::vector<bool> lanes = mask_lanes(a.get(2, "mask"), p->shape, a.at);
      const TensorPtr& buf = p->tensor;
      TensorPtr v = as_tensor(in, a.get(1, "val"), a.at, buf->dtype);
      for (size_t k = 0; k < lanes.size(); ++k) {
        if (!lanes[k]) continue;
        int64_t off = p->offsets[k];
        if (off < 0 || off >= static_cast<int64_t>(buf->elems.size())) {
          finding(a.at, name + " out of bounds: lane " + std::to_string(k) + " element " +
                            std::to_string(off));
          continue;
        }
        TermId val = to_dtype(v->elems[broadcast_index(*v, p->shape, unflatten(k, p->shape))],
                              v->dtype, buf->dtype);
        TermId old = buf->elems[off];
        if (old == Tensor::kUninit) old = undefined(a.at, "uninitialized memory");
        // Flatten sums so partial sums from many programs stay one n-ary sum.
        std::vector<TermId> parts;
        if (op == Op::Sum && s.op(old) == Op::Sum)
          parts.assign(s.children(old).begin(), s.children(old).end());
        else
          parts.push_back(old);
        parts.push_back(val);
        buf->elems[off] = s.make(op, parts);
      }
      return python::none();
    };
  };
  // atomic_xchg and atomic_cas return the old values. Between programs their order decides
  // the result: xchg of different values from several programs is a finding; of equal values
  // the memory agrees but the old values each program gets do not, and cas between programs
  // (locks, claims) depends on the schedule: both UNSUPPORTED.
  auto exchange = [this, need_kernel](bool cas) {
    return [this, need_kernel, cas](Interp&, CallArgs& a) {
      std::string name = cas ? "tl.atomic_cas" : "tl.atomic_xchg";
      need_kernel(a, name);
      need_unconditional(a.at, name);
      Ref p = a.get(0, "pointer");
      if (!p || p->kind != K::Pointer)
        in.unsupported(a.at, name + " to something that is not a pointer block");
      const TensorPtr& buf = p->tensor;
      TensorPtr cmp = cas ? as_tensor(in, a.get(1, "cmp"), a.at, buf->dtype) : nullptr;
      TensorPtr v = as_tensor(in, a.get(cas ? 2 : 1, "val"), a.at, buf->dtype);
      std::vector<bool> lanes = mask_lanes(cas ? nullptr : a.get(2, "mask"), p->shape, a.at);
      std::vector<int64_t>& w = writers(buf);
      auto r = std::make_shared<Tensor>();
      r->shape = p->shape;
      r->dtype = buf->dtype;
      for (size_t k = 0; k < lanes.size(); ++k) {
        int64_t off = p->offsets[k];
        if (!lanes[k] || off < 0 || off >= static_cast<int64_t>(buf->elems.size())) {
          if (lanes[k])
            finding(a.at, name.substr(3) + " out of bounds: lane " + std::to_string(k) +
                              " element " + std::to_string(off));
          r->elems.push_back(undefined(a.at, "masked lane of an atomic"));
          continue;
        }
        std::vector<int64_t> idx = unflatten(k, p->shape);
        TermId val = to_dtype(v->elems[broadcast_index(*v, p->shape, idx)], v->dtype, buf->dtype);
        TermId old = buf->elems[off];
        if (old == Tensor::kUninit) old = undefined(a.at, "uninitialized memory");
        bool other = w[off] >= 0 && w[off] != run->program();
        if (other && cas)
          in.unsupported(a.at,
                         "tl.atomic_cas on an element another program of the launch wrote "
                         "(a lock or claim: its outcome depends on the schedule)");
        if (other && val == old)  // memory ends the same, but who gets which old value does not
          in.unsupported(a.at,
                         "tl.atomic_xchg of one element by several programs (the values "
                         "they get back depend on the schedule)");
        if (other)
          finding(a.at, "order-dependent atomic_xchg: element " + std::to_string(off) +
                            " is exchanged by several programs with different values");
        r->elems.push_back(other ? undefined(a.at, "order-dependent atomic_xchg result") : old);
        if (cas) {
          TermId c =
              to_dtype(cmp->elems[broadcast_index(*cmp, p->shape, idx)], cmp->dtype, buf->dtype);
          val = fold(mk(Op::Select, {mk(Op::Eq, {old, c}), val, old}));
        }
        w[off] = run->program();
        buf->elems[off] = val;
      }
      return wrap(r);
    };
  };
  def("atomic_xchg", exchange(false));
  def("atomic_cas", exchange(true));
  def("atomic_add", atomic("atomic_add", Op::Sum));
  def("atomic_max", atomic("atomic_max", Op::TMax));
  def("atomic_min", atomic("atomic_min", Op::TMin));
  for (bool is_max : {true, false}) {
    def(is_max ? "argmax" : "argmin", [this, is_max](Interp&, CallArgs& a) -> Ref {
      TensorPtr x = as_tensor(in, a.pos.at(0), a.at);
      int64_t axis = norm_dim(in, in.to_int(a.get(1, "axis"), a.at), x->shape.size(), a.at);
      // Triton's argmax over maxnum: NaN lanes lose; ties take the first index.
      return wrap(reduce(
          in, x, {axis}, false, DType::I32,
          [&](std::vector<TermId>& v) {
            TermId best = v[0], idx = s.constant(ir::Constant::of_int(ir::Type::I32, 0));
            for (size_t k = 1; k < v.size(); ++k) {
              TermId better = mk(is_max ? Op::Gt : Op::Lt, {v[k], best});
              TermId nan_best = mk(Op::And, {mk(Op::Ne, {best, best}), mk(Op::Eq, {v[k], v[k]})});
              TermId take = mk(Op::Or, {better, nan_best});
              best = s.make(Op::Select, {take, v[k], best});
              idx = s.make(
                  Op::Select,
                  {take, s.constant(ir::Constant::of_int(ir::Type::I32, static_cast<int64_t>(k))),
                   idx});
            }
            return idx;
          },
          a.at));
    });
  }
  for (const char* same : {"multiple_of", "max_contiguous"})  // hints: no effect on values
    def(same, [](Interp&, CallArgs& a) { return a.pos.at(0); });
  // tl.range and tl.static_range iterate as range() does; their other arguments (num_stages,
  // loop_unroll_factor, ...) are scheduling hints with no effect on values.
  for (const char* name : {"range", "static_range"})
    def(name, [this, name](Interp&, CallArgs& a) {
      std::vector<int64_t> v;
      for (const Ref& x : a.pos) v.push_back(int_of(x, a.at));
      if (v.empty() || v.size() > 3)
        in.error(a.at, std::string("tl.") + name + " takes 1 to 3 bounds");
      int64_t lo = v.size() > 1 ? v[0] : 0, hi = v.size() > 1 ? v[1] : v[0],
              step = v.size() > 2 ? v[2] : 1;
      if (step == 0) in.error(a.at, std::string("tl.") + name + " step must not be zero");
      std::vector<Ref> out;
      for (int64_t i = lo; step > 0 ? i < hi : i > hi; i += step) out.push_back(python::integer(i));
      return python::list(out);
    });
  block_ptr_class = in.make_class("block_ptr", nullptr, std::make_shared<Attrs>());
  def("make_block_ptr", [this, need_kernel](Interp&, CallArgs& a) {
    need_kernel(a, "tl.make_block_ptr");
    return make_block_ptr(a.get(0, "base"), ints_of(a.get(1, "shape"), a.at),
                          ints_of(a.get(2, "strides"), a.at), ints_of(a.get(3, "offsets"), a.at),
                          ints_of(a.get(4, "block_shape"), a.at), a.at);
  });
  def("advance", [this](Interp&, CallArgs& a) {
    Ref bp = a.get(0, "base");
    if (!bp || !is_block_ptr(bp)) in.error(a.at, "tl.advance needs a block pointer");
    std::vector<int64_t> offsets = ints_of((*bp->attrs)["offsets"], a.at),
                         by = ints_of(a.get(1, "offsets"), a.at);
    if (by.size() != offsets.size()) in.error(a.at, "tl.advance: offsets differ in rank");
    for (size_t d = 0; d < by.size(); ++d) offsets[d] += by[d];
    return make_block_ptr((*bp->attrs)["base"], ints_of((*bp->attrs)["shape"], a.at),
                          ints_of((*bp->attrs)["strides"], a.at), offsets,
                          ints_of((*bp->attrs)["block_shape"], a.at), a.at);
  });
  def("debug_barrier", [this, need_kernel](Interp&, CallArgs& a) {
    need_kernel(a, "tl.debug_barrier");
    run->stored_lane.clear();  // the program's threads meet: earlier stores are visible
    return python::none();
  });
  def("cdiv", [this](Interp&, CallArgs& a) {
    int64_t x = in.to_int(a.pos.at(0), a.at), y = in.to_int(a.pos.at(1), a.at);
    return python::integer((x + y - 1) / y);
  });
  for (auto [name, d] : std::vector<std::pair<std::string, DType>>{{"float32", DType::F32},
                                                                   {"float16", DType::F16},
                                                                   {"bfloat16", DType::BF16},
                                                                   {"float8e4nv", DType::E4M3},
                                                                   {"float8e5", DType::E5M2},
                                                                   {"int32", DType::I32},
                                                                   {"int64", DType::I64},
                                                                   {"int1", DType::Bool}})
    t[name] = python::dtype_value(d);
  t["constexpr"] = in.make_class("constexpr", nullptr, std::make_shared<Attrs>());
  // triton.jit / autotune / Config
  auto& tr = *triton->attrs;
  auto jit_attrs = std::make_shared<Attrs>();
  (*jit_attrs)["__getitem__"] =
      python::builtin("JITFunction.__getitem__", [this](Interp&, CallArgs& a) {
        Ref kernel = a.pos.at(0), grid = a.pos.at(1);
        return python::builtin("launch", [this, kernel, grid](Interp&, CallArgs& c) {
          return launch(kernel, grid, c);
        });
      });
  (*jit_attrs)["__call__"] = python::builtin("JITFunction.__call__", [this](Interp&, CallArgs& a) {
    if (!run)
      in.error(
          a.at,
          "a @triton.jit function is called only from a kernel (launch it with kernel[grid](...))");
    Ref fn = (*a.pos.at(0)->attrs)["fn"];
    a.pos.erase(a.pos.begin());
    return in.call(fn, a);
  });
  jit_class = in.make_class("JITFunction", nullptr, jit_attrs);
  tr["jit"] = python::builtin("triton.jit", [this](Interp&, CallArgs& a) {
    if (a.pos.empty()) {  // @triton.jit(...) with options: a decorator
      return python::builtin("triton.jit",
                             [this](Interp&, CallArgs& b) { return make_kernel(b.pos.at(0)); });
    }
    return make_kernel(a.pos[0]);
  });
  auto config_class = in.make_class("Config", nullptr, std::make_shared<Attrs>());
  tr["Config"] = python::builtin("triton.Config", [this, config_class](Interp&, CallArgs& a) {
    Ref d = a.get(0, "kwargs");
    if (!d || d->kind != K::Dict) in.error(a.at, "triton.Config needs a dict of constexprs");
    if (a.get(SIZE_MAX, "pre_hook")) in.unsupported(a.at, "triton.Config(pre_hook=...)");
    auto cfg = std::make_shared<Value>();
    cfg->kind = K::Instance;
    cfg->cls = config_class;
    cfg->attrs = std::make_shared<Attrs>();
    (*cfg->attrs)["kwargs"] = d;
    Ref warps = a.get(1, "num_warps"), stages = a.get(2, "num_stages");
    (*cfg->attrs)["num_warps"] = warps ? warps : python::none();
    (*cfg->attrs)["num_stages"] = stages ? stages : python::none();
    return cfg;
  });
  tr["autotune"] = python::builtin("triton.autotune", [this](Interp&, CallArgs& a) {
    // The autotuner's benchmarking runs (and the hooks that reset or restore memory around
    // them) leave effects keq does not model.
    for (const char* hook : {"reset_to_zero", "restore_value", "pre_hook", "post_hook"})
      if (a.get(SIZE_MAX, hook))
        in.unsupported(a.at, std::string("@triton.autotune(") + hook + "=...)");
    Ref configs = a.get(0, "configs");
    return python::builtin("triton.autotune", [configs](Interp& i2, CallArgs& b) {
      Ref k = b.pos.at(0);
      if (k->kind != K::Instance) i2.error(b.at, "@triton.autotune goes above @triton.jit");
      if (!configs || (configs->kind != K::List && configs->kind != K::Tuple))
        i2.error(b.at, "@triton.autotune needs configs=[triton.Config(...), ...]");
      for (const Ref& c : configs->items)
        if (!i2.is_instance_of(c, "Config"))
          i2.error(b.at, "configs holds something not a triton.Config");
      (*k->attrs)["configs"] = configs;
      return k;
    });
  });
  tr["heuristics"] = python::builtin("triton.heuristics", [this](Interp&, CallArgs& a) {
    Ref rules = a.get(0, "values");
    if (!rules || rules->kind != K::Dict)
      in.error(a.at, "@triton.heuristics takes a dict of name: lambda args: value");
    return python::builtin("triton.heuristics", [rules](Interp& i2, CallArgs& b) {
      Ref k = b.pos.at(0);
      if (k->kind != K::Instance) i2.error(b.at, "@triton.heuristics goes above @triton.jit");
      (*k->attrs)["heuristics"] = rules;
      return k;
    });
  });
}

}  // namespace

void install(python::Interp& in, torch::TorchState& state) {
  auto t = std::make_shared<Triton>(
      Triton{in, state, in.store(), in.hooks(), nullptr, 0, {}, nullptr, nullptr});
  Ref triton = t->module("triton"), tl = t->module("triton.language");
  // Keep what the torch frontend put on `triton` (cdiv, next_power_of_2), replace the rest.
  Ref old = in.module_value("triton", {});
  for (auto& [k, v] : *old->attrs) (*triton->attrs)[k] = v;
  (*triton->attrs)["language"] = tl;
  t->install_language(tl, triton);
  in.register_module("triton", triton);
  in.register_module("triton.language", tl);
  python::TensorHooks& h = in.hooks();
  h.binop = [t](Interp& i2, const std::string& op, const Ref& a, const Ref& b, Span at) {
    if (t->run || a->kind == K::Pointer || b->kind == K::Pointer) return t->binary(op, a, b, at);
    return t->torch_hooks.binop(i2, op, a, b, at);
  };
  h.unop = [t](Interp& i2, const std::string& op, const Ref& a, Span at) -> Ref {
    if (!t->run) return t->torch_hooks.unop(i2, op, a, at);
    if (op == "-") return t->binary("-", python::integer(0), a, at);
    if (op == "+") return a;
    if (op == "~" && a->kind == K::Tensor && a->tensor->dtype == DType::Bool)
      return t->wrap(map1(
          i2, a->tensor, DType::Bool, [&](TermId e) { return t->fold(t->mk(Op::Not, {e})); }, at));
    i2.unsupported(at, "operator " + op + " in a kernel");
  };
  h.loop_ran = [t](Interp& i2, Span at, size_t trips) {
    if (t->run) t->st.loop_trips[i2.where(at)] |= trips == 0 ? 1u : trips == 1 ? 2u : 4u;
  };
  h.truth = [t](Interp& i2, const Ref& c, Span at) -> int {
    const TensorPtr& x = c->tensor;
    if (x->numel() != 1)
      i2.error(at, "the truth value of a block of " + std::to_string(x->numel()) +
                       " elements is ambiguous");
    TermId e = x->elems[0];
    if (t->is_const(e)) {
      const ir::Constant& k = t->s.constant_of(e);
      return k.type == ir::Type::F32 ? k.f != 0 : k.i != 0;
    }
    if (!t->run) i2.unsupported(at, "control flow on a tensor's value (data-dependent branching)");
    return -1;
  };
  h.enter_branch = [t](Interp&, const Ref& c, bool negated, Span at) {
    TermId g = t->condition_term(c, at);
    t->path.push_back(negated ? t->fold(t->mk(Op::Not, {g})) : g);
  };
  h.leave_branch = [t]() { t->path.pop_back(); };
  h.select = [t](Interp& i2, const Ref& c, const Ref& a, const Ref& b, Span at) -> Ref {
    auto numeric = [](const Ref& v) {
      return v->kind == K::Tensor || v->kind == K::Int || v->kind == K::Float || v->kind == K::Bool;
    };
    if (!numeric(a) || !numeric(b))
      i2.unsupported(at, "a " + a->type_name() +
                             " that differs between the branches of an `if` "
                             "on loaded data");
    TermId g = t->condition_term(c, at);
    DType out = promote(a, b, i2, at);
    TensorPtr x = as_tensor(i2, a, at, out), y = as_tensor(i2, b, at, out);
    DType xd = x->dtype, yd = y->dtype;
    return t->wrap(map2(
        i2, x, y, out,
        [&](TermId p, TermId q) {
          return t->fold(
              t->mk(Op::Select, {g, convert(t->s, p, xd, out), convert(t->s, q, yd, out)}));
        },
        at));
  };
  h.getattr = [t](Interp& i2, const Ref& v, const std::string& name, Span at) -> Ref {
    if (t->run && name == "to") {  // x.to(tl.float16): Triton's casts (fp8 saturates)
      Ref self = v;
      return python::builtin("block.to", [t, self](Interp& i3, CallArgs& a) -> Ref {
        Ref d = a.get(0, "dtype");
        if (!d || d->kind != K::DType) i3.error(a.at, ".to needs a dtype");
        DType from = self->tensor->dtype, to = d->dtype;
        if (a.get(SIZE_MAX, "bitcast") && i3.truthy(a.get(SIZE_MAX, "bitcast"), a.at)) {
          Op op = from == DType::F32 && to == DType::I32   ? Op::BitcastI32
                  : from == DType::I32 && to == DType::F32 ? Op::BitcastF32
                                                           : Op::Const;
          if (op == Op::Const)
            i3.unsupported(a.at, ".to(bitcast=True) from " + std::string(python::dtype_name(from)) +
                                     " to " + std::string(python::dtype_name(to)) +
                                     " (fp32 <-> int32 only)");
          return t->wrap(map1(
              i3, self->tensor, to, [&](TermId e) { return t->fold(t->mk(op, {e})); }, a.at));
        }
        return t->wrap(map1(
            i3, self->tensor, to, [&](TermId e) { return t->to_dtype(e, from, to); }, a.at));
      });
    }
    return t->torch_hooks.getattr(i2, v, name, at);
  };
}

}  // namespace keq::triton
