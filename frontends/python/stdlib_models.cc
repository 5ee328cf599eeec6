// Standard-library modules keq models in Python itself: read as source, like any module, from
// text built into keq. Each does what CPython's does up to what keq observes: log records, locks
// and the environment change no tensor, so they go nowhere, always succeed, and are empty.
#include <algorithm>
#include <filesystem>
#include <set>

#include "frontends/python/interp.h"

namespace keq::python {

namespace {

// logging: loggers keep their level and handlers; records go nowhere.
constexpr const char* kLogging = R"PY(
CRITICAL = 50
FATAL = 50
ERROR = 40
WARNING = 30
WARN = 30
INFO = 20
DEBUG = 10
NOTSET = 0


class Formatter:
    def __init__(self, *args, **kwargs):
        pass


class Filter:
    def __init__(self, name=""):
        self.name = name


class Handler:
    def __init__(self, *args, **kwargs):
        self.level = NOTSET

    def setLevel(self, level):
        self.level = level

    def setFormatter(self, fmt):
        pass

    def addFilter(self, f):
        pass


class StreamHandler(Handler):
    pass


class NullHandler(Handler):
    pass


class FileHandler(Handler):
    pass


class Logger:
    def __init__(self, name, level=NOTSET):
        self.name = name
        self.level = level
        self.handlers = []
        self.propagate = True
        self.disabled = False

    def setLevel(self, level):
        self.level = level

    def getEffectiveLevel(self):
        return self.level if self.level else WARNING

    def isEnabledFor(self, level):
        return level >= self.getEffectiveLevel()

    def addHandler(self, handler):
        self.handlers.append(handler)

    def removeHandler(self, handler):
        pass

    def hasHandlers(self):
        return len(self.handlers) > 0

    def addFilter(self, f):
        pass

    def getChild(self, suffix):
        return getLogger(self.name + "." + suffix)

    def debug(self, *args, **kwargs):
        pass

    def info(self, *args, **kwargs):
        pass

    def warning(self, *args, **kwargs):
        pass

    def warn(self, *args, **kwargs):
        pass

    def error(self, *args, **kwargs):
        pass

    def exception(self, *args, **kwargs):
        pass

    def critical(self, *args, **kwargs):
        pass

    def log(self, level, *args, **kwargs):
        pass


_loggers = {}


def getLogger(name=None):
    key = "root" if name is None else name
    if key not in _loggers:
        _loggers[key] = Logger(key)
    return _loggers[key]


root = getLogger()


def basicConfig(*args, **kwargs):
    pass


def disable(level=CRITICAL):
    pass


def captureWarnings(capture):
    pass


def debug(*args, **kwargs):
    pass


def info(*args, **kwargs):
    pass


def warning(*args, **kwargs):
    pass


def error(*args, **kwargs):
    pass


def critical(*args, **kwargs):
    pass
)PY";

// threading: one thread; a lock is always free when taken.
constexpr const char* kThreading = R"PY(
class Lock:
    def __init__(self):
        self._held = False

    def acquire(self, blocking=True, timeout=-1):
        self._held = True
        return True

    def release(self):
        self._held = False

    def locked(self):
        return self._held

    def __enter__(self):
        return self.acquire()

    def __exit__(self, *exc):
        self.release()
        return False


RLock = Lock


class local:
    pass


class Event:
    def __init__(self):
        self._flag = False

    def is_set(self):
        return self._flag

    def set(self):
        self._flag = True

    def clear(self):
        self._flag = False

    def wait(self, timeout=None):
        return self._flag


class _Thread:
    name = "MainThread"
    ident = 1
    daemon = False


def current_thread():
    return _Thread()


main_thread = current_thread


def get_ident():
    return 1


TIMEOUT_MAX = 9223372036.0
)PY";

// os: an empty environment (KernelBench runs set no LIGER_*, TRITON_* variables keq would have
// to model); os.path for the names libraries join.
constexpr const char* kOs = R"PY(
environ = {}
sep = "/"
name = "posix"


def getenv(key, default=None):
    return environ.get(key, default)


def cpu_count():
    return 16


def getpid():
    return 1
)PY";

}  // namespace

// pkgutil.extend_path, which namespace-style packages call in __init__ (fla): keq reads a
// package from its one folder, so the path stays as it is (CPython would add the same package's
// folders elsewhere on sys.path, which keq does not search). iter_modules(path) lists the
// folders as CPython's file finder does (Liger's ops/__init__ imports its backends by it);
// without a path it would list sys.path, which keq does not model (UNSUPPORTED).
constexpr const char* kPkgutil = R"PY(
from collections import namedtuple

