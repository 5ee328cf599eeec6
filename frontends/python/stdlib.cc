// The standard-library helpers kernel libraries run at import and around launches: functools,
// operator, importlib, contextlib, typing, warnings, __future__, and packaging.version (not
// stdlib, but what libraries compare versions with). Each is modelled as CPython runs it, up to
// the differences the comments name.
#include <algorithm>
#include <cctype>
#include <filesystem>

#include "frontends/python/interp.h"

namespace keq::python {
namespace {
using K = Value::Kind;
using Attrs = absl::flat_hash_map<std::string, Ref>;

// A decorator that changes nothing keq observes (caching a pure function, copying __name__).
Ref identity_decorator(const std::string& name) {
  return builtin(name, [name](Interp& in, CallArgs& a) {
    if (a.pos.size() != 1) in.error(a.at, name + " decorates one function");
    return a.pos[0];
  });
}

// packaging.version.Version of a plain release ("2.11.0", a local "+cu130" ignored) as a tuple
// of ints, which orders as Version does; pre-releases and the like are not modelled.
Ref version_tuple(Interp& in, const std::string& text, Span at) {
  std::string release = text.substr(0, text.find('+'));
  std::vector<Ref> parts;
  size_t k = 0;
  while (k < release.size()) {
    size_t end = release.find('.', k);
    std::string part = release.substr(k, end == std::string::npos ? end : end - k);
    if (part.empty() || part.size() > 9 ||
        !std::all_of(part.begin(), part.end(), [](unsigned char c) { return std::isdigit(c); }))
      in.unsupported(
          at, "packaging.version.Version('" + text + "'): keq models plain release versions only");
    parts.push_back(integer(std::stoll(part)));
    if (end == std::string::npos) break;
    k = end + 1;
  }
  while (parts.size() > 1 && parts.back()->i == 0) parts.pop_back();  // 3.0 == 3.0.0
  return tuple(parts);
}

void install_functools(Interp& in) {
  Ref m = module_object("functools");
  auto& f = *m->attrs;
  // wraps(wrapped)(wrapper): CPython's update_wrapper copies __module__, __name__, __qualname__,
  // __doc__ where wrapped has them and sets __wrapped__ (inspect.signature follows it).
  f["wraps"] = builtin("functools.wraps", [](Interp& in, CallArgs& a) {
    if (a.pos.size() != 1 || !a.kw.empty())
      in.unsupported(a.at, "functools.wraps with assigned= or updated=");
    Ref wrapped = a.pos[0];
    return builtin("functools.wraps(...)", [wrapped](Interp& i2, CallArgs& d) {
      if (d.pos.size() != 1) i2.error(d.at, "functools.wraps(...) decorates one function");
      Ref wrapper = d.pos[0];
      if (wrapper->kind != K::Function) return wrapper;  // a class or builtin: left as it is
      for (const char* name : {"__module__", "__name__", "__doc__"}) {
        Ref v;
        try {
          v = i2.getattr(wrapped, name, d.at);
        } catch (const ProgramError&) {  // wrapped lacks it: CPython skips it
          continue;
        } catch (const Unsupported& e) {  // keq cannot tell: a read of it is UNSUPPORTED
          v = Interp::unavailable(e.what());
        }
        i2.setattr(wrapper, name, v, d.at);
      }
      i2.setattr(wrapper, "__wrapped__", wrapped, d.at);
      return wrapper;
    });
  });
  // @cache, @lru_cache and @lru_cache(maxsize=...): memoizing changes nothing keq observes for
  // the pure functions libraries cache (device queries, settings).
  f["cache"] = identity_decorator("functools.cache");
  f["lru_cache"] = builtin("functools.lru_cache", [](Interp&, CallArgs& a) -> Ref {
    if (a.pos.size() == 1 && is_callable(a.pos[0])) return a.pos[0];
    return identity_decorator("functools.lru_cache(...)");
  });
  f["partial"] = builtin("functools.partial", [](Interp& in, CallArgs& a) -> Ref {
    if (a.pos.empty()) in.error(a.at, "TypeError: partial() needs a callable");
    CallArgs bound = a;
    return builtin("functools.partial", [bound](Interp& i2, CallArgs& c) {
      CallArgs all = bound;
      all.at = c.at;
      Ref fn = all.pos[0];
      all.pos.erase(all.pos.begin());
      all.pos.insert(all.pos.end(), c.pos.begin(), c.pos.end());
      all.kw.insert(all.kw.end(), c.kw.begin(), c.kw.end());
      return i2.call(fn, all);
    });
  });
  f["reduce"] = builtin("functools.reduce", [](Interp& i2, CallArgs& a) -> Ref {
    if (a.pos.size() < 2) i2.error(a.at, "TypeError: reduce() takes 2 or 3 arguments");
    std::vector<Ref> xs = i2.to_sequence(a.pos[1], a.at);
    size_t k = 0;
    Ref acc = a.pos.size() > 2 ? a.pos[2] : nullptr;
    if (!acc) {
      if (xs.empty()) i2.raise(a.at, "TypeError: reduce() of empty iterable with no initial value");
      acc = xs[k++];
    }
    for (; k < xs.size(); ++k) {
      CallArgs c;
      c.at = a.at;
      c.pos = {acc, xs[k]};
      acc = i2.call(a.pos[0], c);
    }
    return acc;
  });
  in.register_module("functools", m);
}

void install_operator(Interp& in) {
  Ref m = module_object("operator");
  auto& o = *m->attrs;
  auto two = [](Interp& i2, CallArgs& a, const std::string& name) {
    if (a.pos.size() != 2 || !a.kw.empty())
      i2.error(a.at, "operator." + name + " takes 2 arguments");
  };
  for (auto [name, op] :
       std::initializer_list<std::pair<const char*, const char*>>{{"lt", "<"},
                                                                  {"le", "<="},
                                                                  {"eq", "=="},
                                                                  {"ne", "!="},
                                                                  {"ge", ">="},
                                                                  {"gt", ">"},
                                                                  {"contains", "in"}}) {
    std::string n = name, o2 = op;
    o[n] = builtin("operator." + n, [n, o2, two](Interp& i2, CallArgs& a) {
      two(i2, a, n);
      // operator.contains(seq, x) is `x in seq`
      return n == "contains" ? boolean(i2.compare(o2, a.pos[1], a.pos[0], a.at))
                             : boolean(i2.compare(o2, a.pos[0], a.pos[1], a.at));
    });
  }
  for (auto [name, op] :
       std::initializer_list<std::pair<const char*, const char*>>{{"add", "+"},
                                                                  {"sub", "-"},
                                                                  {"mul", "*"},
                                                                  {"truediv", "/"},
                                                                  {"floordiv", "//"},
                                                                  {"mod", "%"},
                                                                  {"pow", "**"},
                                                                  {"and_", "&"},
                                                                  {"or_", "|"},
                                                                  {"xor", "^"},
                                                                  {"lshift", "<<"},
                                                                  {"rshift", ">>"},
                                                                  {"matmul", "@"}}) {
    std::string n = name, o2 = op;
    o[n] = builtin("operator." + n, [n, o2, two](Interp& i2, CallArgs& a) {
      two(i2, a, n);
      return i2.binop(o2, a.pos[0], a.pos[1], a.at);
    });
  }
  in.register_module("operator", m);
}

// A distribution's name as its .dist-info folder spells it (PEP 503, underscores): lower case,
// each run of '-', '_' and '.' one '_'.
std::string dist_name(const std::string& name) {
  std::string out;
  for (char c : name) {
    bool sep = c == '-' || c == '_' || c == '.';
    if (sep && !out.empty() && out.back() == '_') continue;
    out += sep ? '_' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return out;
}

// The version of `pkg` that a NAME-VERSION.dist-info folder on the search path records, or "".
std::string installed_version(const Interp& in, const std::string& pkg) {
  namespace fs = std::filesystem;
  const std::string want = dist_name(pkg);
  std::vector<std::string> dirs = in.search_dirs();
  dirs.insert(dirs.end(), import_path().begin(), import_path().end());
  for (const std::string& dir : dirs) {
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(dir, ec)) {
      std::string f = entry.path().filename().string();
      const std::string suffix = ".dist-info";
      if (f.size() <= suffix.size() || f.compare(f.size() - suffix.size(), suffix.size(), suffix))
        continue;
      std::string stem = f.substr(0, f.size() - suffix.size());
      size_t dash = stem.find('-');
      if (dash != std::string::npos && dist_name(stem.substr(0, dash)) == want)
        return stem.substr(dash + 1);
    }
  }
  return "";
}

// importlib.util as libraries use it to probe for a module (xformers' libdevice_find, unsloth's
// device checks): find_spec locates without running it; module_from_spec then imports it
// (exec_module has nothing left to do), as CPython's pair of calls ends with the module run.
constexpr const char* kImportlibUtil = R"PY(
from importlib import import_module
from importlib._keq_util import findable, unsupported


class _Loader:
    def create_module(self, spec):
        return None

