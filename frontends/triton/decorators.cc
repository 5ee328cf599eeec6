// triton.jit, triton.Config, @triton.autotune and @triton.heuristics.
#include "frontends/triton/triton_impl.h"

namespace keq::triton::impl {

namespace {
// triton.runtime.autotuner.Autotuner as Triton 3.6 writes it (triton/runtime/autotuner.py), for
// libraries that subclass it (fla's CachedAutotuner): __init__ sets the attributes Triton's does
// (the hooks are Triton's own, by identity), and run() launches through keq's model of
// @triton.autotune, where every config is a configuration of its own. What keq cannot follow
// is UNSUPPORTED at run(): hooks the program set, a cache it filled, warmup launches.
// knobs.autotuning.cache is off by default, so cache_results is as given.
constexpr const char* kAutotuner = R"PY(
import inspect
from triton import Config, autotune, heuristics


class KernelInterface:
    __keq_library__ = True

    def __getitem__(self, grid):
        return lambda *args, **kwargs: self.run(grid=grid, warmup=False, *args, **kwargs)


class Autotuner(KernelInterface):
    __keq_library__ = True

    def __init__(self, fn, arg_names, configs, key, reset_to_zero, restore_value, pre_hook=None,
                 post_hook=None, prune_configs_by=None, warmup=None, rep=None,
                 use_cuda_graph=False, do_bench=None, cache_results=False):
        if not configs:
            self.configs = [Config({}, num_warps=4, num_stages=3, num_ctas=1)]
        else:
            self.configs = configs
        self.keys = key
        self.cache = {}
        self.arg_names = arg_names
        self.cache_results = cache_results
        self.reset_to_zero = []
        if reset_to_zero is not None:
            self.reset_to_zero = list(reset_to_zero)
        self.restore_value = []
        if restore_value is not None:
            self.restore_value = list(restore_value)
        self.pre_hook = lambda kwargs, reset_only=False: 0
        self.post_hook = lambda kwargs, exception: 0
        self.user_defined_pre_hook = False
        self.user_defined_post_hook = False
        if pre_hook:
            self.pre_hook = pre_hook
            self.user_defined_pre_hook = True
        elif len(self.reset_to_zero) > 0 or len(self.restore_value) > 0:

            def _pre_hook(kwargs, reset_only=False):
                for name in self.reset_to_zero:
                    kwargs[name].zero_()
                if not reset_only:
                    self.restore_copies = {name: kwargs[name].clone() for name in self.restore_value}

            self.pre_hook = _pre_hook
        if post_hook:
            self.post_hook = post_hook
            self.user_defined_post_hook = True
        elif len(self.restore_value) > 0:

            def _post_hook(kwargs, exception):
                for name in self.restore_value:
                    kwargs[name].copy_(self.restore_copies[name])
                self.restore_copies = {}

            self.post_hook = _post_hook
        self.perf_model = None
        self.configs_top_k = 1.0
        self.early_config_prune = None
        if prune_configs_by:
            self.perf_model = prune_configs_by.get("perf_model", self.perf_model)
            self.configs_top_k = prune_configs_by.get("top_k", self.configs_top_k)
            self.early_config_prune = prune_configs_by.get("early_config_prune", self.early_config_prune)
        self.fn = fn
        self.base_fn = fn
        while not inspect.isfunction(self.base_fn):
            self.base_fn = self.base_fn.fn
        self._do_bench = do_bench
        self.num_warmups = warmup
        self.num_reps = rep
        self.use_cuda_graph = use_cuda_graph
        self._keq_hooks = (self.pre_hook, self.post_hook)

    def run(self, *args, **kwargs):
        return _keq_autotuned_launch(self, args, kwargs)
)PY";
}  // namespace