ModuleInfo = namedtuple("ModuleInfo", "module_finder name ispkg")


def extend_path(path, name):
    return path


def iter_modules(path=None, prefix=""):
    return [ModuleInfo(None, prefix + name, ispkg) for name, ispkg in _keq_folder_modules(path)]
)PY";

// A module's name from a file name, as inspect.getmodulename (CPython 3.11 on x86_64 Linux:
// the longest suffix first), or "" for none.
static std::string module_name_of(const std::string& file) {
  for (const char* suffix :
       {".cpython-311-x86_64-linux-gnu.so", ".abi3.so", ".pyc", ".py", ".so"}) {
    std::string_view sv(suffix);
    if (file.size() > sv.size() && file.compare(file.size() - sv.size(), sv.size(), sv) == 0)
      return file.substr(0, file.size() - sv.size());
  }
  return "";
}

// pkgutil's _iter_file_finder_modules over each folder: names sorted, a folder counts when it
// holds an __init__, each name once.
static std::vector<Ref> folder_modules(const std::vector<std::string>& dirs) {
  namespace fs = std::filesystem;
  std::vector<Ref> out;
  std::set<std::string> yielded;
  auto listing = [](const fs::path& dir) {
    std::vector<std::string> names;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(dir, ec)) names.push_back(e.path().filename());
    std::sort(names.begin(), names.end());
    return names;
  };
  for (const std::string& dir : dirs)
    for (const std::string& fn : listing(dir)) {
      std::string mod = module_name_of(fn);
      if (mod == "__init__" || yielded.contains(mod)) continue;
      bool package = false;
      std::error_code ec;
      if (mod.empty() && fs::is_directory(fs::path(dir) / fn, ec) &&
          fn.find('.') == std::string::npos) {
        for (const std::string& inner : listing(fs::path(dir) / fn))
          package = package || module_name_of(inner) == "__init__";
        if (!package) continue;
        mod = fn;
      }
      if (mod.empty() || mod.find('.') != std::string::npos) continue;
      yielded.insert(mod);
      out.push_back(tuple({string(mod), boolean(package)}));
    }
  return out;
}

// platform as on the H200 host keq models (x86_64 Linux, CPython 3.11): libraries branch on
// the architecture at import (fla's IS_ARM).
constexpr const char* kPlatform = R"PY(
def system():
    return "Linux"


def machine():
    return "x86_64"


def processor():
    return "x86_64"


def python_implementation():
    return "CPython"


def python_version():
    return "3.11.2"


def python_version_tuple():
    return ("3", "11", "2")
)PY";

// itertools' common functions, as lists (keq has no general generators): iterating the result
// or taking list() of it is what host code does with them.
constexpr const char* kItertools = R"PY(
def product(*iterables, repeat=1):
    pools = [list(p) for p in iterables] * repeat
    result = [()]
    for pool in pools:
        result = [r + (x,) for r in result for x in pool]
    return result


def chain(*iterables):
    return [x for it in iterables for x in it]


def accumulate(iterable, func=None, initial=None):
    out = [] if initial is None else [initial]
    total = initial
    for x in iterable:
        total = x if total is None else (total + x if func is None else func(total, x))
        out.append(total)
    return out


def repeat(obj, times):
    return [obj] * times


def zip_longest(*iterables, fillvalue=None):
    lists = [list(it) for it in iterables]
    longest = max([len(xs) for xs in lists], default=0)
    return [tuple(xs[k] if k < len(xs) else fillvalue for xs in lists) for k in range(longest)]


def combinations(iterable, r):
    pool = list(iterable)
    if r == 0:
        return [()]
    return [(pool[i],) + rest for i in range(len(pool))
            for rest in combinations(pool[i + 1:], r - 1)]


def permutations(iterable, r=None):
    pool = list(iterable)
    r = len(pool) if r is None else r
    if r == 0:
        return [()]
    return [(pool[i],) + rest for i in range(len(pool))
            for rest in permutations(pool[:i] + pool[i + 1:], r - 1)]
)PY";

// abc: ABC is a plain base class and abstractmethod marks nothing keq checks (a class that
// leaves one abstract would fail to instantiate in CPython: not modelled).
constexpr const char* kAbc = R"PY(
class ABC:
    pass


def abstractmethod(f):
    return f
)PY";

