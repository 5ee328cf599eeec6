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

std::vector<std::pair<std::string, Ref>> stdlib_model_builtins(const std::string& name) {
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
  if (name == "platform") return kPlatform;
  if (name == "logging") return kLogging;
  if (name == "threading") return kThreading;
  if (name == "os") return kOs;
  return nullptr;
}

}  // namespace keq::python