    def exec_module(self, module):
        return None


class ModuleSpec:
    def __init__(self, name, loader, *, origin=None, is_package=None):
        self.name = name
        self.loader = loader
        self.origin = origin
        self.submodule_search_locations = None
        self.parent = name[:name.rfind(".")] if "." in name else ""


def find_spec(name, package=None):
    if name.startswith("."):
        unsupported("importlib.util.find_spec of a relative name")
    if not findable(name):
        return None
    return ModuleSpec(name, _Loader())


def module_from_spec(spec):
    return import_module(spec.name)
)PY";

void install_importlib(Interp& in) {
  Ref m = module_object("importlib");
  (*m->attrs)["import_module"] = builtin("importlib.import_module", [](Interp& i2, CallArgs& a) {
    if (a.pos.empty() || a.pos[0]->kind != K::Str) i2.error(a.at, "importlib.import_module(name)");
    if (!a.pos[0]->s.empty() && a.pos[0]->s[0] == '.')
      i2.unsupported(a.at, "importlib.import_module of a relative name");
    return i2.module_value(a.pos[0]->s, a.at);
  });
  // importlib.metadata.version answers the versions keq models (SEMANTICS-FACTS.md's machine).
  Ref meta = module_object("importlib.metadata");
  (*meta->attrs)["version"] = builtin("importlib.metadata.version", [](Interp& i2, CallArgs& a) {
    std::string pkg = a.pos.empty() ? "" : i2.repr(a.pos[0]);
    if (!a.pos.empty() && a.pos[0]->kind == K::Str) pkg = a.pos[0]->s;
    if (pkg == "torch") return string("2.11.0");
    if (pkg == "triton") return string("3.6.0");
    // Another package: the version its .dist-info on the search path records (torchao's
    // __init__ reads its own).
    if (std::string v = installed_version(i2, pkg); !v.empty()) return string(v);
    i2.unsupported(a.at, "importlib.metadata.version('" + pkg +
                             "'): keq knows the versions of torch and triton, and of packages "
                             "whose .dist-info folder is on the search path");
  });
  // Caught where a version is looked up (`except PackageNotFoundError:`); keq never raises it.
  (*meta->attrs)["PackageNotFoundError"] =
      in.make_class("PackageNotFoundError", in.builtin_named("ModuleNotFoundError"),
                    std::make_shared<absl::flat_hash_map<std::string, Ref>>());
  (*m->attrs)["metadata"] = meta;
  in.register_module("importlib", m);
  in.register_module("importlib.metadata", meta);
  Ref util = module_object("importlib._keq_util");
  (*util->attrs)["findable"] = builtin("importlib.util.find_spec", [](Interp& i2, CallArgs& a) {
    if (a.pos.size() != 1 || a.pos[0]->kind != K::Str) i2.error(a.at, "find_spec(name)");
    return boolean(i2.module_findable(a.pos[0]->s, a.at));
  });
  (*util->attrs)["unsupported"] = builtin("importlib.util", [](Interp& i2, CallArgs& a) -> Ref {
    i2.unsupported(a.at, a.pos.empty() ? std::string("importlib.util") : a.pos[0]->s);
  });
  in.register_module("importlib._keq_util", util);
  in.register_model_source("importlib.util", kImportlibUtil);
}

void install_contextlib(Interp& in) {
  Ref m = module_object("contextlib");
  // A @contextmanager function's call is a context the with statement runs (exceptions.cc).
  (*m->attrs)["contextmanager"] = builtin("contextlib.contextmanager", [](Interp& i2, CallArgs& a) {
    if (a.pos.size() != 1 || !is_callable(a.pos[0]))
      i2.error(a.at, "contextmanager decorates one function");
    Ref fn = a.pos[0];
    return builtin("contextmanager", [fn](Interp&, CallArgs& c) {
      auto ctx = module_object("context:generator");
      auto kw = std::make_shared<Value>();
      kw->kind = K::Dict;
      for (const auto& [k, v] : c.kw) kw->dict.push_back({string(k), v});
      ctx->items = {fn, tuple(c.pos), kw};
      return ctx;
    });
  });
  (*m->attrs)["nullcontext"] = builtin("contextlib.nullcontext", [](Interp&, CallArgs&) {
    return module_object("context:nullcontext");
  });
  in.register_module("contextlib", m);
}

void install_typing(Interp& in) {
  // Annotations are never evaluated; these names only need to exist for imports, and Optional[X]
  // and the like where a program evaluates them (aliases) subscript to themselves.
  Ref m = module_object("typing");
  for (const char* n :
       {"Any",       "Callable",  "Dict",     "List",       "Optional", "Tuple",    "Union",
        "Sequence",  "Iterable",  "Iterator", "Type",       "Literal",  "Mapping",  "Set",
        "FrozenSet", "Generator", "Protocol", "NamedTuple", "Final",    "ClassVar", "Generic"})
    (*m->attrs)[n] = module_object(std::string("typing.") + n);
  // TypeVar('F', bound=...) and ParamSpec('P') name a type variable, which only annotations use.
  for (const char* n : {"TypeVar", "ParamSpec"}) {
    std::string name = std::string("typing.") + n;
    (*m->attrs)[n] = builtin(name, [name](Interp& i2, CallArgs& a) {
      if (a.pos.empty() || a.pos[0]->kind != K::Str) i2.error(a.at, name + "(name, ...)");
      return module_object(a.pos[0]->s);
    });
  }
  (*m->attrs)["TYPE_CHECKING"] = boolean(false);
  (*m->attrs)["overload"] = identity_decorator("typing.overload");
  (*m->attrs)["cast"] = builtin("typing.cast", [](Interp& i2, CallArgs& a) {
    if (a.pos.size() != 2) i2.error(a.at, "typing.cast(type, value)");
    return a.pos[1];
  });
  in.register_module("typing", m);
  Ref future = module_object("__future__");
  for (const char* n : {"annotations", "division", "print_function", "absolute_import"})
    (*future->attrs)[n] = boolean(true);
  in.register_module("__future__", future);
  // warnings.warn prints in CPython and changes nothing else; filters change only what is
  // printed (torchao's __init__ ignores a NumPy warning), unless they make warnings exceptions.
  Ref warnings = module_object("warnings");
  (*warnings->attrs)["warn"] = builtin("warnings.warn", [](Interp&, CallArgs&) { return none(); });
  for (const char* name : {"filterwarnings", "simplefilter"})
    (*warnings->attrs)[name] =
        builtin(std::string("warnings.") + name, [name](Interp& i2, CallArgs& a) -> Ref {
          Ref action = a.get(0, "action");
          if (!action || action->kind != K::Str) i2.error(a.at, std::string(name) + "(action)");
          if (action->s == "error")
            i2.unsupported(a.at, std::string("warnings.") + name +
                                     "(\"error\"): warnings raised as exceptions");
          return none();
        });
  (*warnings->attrs)["resetwarnings"] =
      builtin("warnings.resetwarnings", [](Interp&, CallArgs&) { return none(); });
  // `with warnings.catch_warnings():` binds None; with record=True, the list of warnings that
  // keq does not keep.
  (*warnings->attrs)["catch_warnings"] =
      builtin("warnings.catch_warnings", [](Interp& i2, CallArgs& a) {
        Ref record = a.get(SIZE_MAX, "record");
        if (record && i2.truthy(record, a.at))
          i2.unsupported(a.at, "warnings.catch_warnings(record=True): the warnings raised");
        return module_object("context:catch_warnings");
      });
  in.register_module("warnings", warnings);
}

void install_packaging(Interp& in) {
  Ref version = module_object("packaging.version");
  Ref parse = builtin("packaging.version.Version", [](Interp& i2, CallArgs& a) {
    if (a.pos.size() != 1 || a.pos[0]->kind != K::Str) i2.error(a.at, "Version(str)");
    return version_tuple(i2, a.pos[0]->s, a.at);
  });
  // Not `attrs["parse"] = attrs["Version"]`: the insertion may rehash under the reference.
  (*version->attrs)["Version"] = parse;
  (*version->attrs)["parse"] = parse;
  Ref packaging = module_object("packaging");
  (*packaging->attrs)["version"] = version;
  in.register_module("packaging", packaging);
  in.register_module("packaging.version", version);
}

// dataclasses: @dataclass (bare or with options) gives a class an __init__ over its annotated
// fields, base classes' fields first, with defaults from the class body or field(default=...,
// default_factory=...), then __post_init__. Options (frozen, eq, order, ...) change nothing
// keq observes on the paths it runs (a frozen instance is not assigned to by a correct program).
std::vector<std::string> dataclass_fields(const Ref& cls) {
  std::vector<Ref> chain;
  for (Ref c = cls; c; c = c->cls) chain.insert(chain.begin(), c);
  std::vector<std::string> names;
  for (const Ref& c : chain)
    if (auto a = c->attrs->find("__annotations__");
        a != c->attrs->end() && c->attrs->contains("__dataclass_fields__"))
      for (const auto& [k, v] : a->second->dict)
        if (std::find(names.begin(), names.end(), k->s) == names.end()) names.push_back(k->s);
  return names;
}

Ref make_dataclass(Interp& in, const Ref& cls, Span at) {
  if (cls->kind != K::Class) in.error(at, "@dataclass decorates a class");
  (*cls->attrs)["__dataclass_fields__"] = boolean(true);
  std::vector<std::string> names = dataclass_fields(cls);
  std::vector<Ref> defaults;  // per field: the class body's value, or null
  for (const std::string& n : names) {
    Ref d;
    for (Ref c = cls; c && !d; c = c->cls)
      if (auto it = c->attrs->find(n); it != c->attrs->end()) d = it->second;
    defaults.push_back(d);
  }
  if (cls->attrs->contains("__init__") && cls->attrs->at("__init__")->kind == K::Function)
    return cls;  // a class that writes its own __init__ keeps it (init=True does not replace it)
  (*cls->attrs)["__init__"] =
      builtin(cls->s + ".__init__", [names, defaults](Interp& i2, CallArgs& a) -> Ref {
        const Ref& self = a.pos.at(0);
        if (a.pos.size() - 1 > names.size())
          i2.raise(a.at, "TypeError: __init__() takes " + std::to_string(names.size() + 1) +
                             " positional arguments but " + std::to_string(a.pos.size()) +
                             " were given");
        for (size_t k = 0; k < names.size(); ++k) {
          Ref v = k + 1 < a.pos.size() ? a.pos[k + 1] : nullptr;
          for (auto& [kw, kv] : a.kw)
            if (kw == names[k]) v = kv;
          if (!v && defaults[k] && i2.is_instance_of(defaults[k], "Field")) {
            const Attrs& f = *defaults[k]->attrs;
            if (Ref factory = f.at("default_factory"); factory->kind != K::None) {
              CallArgs none_args;
              none_args.at = a.at;
              v = i2.call(factory, none_args);
            } else if (f.at("default")->kind != K::None || f.at("has_default")->b) {
              v = f.at("default");
            }
          } else if (!v) {
            v = defaults[k];
          }
          if (!v)
            i2.raise(a.at, "TypeError: __init__() missing 1 required positional argument: '" +
                               names[k] + "'");
          i2.setattr(self, names[k], v, a.at);
        }
        for (auto& [kw, kv] : a.kw)
          if (std::find(names.begin(), names.end(), kw) == names.end())
            i2.raise(a.at, "TypeError: __init__() got an unexpected keyword argument '" + kw + "'");
        for (Ref c = self->cls; c; c = c->cls)
          if (auto post = c->attrs->find("__post_init__"); post != c->attrs->end()) {
            CallArgs none_args;
            none_args.at = a.at;
            i2.call(i2.getattr(self, "__post_init__", a.at), none_args);
            break;
          }
        return none();
      });
  return cls;
}

// sys as CPython 3.11 on Linux answers: version, platform, maxsize, byteorder, argv and path
// empty (keq runs no script), sys.modules.get(name) for the modules imported so far, and
// stdout/stderr whose writes print nothing keq observes. sys.exit raises SystemExit.
void install_sys(Interp& in) {
  Ref m = module_object("sys");
  auto& t = *m->attrs;
  t["version_info"] = tuple({integer(3), integer(11), integer(0), string("final"), integer(0)});
  t["version_info"]->s = "major,minor,micro,releaselevel,serial";  // a named tuple
  t["version"] = string("3.11.0");
  t["hexversion"] = integer(0x030b00f0);
  t["platform"] = string("linux");
  t["byteorder"] = string("little");
  t["maxsize"] = integer(INT64_MAX);
  t["argv"] = list({});
  t["path"] = list({});
  Ref modules = module_object("sys.modules");
  (*modules->attrs)["get"] = builtin("sys.modules.get", [](Interp& i2, CallArgs& a) -> Ref {
    if (a.pos.empty() || a.pos[0]->kind != K::Str) i2.error(a.at, "sys.modules.get(name)");
    if (Ref mod = i2.imported_module(a.pos[0]->s)) return mod;
    return a.pos.size() > 1 ? a.pos[1] : none();
  });
  t["modules"] = modules;
  for (const char* stream : {"stdout", "stderr"}) {
    Ref s = module_object(std::string("sys.") + stream);
    (*s->attrs)["write"] = builtin("write", [](Interp&, CallArgs&) { return none(); });
    (*s->attrs)["flush"] = builtin("flush", [](Interp&, CallArgs&) { return none(); });
    t[stream] = s;
  }
  t["exit"] = builtin("sys.exit", [](Interp& i2, CallArgs& a) -> Ref {
    i2.raise(a.at, "SystemExit: " + (a.pos.empty() ? std::string("None") : i2.repr(a.pos[0])));
  });
  in.register_module("sys", m);
}

// collections: OrderedDict is a dict (dicts keep insertion order), defaultdict a dict that
// calls its factory for a missing key, deque a list that drops items past its maxlen (with
// appendleft and popleft), namedtuple a class whose
// instances hold their fields as attributes and index and iterate as tuples. The rest
// (Counter, ChainMap) is UNSUPPORTED by name.
Ref make_namedtuple(Interp& in, CallArgs& a) {
  Ref name = a.get(0, "typename"), spec = a.get(1, "field_names");
  if (!name || name->kind != K::Str || !spec) in.error(a.at, "namedtuple(typename, field_names)");
  std::vector<std::string> fields;
  if (spec->kind == K::Str) {
    std::string cur;
    for (char c : spec->s + " ") {
      if (c == ',' || std::isspace(static_cast<unsigned char>(c))) {
        if (!cur.empty()) fields.push_back(cur);
        cur.clear();
      } else {
        cur += c;
      }
    }
  } else {
    for (const Ref& f : in.to_sequence(spec, a.at)) fields.push_back(f->s);
  }
  std::vector<Ref> defaults;
  if (Ref d = a.get(SIZE_MAX, "defaults"); d && d->kind != K::None)
    defaults = in.to_sequence(d, a.at);
  auto attrs = std::make_shared<Attrs>();
  std::vector<Ref> names;
  for (const std::string& f : fields) names.push_back(string(f));
  (*attrs)["_fields"] = tuple(names);
  (*attrs)["__init__"] =
      builtin(name->s + ".__init__", [fields, defaults](Interp& i2, CallArgs& b) -> Ref {
        const Ref& self = b.pos.at(0);
        if (b.pos.size() - 1 > fields.size())
          i2.raise(b.at, "TypeError: too many positional arguments");
        const size_t first_default = fields.size() - std::min(defaults.size(), fields.size());
        for (size_t k = 0; k < fields.size(); ++k) {
          Ref v = k + 1 < b.pos.size() ? b.pos[k + 1] : nullptr;
          for (auto& [kw, kv] : b.kw)
            if (kw == fields[k]) v = kv;
          if (!v && k >= first_default) v = defaults[k - first_default];
          if (!v) i2.raise(b.at, "TypeError: missing required argument '" + fields[k] + "'");
          (*self->attrs)[fields[k]] = v;
          self->attr_order.push_back(fields[k]);
        }
        return none();
      });
  (*attrs)["__len__"] = builtin(name->s + ".__len__", [fields](Interp&, CallArgs&) {
    return integer(static_cast<int64_t>(fields.size()));
  });
  (*attrs)["__getitem__"] = builtin(name->s + ".__getitem__", [fields](Interp& i2, CallArgs& b) {
    if (b.pos.at(1)->kind != K::Int)
      i2.unsupported(b.at, "a namedtuple indexed by " + b.pos[1]->type_name());
    int64_t k = b.pos[1]->i, n = static_cast<int64_t>(fields.size());
    if (k < 0) k += n;
    if (k < 0 || k >= n) i2.raise(b.at, "IndexError: tuple index out of range");
    return b.pos[0]->attrs->at(fields[static_cast<size_t>(k)]);
  });
  (*attrs)["_asdict"] = builtin(name->s + "._asdict", [fields](Interp&, CallArgs& b) {
    auto d = std::make_shared<Value>();
    d->kind = K::Dict;
    for (const std::string& f : fields) d->dict.push_back({string(f), b.pos[0]->attrs->at(f)});
    return Ref(d);
  });
  Ref cls = in.make_class(name->s, nullptr, attrs);
  cls->b = true;  // a class the program defines (through namedtuple), not a library's
  return cls;
}

void install_collections(Interp& in, const Ref& dict, const Ref& list) {
  Ref m = module_object("collections");
  (*m->attrs)["OrderedDict"] = dict;
  (*m->attrs)["deque"] = builtin("collections.deque", [list](Interp& i2, CallArgs& a) -> Ref {
    int64_t maxlen = -1;
    if (Ref n = a.get(1, "maxlen"); n && n->kind != K::None) {
      if (n->kind != K::Int) i2.raise(a.at, "TypeError: an integer is required");
      if (n->i < 0) i2.raise(a.at, "ValueError: maxlen must be non-negative");
      maxlen = n->i;
    }
    CallArgs b;
    b.at = a.at;
    if (Ref items = a.get(0, "iterable")) b.pos = {items};
    Ref d = i2.call(list, b);
    d->s = kDequeMarker;
    d->i = maxlen;
    if (maxlen >= 0 && d->items.size() > static_cast<size_t>(maxlen))
      d->items.erase(d->items.begin(), d->items.end() - maxlen);
    return d;
  });
  (*m->attrs)["defaultdict"] =
      builtin("collections.defaultdict", [dict](Interp& i2, CallArgs& a) -> Ref {
        Ref factory = a.pos.empty() ? none() : a.pos[0];
        if (factory->kind != K::None && !is_callable(factory))
          i2.raise(a.at, "TypeError: first argument must be callable or None");
        CallArgs rest = a;
        if (!rest.pos.empty()) rest.pos.erase(rest.pos.begin());
        Ref d = i2.call(dict, rest);
        d->s = kDefaultDictMarker;
        d->items = {factory};
        return d;
      });
  (*m->attrs)["namedtuple"] = builtin("collections.namedtuple", make_namedtuple);
  in.register_module("collections", m);
  // collections.abc's names as typing's: for annotations and TypeVar bounds (fla's backends);
  // an isinstance against one stays keq's gap, as against typing's.
  Ref abc = module_object("collections.abc");
  for (const char* n : {"Callable", "Iterable", "Iterator", "Mapping", "Sequence", "Set",
                        "Generator", "MutableMapping", "MutableSequence", "Hashable", "Sized"})
    (*abc->attrs)[n] = module_object(std::string("collections.abc.") + n);
  (*m->attrs)["abc"] = abc;
  in.register_module("collections.abc", abc);
}

void install_dataclasses(Interp& in) {
  Ref m = module_object("dataclasses");
  (*m->attrs)["dataclass"] = builtin("dataclasses.dataclass", [](Interp& i2, CallArgs& a) -> Ref {
    if (!a.pos.empty()) return make_dataclass(i2, a.pos[0], a.at);
    return builtin("dataclasses.dataclass",
                   [](Interp& i3, CallArgs& b) { return make_dataclass(i3, b.pos.at(0), b.at); });
  });
  auto field_cls = in.make_class("Field", nullptr, std::make_shared<Attrs>());
  (*m->attrs)["field"] = builtin("dataclasses.field", [field_cls](Interp&, CallArgs& a) {
    auto f = std::make_shared<Value>();
    f->kind = K::Instance;
    f->cls = field_cls;
    f->attrs = std::make_shared<Attrs>();
    Ref d = a.get(SIZE_MAX, "default"), factory = a.get(SIZE_MAX, "default_factory");
    (*f->attrs)["default"] = d ? d : none();
    (*f->attrs)["has_default"] = boolean(d != nullptr);
    (*f->attrs)["default_factory"] = factory ? factory : none();
    return Ref(f);
  });
  (*m->attrs)["fields"] = builtin("dataclasses.fields", [field_cls](Interp& i2, CallArgs& a) {
    Ref x = a.pos.at(0);
    std::vector<Ref> out;
    for (const std::string& n : dataclass_fields(x->kind == K::Class ? x : x->cls)) {
      auto f = std::make_shared<Value>();
      f->kind = K::Instance;
      f->cls = field_cls;
      f->attrs = std::make_shared<Attrs>();
      (*f->attrs)["name"] = string(n);
      out.push_back(f);
    }
    if (out.empty()) i2.raise(a.at, "TypeError: must be called with a dataclass type or instance");
    return tuple(out);
  });
  (*m->attrs)["asdict"] = builtin("dataclasses.asdict", [](Interp& i2, CallArgs& a) {
    Ref x = a.pos.at(0);
    auto d = std::make_shared<Value>();
    d->kind = K::Dict;
    for (const std::string& n : dataclass_fields(x->cls))
      d->dict.push_back({string(n), i2.getattr(x, n, a.at)});
    return Ref(d);
  });
  (*m->attrs)["is_dataclass"] = builtin("dataclasses.is_dataclass", [](Interp&, CallArgs& a) {
    Ref x = a.pos.at(0);
    Ref c = x->kind == K::Class ? x : x->cls;
    return boolean(c && c->attrs->contains("__dataclass_fields__"));
  });
  in.register_module("dataclasses", m);
}

}  // namespace

