// triton.jit, triton.Config, @triton.autotune and @triton.heuristics.
#include "frontends/triton/triton_impl.h"

namespace keq::triton::impl {

void Triton::install_decorators(const Ref& tl, const Ref& triton) {
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