// The kernel an Autotuner instance wraps, with the autotune attributes @triton.autotune would
// have set from the instance's: one per instance, so that its first launch per key is the one
// Triton benchmarks.
Ref Triton::autotuned_kernel(const Ref& self, Span at) {
  auto attr = [&](const char* name) { return in.getattr(self, name, at); };
  Ref hooks = attr("_keq_hooks");
  if (in.truthy(attr("user_defined_pre_hook"), at) ||
      in.truthy(attr("user_defined_post_hook"), at) || attr("pre_hook") != hooks->items[0] ||
      attr("post_hook") != hooks->items[1])
    in.unsupported(at, "an Autotuner with hooks of its own around benchmarking runs");
  Ref cache = attr("cache");
  if (cache->kind != K::Dict || !cache->dict.empty())
    in.unsupported(at, "an Autotuner whose cache the program filled (a config chosen for a key)");
  Ref fn = attr("fn");
  if (!in.is_instance_of(fn, "JITFunction"))
    in.unsupported(at, "an Autotuner over " + fn->type_name() +
                           " (keq models one over a @triton.jit function)");
  Ref& kernel = (*self->attrs)["<keq kernel>"];
  if (!kernel) kernel = std::make_shared<python::Value>(*fn);
  kernel->attrs = std::make_shared<Attrs>(*fn->attrs);
  Attrs& k = *kernel->attrs;
  k["configs"] = python::list(in.to_sequence(attr("configs"), at));
  for (const Ref& c : k["configs"]->items)
    if (!in.is_instance_of(c, "Config"))
      in.error(at, "Autotuner.configs holds something not a triton.Config");
  k["key"] = attr("keys");
  for (const char* name : {"reset_to_zero", "restore_value"})
    if (Ref v = attr(name); in.truthy(v, at)) k[name] = v;
  auto prune = std::make_shared<python::Value>();  // as prune_configs_by would have given them
  prune->kind = K::Dict;
  for (const char* name : {"early_config_prune", "perf_model"})
    if (Ref v = attr(name); v->kind != K::None) prune->dict.push_back({python::string(name), v});
  if (!prune->dict.empty()) k["prune_configs_by"] = prune;
  return kernel;
}

// Autotuner.run(self, *args, **kwargs), which KernelInterface.__getitem__ calls with grid= and
// warmup=: the wrapped kernel launched with the call's grid.
Ref Triton::autotuned_launch(CallArgs& a) {
  Ref self = a.pos.at(0), args = a.pos.at(1), kwargs = a.pos.at(2);
  Ref kernel = autotuned_kernel(self, a.at);
  CallArgs call;
  call.at = a.at;
  call.pos = in.to_sequence(args, a.at);
  Ref grid;
  for (const auto& [key, v] : kwargs->dict) {
    if (key->kind != K::Str) in.error(a.at, "keyword arguments are strings");
    if (key->s == "grid") {
      grid = v;
    } else if (key->s == "warmup") {
      if (in.truthy(v, a.at))
        in.unsupported(a.at, "Autotuner.run(warmup=True) (compiling without launching)");
    } else {
      call.kw.push_back({key->s, v});
    }
  }
  if (!grid) in.raise(a.at, "KeyError: 'grid'");
  // @triton.heuristics above the Autotuner (fla's causal conv) annotated the instance: as
  // Triton's Heuristics.run, each value is computed from the call's arguments by name and its
  // keywords (grid= and warmup= among them, and the values computed before it), and passed on
  // as a keyword.
  if (auto h = self->attrs->find("heuristics"); h != self->attrs->end()) {
    CallArgs seen = call;
    for (const auto& [key, v] : kwargs->dict)
      if (key->s == "grid" || key->s == "warmup") seen.kw.push_back({key->s, v});
    for (const auto& [name, rule] : h->second->dict) {
      Ref value = in.call(rule, {named_args(kernel->attrs->at("fn"), seen, {})}, a.at);
      seen.kw.push_back({name->s, value});
      call.kw.push_back({name->s, value});
    }
  }
  return launch(kernel, grid, call);
}