// enum.Enum: the class marks itself; the interpreter makes the members (interp_objects.cc).
// IntEnum, Flag and auto are not modelled (their members are numbers too).
constexpr const char* kEnum = R"PY(
class Enum:
    __keq_enum__ = True
)PY";

// inspect: signatures of the program's functions (what decorators read to map arguments to
// names), the is* predicates and getmembers. Parameter kinds are ints with CPython's values
// (comparisons and ordering behave; their repr differs). Annotations are not evaluated: reading
// one the def wrote is UNSUPPORTED. A library function keq models as a builtin has its recorded
// parameter names; reading their defaults or kinds is UNSUPPORTED.
constexpr const char* kInspect = R"PY(
class _empty:
    pass


class _void:
    pass


class _unread:
    pass


class Parameter:
    empty = _empty
    POSITIONAL_ONLY = 0
    POSITIONAL_OR_KEYWORD = 1
    VAR_POSITIONAL = 2
    KEYWORD_ONLY = 3
    VAR_KEYWORD = 4

    def __init__(self, name, kind, *, default=_empty, annotation=_empty):
        self.name = name
        self.kind = kind
        self.default = default
        self._annotation = annotation

    @property
    def annotation(self):
        if self._annotation is _unread:
            _keq_unmodelled("the annotation of parameter " + self.name + " (keq does not evaluate annotations)")
        return self._annotation

    def replace(self, *, name=_void, kind=_void, default=_void, annotation=_void):
        return Parameter(self.name if name is _void else name,
                         self.kind if kind is _void else kind,
                         default=self.default if default is _void else default,
                         annotation=self.annotation if annotation is _void else annotation)


class _LibraryParameter:
    empty = _empty

    def __init__(self, name, owner):
        self.name = name
        self._owner = owner

    @property
    def default(self):
        _keq_unmodelled(self._owner + ": the default of parameter " + self.name)

    @property
    def kind(self):
        _keq_unmodelled(self._owner + ": the kind of parameter " + self.name)

    @property
    def annotation(self):
        _keq_unmodelled(self._owner + ": the annotation of parameter " + self.name)


class BoundArguments:
    def __init__(self, signature, arguments):
        self.signature = signature
        self._signature = signature
        self.arguments = arguments

    @property
    def args(self):
        out = []
        for p in self.signature.parameters.values():
            if p.kind == Parameter.VAR_POSITIONAL:
                out.extend(self.arguments.get(p.name, ()))
            elif p.kind in (Parameter.POSITIONAL_ONLY, Parameter.POSITIONAL_OR_KEYWORD):
                if p.name not in self.arguments:
                    break
                out.append(self.arguments[p.name])
        return tuple(out)

    @property
    def kwargs(self):
        out = {}
        for p in self.signature.parameters.values():
            if p.kind == Parameter.VAR_KEYWORD:
                out.update(self.arguments.get(p.name, {}))
            elif p.kind == Parameter.KEYWORD_ONLY and p.name in self.arguments:
                out[p.name] = self.arguments[p.name]
        return out

    def apply_defaults(self):
        filled = {}
        for p in self.signature.parameters.values():
            if p.name in self.arguments:
                filled[p.name] = self.arguments[p.name]
            elif p.kind == Parameter.VAR_POSITIONAL:
                filled[p.name] = ()
            elif p.kind == Parameter.VAR_KEYWORD:
                filled[p.name] = {}
            elif p.default is not _empty:
                filled[p.name] = p.default
        self.arguments = filled


