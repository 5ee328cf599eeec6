// The Triton frontend: @triton.jit kernels run symbolically, program by program, over the torch
// frontend's tensors. The parts live in launch.cc, memory.cc, language.cc, reductions.cc and
// decorators.cc; this file installs them.
#include <absl/container/flat_hash_set.h>

#include <algorithm>

#include "frontends/triton/triton_impl.h"

namespace keq::triton {

using namespace impl;

namespace {
// triton.runtime.driver.active as on the H200 (CUDA backend, sm_90, 132 SMs, 227 KiB of shared
// memory a block may opt into): libraries probe it at import (fla's hardware table). Each answer
// is a host assumption in the report.
void install_runtime_driver(python::Interp& in, torch::TorchState& st, const Ref& triton) {
  auto answer = [&st](const std::string& what, const std::string& value, python::BuiltinFn fn) {
    return python::builtin(what, [&st, what, value, fn](Interp& i2, CallArgs& a) {
      st.host_assumptions.insert(what + "() is " + value);
      return fn(i2, a);
    });
  };
  Ref target = python::module_object("triton.backends.compiler.GPUTarget");
  (*target->attrs)["backend"] = python::string("cuda");
  (*target->attrs)["arch"] = python::integer(90);
  (*target->attrs)["warp_size"] = python::integer(32);
  Ref utils = python::module_object("triton.runtime.driver.active.utils");
  (*utils->attrs)["get_device_properties"] = answer(
      "triton.runtime.driver.active.utils.get_device_properties",
      "an H200's (132 SMs, 232448 bytes of shared memory)", [](Interp&, CallArgs&) {
        auto d = std::make_shared<python::Value>();
        d->kind = K::Dict;
        for (auto [k, v] : {std::pair{"max_shared_mem", 232448}, std::pair{"max_num_regs", 65536},
                            std::pair{"multiprocessor_count", 132}, std::pair{"warpSize", 32}})
          d->dict.push_back({python::string(k), python::integer(v)});
        return Ref(d);
      });
  Ref active = python::module_object("triton.runtime.driver.active");
  (*active->attrs)["utils"] = utils;
  (*active->attrs)["get_current_target"] =
      answer("triton.runtime.driver.active.get_current_target", "cuda, sm_90",
             [target](Interp&, CallArgs&) { return target; });
  (*active->attrs)["get_current_device"] =
      answer("triton.runtime.driver.active.get_current_device", "0",
             [](Interp&, CallArgs&) { return python::integer(0); });
  Ref driver = python::module_object("triton.runtime.driver");
  (*driver->attrs)["active"] = active;
  Ref runtime = python::module_object("triton.runtime");
  (*runtime->attrs)["driver"] = driver;
  (*triton->attrs)["runtime"] = runtime;
  in.register_module("triton.runtime", runtime);
  in.register_module("triton.runtime.driver", driver);
}
}  // namespace

namespace {
// Triton's functions as Python calls them: a keyword the real function does not take raises
// TypeError where it is called (tl.zeros(..., scope="shared") in a kernel, or
// triton.Config(..., num_consumer_groups=2) at import), where keq's models would ignore it.
struct KeywordParameters {
  const char* module;
  const char* name;
  const char* shown;  // as TypeError names it: Config.__init__
  std::vector<std::string> keywords;
};

void check_keyword_arguments(python::Interp& in) {
  static const KeywordParameters kParameters[] = {
#include "frontends/triton/parameter_names.inc"
  };
  for (const KeywordParameters& f : kParameters) {
    Ref module = in.module_value(f.module, {});
    auto it = module->attrs->find(f.name);
    if (it == module->attrs->end() || it->second->kind != K::Builtin) continue;
    Ref model = it->second;
    in.set_builtin_parameters(model->s, f.keywords);
    it->second = python::builtin(model->s, [model, &f](Interp& i2, CallArgs& a) {
      for (const auto& [keyword, value] : a.kw)
        if (std::find(f.keywords.begin(), f.keywords.end(), keyword) == f.keywords.end())
          i2.raise(a.at, "TypeError: " + std::string(f.shown) +
                             "() got an unexpected keyword argument '" + keyword + "'");
      return i2.call(model, std::move(a));
    });
  }
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
  const std::pair<const char*, std::vector<std::string>> kRealNames[] = {
#include "frontends/triton/module_names.inc"
  };
  for (const auto& [module, names] : kRealNames)
    in.set_real_names(module, absl::flat_hash_set<std::string>(names.begin(), names.end()));
  check_keyword_arguments(in);
  python::TensorHooks& h = in.hooks();
  h.plain_kernel_helper = [t](const Ref& f) {
    if (!t->run || t->jit_bodies_.contains(f.get())) return false;
    if (!t->in.in_plain_kernel_helper()) t->plain_helper_ = f->s + "()";
    return true;
  };
  h.binop = [t](Interp& i2, const std::string& op, const Ref& a, const Ref& b, Span at) {
    if (t->run) t->refuse_in_plain_helper(at);
    if (t->run || a->kind == K::Pointer || b->kind == K::Pointer) return t->binary(op, a, b, at);
    return t->torch_hooks.binop(i2, op, a, b, at);
  };
  h.unop = [t](Interp& i2, const std::string& op, const Ref& a, Span at) -> Ref {
    if (!t->run) return t->torch_hooks.unop(i2, op, a, at);
    t->refuse_in_plain_helper(at);
    if (op == "-") return t->binary("-", python::integer(0), a, at);
    if (op == "+") return a;
    if (op == "~" && a->kind == K::Tensor && a->tensor->dtype == DType::Bool)
      return t->wrap(map1(
          i2, a->tensor, DType::Bool, [&](TermId e) { return t->fold(t->mk(Op::Not, {e})); }, at));
    i2.unsupported(at, "operator " + op + " in a kernel");
  };
  h.in_kernel = [t] { return t->run != nullptr || t->raised_after_stores_; };
  h.runtime_product = [t](Interp& i2, int64_t a, int64_t b, Span at) {
    if (!t->run || a < INT32_MIN || a > INT32_MAX || b < INT32_MIN || b > INT32_MAX) return;
    auto [it, fresh] = t->st.int32_products.try_emplace(i2.where(at), a, b);
    if (!fresh && std::abs(a * b) > std::abs(it->second.first * it->second.second))
      it->second = {a, b};
  };
  h.kernel_type = [](const Ref& v) { return kernel_type(v); };
  Ref py_range = in.builtin_value("range");
  // In a kernel, range() is an scf.for: its variable is a runtime value, not a constexpr
  // (tl.static_range's is one).
  in.set_builtin("range", python::builtin("range", [t, py_range](Interp& i2, CallArgs& a) {
                   if (!t->run) return i2.call(py_range, a);
                   t->record_loop_step(a);
                   Ref r = i2.call(py_range, a);
                   for (Ref& v : r->items) v = runtime_int(v->i);
                   return r;
                 }));
  h.subscript = [t](Interp& i2, const Ref& v, const Ref& index, Span at) {
    if (t->run) check_tensor_index(i2, at, index);
    if (v->kind == K::Pointer)
      return t->pointer_from_lanes(
          v, t->torch_hooks.subscript(i2, t->wrap(t->lane_numbers(v)), index, at)->tensor);
    return t->torch_hooks.subscript(i2, v, index, at);
  };
  (*triton->attrs)["__version__"] = python::string("3.6.0");
  install_runtime_driver(in, state, triton);
  // Every public module of the installed Triton 3.6 (scripts/module_names.py submodules triton):
  // `import triton.experimental.gluon` succeeds and only a use of it is UNSUPPORTED.
  in.add_library_submodules({
#include "frontends/triton/triton_submodules.inc"
  });
  register_inductor_helpers(in);
  h.loop_ran = [t](Interp& i2, Span at, size_t trips) {
    unsigned bit = trips == 0 ? 1u : trips == 1 ? 2u : 4u;
    if (t->run)
      t->st.loop_trips[i2.where(at)] |= bit;
    else
      t->st.static_ways[i2.where(at)] |= bit << 2;
  };
  // A guard of a program id against the grid's own extent records bit 4, not a way: it cannot go
  // the other way at any size whose grid it bounds (`if pid >= n_rows: return` on n_rows programs).
  h.branch_ran = [t](Interp& i2, Span at, bool taken, bool grid_guard) {
    if (t->run) t->st.branch_ways[i2.where(at)] |= grid_guard ? 4u : taken ? 1u : 2u;
  };
  h.grid_guard = [t](Interp&, const std::string& op, const Ref& a, const Ref& b) {
    return t->run && t->is_grid_guard(op, a, b);
  };
  h.static_branch = [t](Interp& i2, Span at, bool taken) {
    t->st.static_ways[i2.where(at)] |= taken ? 1u : 2u;
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
    if (!t->run) return t->torch_hooks.truth(i2, c, at);  // host code: decided or unsupported
    // A loaded value whose condition every input decides (a target in [0, V) against
    // ignore_index = -100) takes one branch; else both run, merged.
    if (auto v = torch::value_over_inputs(t->st, t->s, e)) {
      bool taken = v->type == ir::Type::F32 ? !mpfr_zero_p(v->f.get()) : v->i != 0;
      t->st.host_assumptions.insert("kernel branch: " + i2.where(at) + " is " +
                                    (taken ? "always" : "never") +
                                    " taken for inputs in the get_inputs() domains");
      return taken;
    }
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
  Ref cast = (*tl->attrs)["cast"];
  h.getattr = [t, cast, tl](Interp& i2, const Ref& v, const std::string& name, Span at) -> Ref {
    // A block's attributes are plain Python; its methods are builtins.
    static const absl::flat_hash_set<std::string> kPlainAttributes = {"shape", "dtype", "type",
                                                                      "numel", "handle"};
    if (t->run && (v->kind == K::Tensor || v->kind == K::Pointer) &&
        !kPlainAttributes.contains(name))
      t->refuse_in_plain_helper(at);
    // Block methods that are Triton's own (x.flip(0) is tl.flip, not torch's flip(dims)).
    static const absl::flat_hash_set<std::string> kBlockMethods = {
        "flip", "ravel", "permute", "trans", "split", "join", "interleave"};
    if (t->run && (v->kind == K::Tensor || v->kind == K::Pointer) && kBlockMethods.contains(name)) {
      Ref fn = (*tl->attrs)[name];
      return python::builtin("block." + name, [fn, v](Interp& i3, CallArgs& a) {
        a.pos.insert(a.pos.begin(), v);
        return i3.call(fn, a);
      });
    }
    if (t->run && name == "cast")  // x.cast(dtype, ...) is tl.cast(x, dtype, ...)
      return python::builtin("block.cast", [cast, v](Interp& i3, CallArgs& a) {
        a.pos.insert(a.pos.begin(), v);
        return i3.call(cast, a);
      });
    if (t->run && name == "to") {  // x.to(tl.float16): fp8 saturates
      // A scalar argument or program id is a 0-d block inside a kernel: fp32, or int32 unless
      // its value needs int64 (Triton types an int argument by its value).
      Ref self = v->kind == K::Tensor
                     ? v
                     : t->wrap(as_tensor(i2, v, at, torch::detail::kernel_scalar_dtype(v)));
      return python::builtin("block.to", [t, self](Interp& i3, CallArgs& a) -> Ref {
        Ref d = a.get(0, "dtype");
        if (!d || d->kind != K::DType) i3.error(a.at, ".to needs a dtype");
        torch::require_modelled_dtype(i3, d, a.at);
        DType from = self->tensor->dtype, to = d->dtype;
        if (check_fp_downcast_rounding(i3, a.at, a.get(SIZE_MAX, "fp_downcast_rounding"), from, to))
          i3.unsupported(a.at, "fp_downcast_rounding='rtz' (rounding toward zero)");
        if (a.get(SIZE_MAX, "bitcast") && i3.truthy(a.get(SIZE_MAX, "bitcast"), a.at)) {
          Op op = from == DType::F32 && to == DType::I32   ? Op::BitcastI32
                  : from == DType::I32 && to == DType::F32 ? Op::BitcastF32
                                                           : Op::Const;
          if (op == Op::Const)
            i3.unsupported(a.at, ".to(bitcast=True) from " + std::string(torch::dtype_name(from)) +
                                     " to " + std::string(torch::dtype_name(to)) +
                                     " (fp32 <-> int32 only)");
          return t->wrap(map1(
              i3, self->tensor, to, [&](TermId e) { return t->fold(t->mk(op, {e})); }, a.at));
        }
        return t->wrap(map1(
            i3, self->tensor, to, [&](TermId e) { return t->fold(t->to_dtype(e, from, to)); },
            a.at));
      });
    }
    // ptr.dtype is the pointer type; its element_ty the dtype stores convert to.
    if (t->run && v->kind == K::Pointer && name == "dtype") {
      Ref d = torch::dtype_value(v->tensor->dtype);
      d->s = "pointer<" + d->s + ">";
      return d;
    }
    if (v->kind == K::DType && v->s.rfind("pointer<", 0) == 0) {
      if (name == "element_ty") return torch::dtype_value(v->dtype);
      i2.unsupported(at, "attribute '" + name + "' of a pointer type");
    }
    // A loaded block's x.dtype is a scalar type, which has no element_ty (gpt-5's
    // out.to(x.dtype.element_ty) does not compile: tests/fixtures/gpu/realworld).
    if (t->run && v->kind == K::DType && name == "element_ty")
      i2.raise(at, "AttributeError: 'dtype' object has no attribute 'element_ty'");
    return t->torch_hooks.getattr(i2, v, name, at);
  };
}

}  // namespace keq::triton