void Interp::install_stdlib() {
  install_functools(*this);
  install_operator(*this);
  install_importlib(*this);
  install_os_path(*this);
  install_re(*this);
  install_contextlib(*this);
  install_typing(*this);
  install_packaging(*this);
  install_dataclasses(*this);
  install_sys(*this);
  install_collections(*this, builtin_named("dict"), builtin_named("list"));
}

// class P(typing.NamedTuple): fields are the annotated names in order, their defaults the
// values the body gives the last of them; the body's methods join namedtuple's.
Ref Interp::typed_named_tuple(const Node& def, const std::vector<std::string>& fields,
                              const absl::flat_hash_map<std::string, Ref>& body) {
  CallArgs a;
  a.at = def.span;
  std::vector<Ref> names, defaults;
  for (const std::string& f : fields) {
    names.push_back(string(f));
    if (auto it = body.find(f); it != body.end())
      defaults.push_back(it->second);
    else if (!defaults.empty())
      raise(def.span, "TypeError: Non-default namedtuple field " + f +
                          " cannot follow default field(s) " + fields[names.size() - 2]);
  }
  a.pos = {string(def.text), list(names)};
  a.kw.push_back({"defaults", list(defaults)});
  Ref cls = make_namedtuple(*this, a);
  for (const auto& [name, v] : body)
    if (std::find(fields.begin(), fields.end(), name) == fields.end()) (*cls->attrs)[name] = v;
  return cls;
}

}  // namespace keq::python