class Signature:
    empty = _empty

    def __init__(self, parameters=None, *, return_annotation=_empty):
        self.parameters = {}
        for p in parameters or ():
            self.parameters[p.name] = p
        self.return_annotation = return_annotation

    def replace(self, *, parameters=_void, return_annotation=_void):
        return Signature(self.parameters.values() if parameters is _void else parameters,
                         return_annotation=self.return_annotation if return_annotation is _void
                         else return_annotation)

    def bind(self, *args, **kwargs):
        return self._bind(args, kwargs, False)

    def bind_partial(self, *args, **kwargs):
        return self._bind(args, kwargs, True)

    def _bind(self, args, kwargs, partial):
        arguments = {}
        kwargs = dict(kwargs)
        params = list(self.parameters.values())
        i = 0
        for p in params:
            if p.kind in (Parameter.POSITIONAL_ONLY, Parameter.POSITIONAL_OR_KEYWORD):
                if i < len(args):
                    if p.name in kwargs and p.kind == Parameter.POSITIONAL_OR_KEYWORD:
                        raise TypeError("multiple values for argument '" + p.name + "'")
                    arguments[p.name] = args[i]
                    i += 1
                elif p.kind == Parameter.POSITIONAL_OR_KEYWORD and p.name in kwargs:
                    arguments[p.name] = kwargs.pop(p.name)
                elif not partial and p.default is _empty:
                    raise TypeError("missing a required argument: '" + p.name + "'")
            elif p.kind == Parameter.VAR_POSITIONAL:
                if i < len(args):
                    arguments[p.name] = tuple(args[i:])
                i = len(args)
            elif p.kind == Parameter.KEYWORD_ONLY:
                if p.name in kwargs:
                    arguments[p.name] = kwargs.pop(p.name)
                elif not partial and p.default is _empty:
                    raise TypeError("missing a required argument: '" + p.name + "'")
            elif p.kind == Parameter.VAR_KEYWORD:
                if kwargs:
                    arguments[p.name] = kwargs
                kwargs = {}
        if i < len(args):
            raise TypeError("too many positional arguments")
        if kwargs:
            raise TypeError("got an unexpected keyword argument '" + list(kwargs)[0] + "'")
        return BoundArguments(self, arguments)


def signature(obj, *, follow_wrapped=True):
    while follow_wrapped and _keq_kind(obj, False) == "function" and hasattr(obj, "__wrapped__"):
        obj = obj.__wrapped__
    params = []
    for name, kind, has_default, default, annotated, owner in _keq_parameters(obj):
        if owner is not None:
            params.append(_LibraryParameter(name, owner))
            continue
        params.append(Parameter(name, kind, default=default if has_default else _empty,
                                annotation=_unread if annotated else _empty))
    return Signature(params)


def unwrap(func, *, stop=None):
    f = func
    while hasattr(f, "__wrapped__") and not (stop is not None and stop(f)):
        f = f.__wrapped__
    return f


def isfunction(obj):
    return _keq_kind(obj) == "function"


def ismethod(obj):
    return _keq_kind(obj) == "method"


def isclass(obj):
    return _keq_kind(obj) == "class"


def ismodule(obj):
    return _keq_kind(obj) == "module"


def isbuiltin(obj):
    return _keq_kind(obj) == "builtin"


def isroutine(obj):
    return _keq_kind(obj) in ("function", "method", "builtin")


def getmembers(obj, predicate=None):
    out = []
    for name in sorted(dir(obj)):
        value = getattr(obj, name)
        if predicate is None or predicate(value):
            out.append((name, value))
    return out
)PY";