void Triton::install_decorators(const Ref& tl, const Ref& triton) {
  in.register_model_source("triton.runtime.autotuner", kAutotuner);
  in.register_model_builtin("triton.runtime.autotuner", "_keq_autotuned_launch",
                            python::builtin("Autotuner.run", [this](Interp&, CallArgs& a) {
                              return autotuned_launch(a);
                            }));
  for (const char* name : {"Autotuner", "KernelInterface"})
    in.register_model_attribute("triton.runtime", name, "triton.runtime.autotuner");
  in.set_real_names("triton.runtime.autotuner", {"Autotuner",
                                                 "AutotunerError",
                                                 "Config",
                                                 "Dict",
                                                 "Heuristics",
                                                 "JITFunction",
                                                 "KernelInterface",
                                                 "List",
                                                 "Optional",
                                                 "OutOfResources",
                                                 "PTXASError",
                                                 "Tuple",
                                                 "annotations",
                                                 "autotune",
                                                 "builtins",
                                                 "cached_property",
                                                 "driver",
                                                 "get_cache_invalidating_env_vars",
                                                 "get_cache_manager",
                                                 "hashlib",
                                                 "heuristics",
                                                 "inspect",
                                                 "json",
                                                 "knobs",
                                                 "time",
                                                 "triton_key"});
  auto& t = *tl->attrs;
  t["constexpr"] = python::builtin("tl.constexpr", python::triton_constexpr);
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
    if (!run)  // JITFunction.__call__ on the host
      in.raise(a.at, "RuntimeError: Cannot call @triton.jit'd outside of the scope of a kernel");
    note_kernel_ran(a.pos.at(0));
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
    auto cfg = std::make_shared<Value>();
    cfg->kind = K::Instance;
    cfg->cls = config_class;
    cfg->attrs = std::make_shared<Attrs>();
    (*cfg->attrs)["kwargs"] = d;
    Ref warps = a.get(1, "num_warps"), stages = a.get(2, "num_stages");
    (*cfg->attrs)["num_warps"] = warps ? warps : python::none();
    (*cfg->attrs)["num_stages"] = stages ? stages : python::none();
    Ref hook = a.get(SIZE_MAX, "pre_hook");  // run before each launch with it (launch.cc)
    (*cfg->attrs)["pre_hook"] = hook ? hook : python::none();
    return cfg;
  });
  tr["autotune"] = python::builtin("triton.autotune", [this](Interp&, CallArgs& a) {
    // User hooks around the benchmarking runs are not modelled. reset_to_zero zeroes its
    // arguments before each benchmarking run and after them, restore_value puts its arguments
    // back after each (launch.cc).
    for (const char* hook : {"pre_hook", "post_hook"})
      if (a.get(SIZE_MAX, hook))
        in.unsupported(a.at, std::string("@triton.autotune(") + hook + "=...)");
    Ref configs = a.get(0, "configs"), key = a.get(1, "key"),
        zero = a.get(SIZE_MAX, "reset_to_zero"), restore = a.get(SIZE_MAX, "restore_value"),
        prune = a.get(2, "prune_configs_by");
    if (prune && prune->kind != K::None && prune->kind != K::Dict)
      in.error(a.at, "@triton.autotune(prune_configs_by=...) takes a dict");
    return python::builtin(
        "triton.autotune", [configs, key, zero, restore, prune](Interp& i2, CallArgs& b) {
          Ref k = b.pos.at(0);
          if (k->kind != K::Instance) i2.error(b.at, "@triton.autotune goes above @triton.jit");
          if (!configs || (configs->kind != K::List && configs->kind != K::Tuple))
            i2.error(b.at, "@triton.autotune needs configs=[triton.Config(...), ...]");
          for (const Ref& c : configs->items)
            if (!i2.is_instance_of(c, "Config"))
              i2.error(b.at, "configs holds something not a triton.Config");
          (*k->attrs)["configs"] = configs;
          if (key) (*k->attrs)["key"] = key;
          if (zero && zero->kind != K::None) (*k->attrs)["reset_to_zero"] = zero;
          if (restore && restore->kind != K::None) (*k->attrs)["restore_value"] = restore;
          if (prune && prune->kind == K::Dict) (*k->attrs)["prune_configs_by"] = prune;
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
      // Stacked heuristics: the outer one (applied last) computes first, and the inner ones
      // see its values, as Triton's Heuristics.run passes them down.
      auto merged = std::make_shared<Value>(*rules);
      if (auto it = k->attrs->find("heuristics"); it != k->attrs->end())
        merged->dict.insert(merged->dict.end(), it->second->dict.begin(), it->second->dict.end());
      (*k->attrs)["heuristics"] = merged;
      return k;
    });
  });
}

}  // namespace keq::triton::impl
