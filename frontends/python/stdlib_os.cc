// os.path (posixpath) and importlib.machinery's FileFinder as libraries run them at import:
// xformers' __init__ looks for its compiled extension next to its own source
// (os.path.dirname(__file__), FileFinder(...).find_spec("_C")) and goes on without it when it is
// absent. The string functions are posixpath's; the queries (exists, isfile, isdir, islink,
// realpath) read the file system keq reads the sources from, which is the install the
// program imports. A relative path is resolved against keq's working directory, where a relative
// search-path entry (and so a module's __file__) is rooted; the report says so.
#include <filesystem>

#include "frontends/python/interp.h"

namespace keq::python {
namespace {
namespace fs = std::filesystem;
using K = Value::Kind;

constexpr const char* kOsPath = R"PY(
from _keq_os import absolute, exists, isfile, isdir, islink, realpath

sep = "/"
pathsep = ":"
curdir = "."
pardir = ".."
extsep = "."
altsep = None
defpath = "/bin:/usr/bin"
devnull = "/dev/null"


def _str(p):
    if not isinstance(p, str):
        raise TypeError(f"expected str, bytes or os.PathLike object, not {type(p).__name__}")
    return p


def isabs(s):
    return _str(s).startswith("/")


def join(a, *p):
    path = _str(a)
    for b in p:
        b = _str(b)
        if b.startswith("/"):
            path = b
        elif not path or path.endswith("/"):
            path += b
        else:
            path += "/" + b
    return path


def split(p):
    p = _str(p)
    i = p.rfind("/") + 1
    head, tail = p[:i], p[i:]
    if head and head != "/" * len(head):
        head = head.rstrip("/")
    return head, tail


def dirname(p):
    return split(p)[0]


def basename(p):
    p = _str(p)
    return p[p.rfind("/") + 1:]


def splitext(p):
    p = _str(p)
    sep_index = p.rfind("/")
    dot_index = p.rfind(".")
    if dot_index > sep_index:
        k = sep_index + 1
        while k < dot_index:
            if p[k] != ".":
                return p[:dot_index], p[dot_index:]
            k += 1
    return p, ""


def normpath(path):
    path = _str(path)
    if path == "":
        return "."
    slashes = 1 if path.startswith("/") else 0
    if slashes and path.startswith("//") and not path.startswith("///"):
        slashes = 2
    parts = []
    for comp in path.split("/"):
        if comp == "" or comp == ".":
            continue
        if comp != ".." or (not slashes and not parts) or (parts and parts[-1] == ".."):
            parts.append(comp)
        elif parts:
            parts.pop()
    path = "/" * slashes + "/".join(parts)
    return path or "."


def abspath(path):
    return normpath(absolute(path) if not isabs(path) else path)


def commonprefix(m):
    if not m:
        return ""
    s1, s2 = min(m), max(m)
    for i in range(len(s1)):
        if s1[i] != s2[i]:
            return s1[:i]
    return s1
)PY";

// importlib.machinery: FileFinder.find_spec finds NAME in its folder as CPython's finder does
// for the suffixes it was given; the loaders only name the kind of module (keq never loads a
// compiled extension: a use of one is UNSUPPORTED where it happens).
constexpr const char* kImportlibMachinery = R"PY(
from _keq_os import isfile, isdir
from importlib.util import ModuleSpec

EXTENSION_SUFFIXES = [".cpython-311-x86_64-linux-gnu.so", ".abi3.so", ".so"]
SOURCE_SUFFIXES = [".py"]
BYTECODE_SUFFIXES = [".pyc"]


class ExtensionFileLoader:
    def __init__(self, fullname, path):
        self.name = fullname
        self.path = path


class SourceFileLoader:
    def __init__(self, fullname, path):
        self.name = fullname
        self.path = path


class FileFinder:
    def __init__(self, path, *loader_details):
        self.path = path or "."
        self._loaders = [(suffix, loader) for loader, suffixes in loader_details
                         for suffix in suffixes]

    def find_spec(self, fullname, target=None):
        tail = fullname.rpartition(".")[2]
        base = self.path + "/" + tail
        if isdir(base):
            for suffix, loader in self._loaders:
                init = base + "/__init__" + suffix
                if isfile(init):
                    return ModuleSpec(fullname, loader(fullname, init), origin=init)
        for suffix, loader in self._loaders:
            full = base + suffix
            if isfile(full):
                return ModuleSpec(fullname, loader(fullname, full), origin=full)
        return None
)PY";

// The path a query reads: a relative one against keq's working directory, noted in the report.
fs::path queried(Interp& in, CallArgs& a) {
  Ref p = a.get(0, "path");
  if (!p || p->kind != K::Str)
    in.raise_exception(a.at, "TypeError", "expected str, bytes or os.PathLike object");
  fs::path path(p->s);
  if (path.is_relative())
    in.note(
        "os.path: relative paths are resolved against keq's working directory, where a relative "
        "search-path entry (and so a module's __file__) is rooted");
  return path;
}

Ref query(const std::string& name, bool (*test)(const fs::path&, std::error_code&)) {
  return builtin("os.path." + name, [test](Interp& in, CallArgs& a) {
    std::error_code ec;
    return boolean(test(queried(in, a), ec));
  });
}

}  // namespace

void install_os_path(Interp& in) {
  Ref m = module_object("_keq_os");
  auto& attrs = *m->attrs;
  attrs["exists"] =
      query("exists", [](const fs::path& p, std::error_code& ec) { return fs::exists(p, ec); });
  attrs["isfile"] = query(
      "isfile", [](const fs::path& p, std::error_code& ec) { return fs::is_regular_file(p, ec); });
  attrs["isdir"] = query(
      "isdir", [](const fs::path& p, std::error_code& ec) { return fs::is_directory(p, ec); });
  attrs["islink"] =
      query("islink", [](const fs::path& p, std::error_code& ec) { return fs::is_symlink(p, ec); });
  attrs["realpath"] = builtin("os.path.realpath", [](Interp& in, CallArgs& a) {
    std::error_code ec;
    fs::path p = fs::weakly_canonical(fs::absolute(queried(in, a)), ec);
    return string(p.lexically_normal().string());
  });
  attrs["absolute"] = builtin("os.path.abspath", [](Interp& in, CallArgs& a) {
    return string(fs::absolute(queried(in, a)).string());
  });
  in.register_module("_keq_os", m);
  in.register_model_source("os.path", kOsPath);
  in.register_model_source("posixpath", kOsPath);
  in.register_model_source("importlib.machinery", kImportlibMachinery);
}

}  // namespace keq::python