namespace {

using K = Value::Kind;

// A Python function's parameters as inspect lists them: (name, kind, has a default, the
// default, annotated, None); `skip` leading ones dropped (a bound method's self).
std::vector<Ref> function_parameters(const Function& fn, size_t skip) {
  const Node& def = fn.tree->at(fn.def);
  std::vector<NodeId> params = def.kind == NodeKind::FunctionDef
                                   ? fn.tree->at(def.kids[1]).kids
                                   : std::vector<NodeId>(def.kids.begin(), def.kids.end() - 1);
  enum { kPositionalOnly, kPlain, kVarPositional, kKeywordOnly, kVarKeyword };
  std::vector<Ref> out;
  bool keyword_only = false;
  for (size_t k = 0; k < params.size(); ++k) {
    const Node& p = fn.tree->at(params[k]);
    int kind = kPlain;
    if (p.flags == 4) {  // '/': every parameter before it is positional-only
      for (Ref& earlier : out) earlier->items[1] = integer(kPositionalOnly);
      continue;
    }
    if (p.flags == 3) {  // a bare '*'
      keyword_only = true;
      continue;
    }
    if (p.flags == 1) kind = kVarPositional, keyword_only = true;
    if (p.flags == 2) kind = kVarKeyword;
    if (p.flags == 0 && keyword_only) kind = kKeywordOnly;
    Ref d = k < fn.defaults.size() ? fn.defaults[k] : nullptr;
    out.push_back(tuple({string(p.text), integer(kind), boolean(d != nullptr), d ? d : none(),
                         boolean(!p.kids.empty() && p.kids[0] != kNoNode), none()}));
  }
  size_t drop = std::min(skip, out.size());
  if (drop && out[0]->items[1]->i > kPlain) drop = 0;  // f(*args): self goes into args
  out.erase(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(drop));
  return out;
}

Ref parameters_of(Interp& in, const Ref& obj, Span at) {
  auto library = [&](const std::string& owner) {
    const std::vector<std::string>* names = in.builtin_parameters(owner);
    if (!names)
      in.unsupported(at, "inspect.signature of " + owner + " (keq models it as a builtin)");
    std::vector<Ref> out;
    for (const std::string& n : *names)
      out.push_back(
          tuple({string(n), none(), boolean(false), none(), boolean(false), string(owner)}));
    return list(std::move(out));
  };
  switch (obj->kind) {
    case K::Function:
      return list(function_parameters(*obj->fn, 0));
    case K::Builtin:
      return library(obj->s);
    case K::BoundMethod:
      if (obj->items[1]->kind == K::Function)
        return list(function_parameters(*obj->items[1]->fn, 1));
      break;
    case K::Class:
    case K::Instance: {
      bool cls = obj->kind == K::Class;
      Ref start = cls ? obj : obj->cls;
      for (Ref c = start; c; c = c->cls)
        if (auto it = c->attrs->find(cls ? "__init__" : "__call__"); it != c->attrs->end()) {
          if (it->second->kind == K::Function)
            return list(function_parameters(*it->second->fn, it->second->b ? 0 : 1));
          break;
        }
      if (!cls && !is_callable(obj))
        in.raise(at, "TypeError: " + in.repr(obj) + " is not a callable object");
      break;
    }
    default:
      if (!is_callable(obj))
        in.raise(at, "TypeError: " + in.repr(obj) + " is not a callable object");
  }
  in.unsupported(at, "inspect.signature of " + obj->type_name());
}

// What inspect's predicates test. A builtin here may be a Python function in the real library
// (torch.nn.functional.relu is one): keq cannot tell, so asking is UNSUPPORTED where `strict`.
Ref kind_of(Interp& in, const Ref& obj, bool strict, Span at) {
  switch (obj->kind) {
    case K::Function:
      return string("function");
    case K::Class:
      return string("class");
    case K::Module:
      if (obj->s == kPropertyTag) return string("other");
      in.available(obj, at);
      return string("module");
    case K::BoundMethod:
      if (obj->items[1]->kind == K::Function) return string("method");
      break;
    case K::Builtin:
      if (!strict) return string("builtin");
      break;
    default:
      return string("other");
  }
  in.unsupported(at, "whether " + obj->type_name() +
                         " is a Python function or a builtin (inspect; keq models it in C++)");
}

}  // namespace

std::vector<std::pair<std::string, Ref>> stdlib_model_builtins(const std::string& name) {
  if (name == "inspect")
    return {{"_keq_parameters",
             builtin("inspect.signature",
                     [](Interp& in, CallArgs& a) { return parameters_of(in, a.pos.at(0), a.at); })},
            {"_keq_kind", builtin("inspect",
                                  [](Interp& in, CallArgs& a) {
                                    return kind_of(in, a.pos.at(0),
                                                   a.pos.size() < 2 || in.truthy(a.pos[1], a.at),
                                                   a.at);
                                  })},
            {"_keq_unmodelled", builtin("inspect", [](Interp& in, CallArgs& a) -> Ref {
               in.unsupported(a.at, "inspect: " + a.pos.at(0)->s + " is not modelled");
             })}};
  if (name != "pkgutil") return {};
  return {{"_keq_folder_modules", builtin("pkgutil.iter_modules", [](Interp& in, CallArgs& a) {
             Ref path = a.pos.at(0);
             if (path->kind == Value::Kind::None)
               in.unsupported(a.at,
                              "pkgutil.iter_modules() over sys.path (keq models no sys.path)");
             std::vector<std::string> dirs;
             for (const Ref& d : path->kind == Value::Kind::Str ? std::vector<Ref>{path}
                                                                : in.to_sequence(path, a.at))
               if (d->kind == Value::Kind::Str) dirs.push_back(d->s);
             return list(folder_modules(dirs));
           })}};
}

const char* stdlib_model_source(const std::string& name) {
  if (name == "enum") return kEnum;
  if (name == "itertools") return kItertools;
  if (name == "abc") return kAbc;
  if (name == "pkgutil") return kPkgutil;
  if (name == "inspect") return kInspect;
  if (name == "platform") return kPlatform;
  if (name == "logging") return kLogging;
  if (name == "threading") return kThreading;
  if (name == "os") return kOs;
  return nullptr;
}

}  // namespace keq::python
