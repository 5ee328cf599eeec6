// Imports: modules keq models (registered by the frontends), and modules read as source from a
// search path, symbolically, like the main file. Nothing is ever executed.
//
// A source module's module level runs as CPython runs it, with one difference that keeps keq
// useful on libraries: where it stops at something keq does not model, the import still
// succeeds, and every name the rest of the module would bind is *unavailable*: using one is
// UNSUPPORTED naming where the module stopped, and the report lists the stop. A library whose
// __init__ registers backends keq does not model still lends the kernels a candidate imports.
// An exception Python itself would raise there (ModuleNotFoundError, an assert) fails the
// import as in CPython.
#include <absl/container/flat_hash_set.h>

#include <algorithm>
#include <filesystem>
#include <mutex>

#include "frontends/python/interp.h"

namespace keq::python {
namespace {
using K = Value::Kind;
namespace fs = std::filesystem;

std::vector<std::string>& configured_path() {
  static std::vector<std::string> dirs;
  return dirs;
}

// Top-level modules of CPython 3.11's standard library (sys.stdlib_module_names, without the
// private ones). keq never reads their source: the ones it models are registered, and the rest
// are UNSUPPORTED by name.
bool is_stdlib(const std::string& top) {
  static const absl::flat_hash_set<std::string> kNames = {
      "__future__",   "abc",          "aifc",
      "antigravity",  "argparse",     "array",
      "ast",          "asynchat",     "asyncio",
      "asyncore",     "atexit",       "audioop",
      "base64",       "bdb",          "binascii",
      "bisect",       "builtins",     "bz2",
      "cProfile",     "calendar",     "cgi",
      "cgitb",        "chunk",        "cmath",
      "cmd",          "code",         "codecs",
      "codeop",       "collections",  "colorsys",
      "compileall",   "concurrent",   "configparser",
      "contextlib",   "contextvars",  "copy",
      "copyreg",      "crypt",        "csv",
      "ctypes",       "curses",       "dataclasses",
      "datetime",     "dbm",          "decimal",
      "difflib",      "dis",          "distutils",
      "doctest",      "email",        "encodings",
      "ensurepip",    "enum",         "errno",
      "faulthandler", "fcntl",        "filecmp",
      "fileinput",    "fnmatch",      "fractions",
      "ftplib",       "functools",    "gc",
      "genericpath",  "getopt",       "getpass",
      "gettext",      "glob",         "graphlib",
      "grp",          "gzip",         "hashlib",
      "heapq",        "hmac",         "html",
      "http",         "idlelib",      "imaplib",
      "imghdr",       "imp",          "importlib",
      "inspect",      "io",           "ipaddress",
      "itertools",    "json",         "keyword",
      "lib2to3",      "linecache",    "locale",
      "logging",      "lzma",         "mailbox",
      "mailcap",      "marshal",      "math",
      "mimetypes",    "mmap",         "modulefinder",
      "msilib",       "msvcrt",       "multiprocessing",
      "netrc",        "nis",          "nntplib",
      "nt",           "ntpath",       "nturl2path",
      "numbers",      "opcode",       "operator",
      "optparse",     "os",           "ossaudiodev",
      "pathlib",      "pdb",          "pickle",
      "pickletools",  "pipes",        "pkgutil",
      "platform",     "plistlib",     "poplib",
      "posix",        "posixpath",    "pprint",
      "profile",      "pstats",       "pty",
      "pwd",          "py_compile",   "pyclbr",
      "pydoc",        "pydoc_data",   "pyexpat",
      "queue",        "quopri",       "random",
      "re",           "readline",     "reprlib",
      "resource",     "rlcompleter",  "runpy",
      "sched",        "secrets",      "select",
      "selectors",    "shelve",       "shlex",
      "shutil",       "signal",       "site",
      "smtpd",        "smtplib",      "sndhdr",
      "socket",       "socketserver", "spwd",
      "sqlite3",      "sre_compile",  "sre_constants",
      "sre_parse",    "ssl",          "stat",
      "statistics",   "string",       "stringprep",
      "struct",       "subprocess",   "sunau",
      "symtable",     "sys",          "sysconfig",
      "syslog",       "tabnanny",     "tarfile",
      "telnetlib",    "tempfile",     "termios",
      "textwrap",     "this",         "threading",
      "time",         "timeit",       "tkinter",
      "token",        "tokenize",     "tomllib",
      "trace",        "traceback",    "tracemalloc",
      "tty",          "turtle",       "turtledemo",
      "types",        "typing",       "unicodedata",
      "unittest",     "urllib",       "uu",
      "uuid",         "venv",         "warnings",
      "wave",         "weakref",      "webbrowser",
      "winreg",       "winsound",     "wsgiref",
      "xdrlib",       "xml",          "xmlrpc",
      "zipapp",       "zipfile",      "zipimport",
      "zlib",         "zoneinfo"};
  return kNames.contains(top);
}

// Parsed once per process: a library module is read by every program run that imports it.
// `source`: keq's own Python text for a modelled standard-library module (`file` names it).
std::shared_ptr<const Tree> parse_cached(const std::string& file, const char* source = nullptr) {
  static std::mutex mu;
  static absl::flat_hash_map<std::string, std::shared_ptr<const Tree>> cache;
  std::lock_guard<std::mutex> lock(mu);
  auto& slot = cache[file];
  if (!slot) slot = std::make_shared<const Tree>(source ? parse(source, file) : parse_file(file));
  return slot;
}

// Names a statement binds in its scope, nested blocks included (not function bodies); for a
// statement that mutates an object (`d[k] = v`, `obj.x = v`, `d.update(...)`), the object's
// name too: after a stop, those objects no longer hold what the module would have left.
void bound_names(const Tree& t, NodeId s, std::vector<std::string>& out) {
  if (s == kNoNode) return;
  const Node& n = t.at(s);
  auto target = [&](NodeId id, auto& self) -> void {
    if (id == kNoNode) return;
    const Node& x = t.at(id);
    if (x.kind == NodeKind::Name) {
      out.push_back(x.text);
    } else if (x.kind == NodeKind::Tuple || x.kind == NodeKind::Starred) {
      for (NodeId k : x.kids) self(k, self);
    } else if (x.kind == NodeKind::Subscript || x.kind == NodeKind::Attribute) {
      self(x.kids[0], self);  // the object mutated
    }
  };
  switch (n.kind) {
    case NodeKind::Assign:
      for (size_t k = 0; k + 1 < n.kids.size(); ++k) target(n.kids[k], target);
      break;
    case NodeKind::AugAssign:
    case NodeKind::AnnAssign:
      target(n.kids[0], target);
      break;
    case NodeKind::ExprStmt:  // obj.method(...): the object may be mutated
      if (t.at(n.kids[0]).kind == NodeKind::Call &&
          t.at(t.at(n.kids[0]).kids[0]).kind == NodeKind::Attribute)
        target(t.at(n.kids[0]).kids[0], target);
      break;
    case NodeKind::FunctionDef:
    case NodeKind::ClassDef:
      out.push_back(n.text);
      break;
    case NodeKind::Import:
      for (NodeId a : n.kids) {
        const Node& alias = t.at(a);
        out.push_back(!alias.text2.empty() ? alias.text2
                                           : alias.text.substr(0, alias.text.find('.')));
      }
      break;
    case NodeKind::ImportFrom:
      for (NodeId a : n.kids) out.push_back(t.at(a).text2.empty() ? t.at(a).text : t.at(a).text2);
      break;
    case NodeKind::For:
      target(n.kids[0], target);
      for (size_t k = 2; k < n.kids.size(); ++k) bound_names(t, n.kids[k], out);
      break;
    case NodeKind::With:
      for (size_t k = 0; k + 1 < n.kids.size(); ++k) target(t.at(n.kids[k]).kids[1], target);
      bound_names(t, n.kids.back(), out);
      break;
    case NodeKind::ExceptHandler:
      if (!n.text.empty()) out.push_back(n.text);
      bound_names(t, n.kids[1], out);
      break;
    case NodeKind::If:
    case NodeKind::While:
    case NodeKind::Try:
    case NodeKind::Block:
      for (NodeId k : n.kids)
        if (k != kNoNode && t.at(k).kind != NodeKind::Name) bound_names(t, k, out);
      break;
    default:
      break;
  }
}

}  // namespace

void set_import_path(std::vector<std::string> dirs) {
  configured_path() = std::move(dirs);
}
const std::vector<std::string>& import_path() {
  return configured_path();
}

Ref Interp::unavailable(const std::string& reason) {
  auto v = std::make_shared<Value>();
  v->kind = K::Module;
  v->s = "<unavailable>";
  v->items = {string(reason)};
  return v;
}
const Ref& Interp::available(const Ref& v, Span at) const {
  if (v && v->kind == K::Module && v->s == "<unavailable>") unsupported(at, v->items[0]->s);
  return v;
}

Ref Interp::module_value(const std::string& name, Span at) {
  return import_module(name, at);
}

// A public module name under a library whose every public module keq knows
// (add_library_submodules) that is not one of them: the library really lacks it.
bool Interp::library_lacks(const std::string& name) const {
  size_t dot = name.find('.');
  if (dot == std::string::npos || !library_submodules_.contains(name.substr(0, dot)) ||
      library_submodules_.contains(name))
    return false;
  for (size_t at = dot; at != std::string::npos; at = name.find('.', at + 1))
    if (name.compare(at + 1, 1, "_") == 0) return false;  // private modules are not listed
  return true;
}

// A module CPython imports and keq does not model: the import succeeds, a use is UNSUPPORTED.
Ref Interp::unmodelled_module(const std::string& name, const std::string& reason) {
  import_notes_.push_back(reason + ": a use of it is UNSUPPORTED");
  Ref m = module_object(name);
  (*m->attrs)["<stopped>"] = string(reason);
  return modules_[name] = m;
}

Ref Interp::import_module(const std::string& name, Span at) {
  if (auto it = modules_.find(name); it != modules_.end()) return it->second;
  size_t dot = name.rfind('.');
  std::string top = name.substr(0, name.find('.'));
  if (auto model = model_sources_.find(name); model != model_sources_.end()) {
    if (dot != std::string::npos) import_module(name.substr(0, dot), at);
    return load_source_module(name, "<keq's model of " + name + ">", false, model->second);
  }
  if (dot == std::string::npos) {
    if (const char* source = stdlib_model_source(name))
      return load_source_module(name, "<keq's model of " + name + ">", false, source);
    // CPython always has it: the import succeeds, and only a use of it is UNSUPPORTED (unsloth's
    // kernels/utils.py imports ctypes at its top and uses it on one path only).
    if (is_stdlib(top))
      return unmodelled_module(name, "the standard-library module '" + name + "', imported at " +
                                         where(at) + ", is not modelled");
  } else {
    Ref parent = import_module(name.substr(0, dot), at);
    if (auto s = parent->attrs->find("<stopped>"); s != parent->attrs->end() && !parent->scope) {
      Ref m = module_object(name);  // a submodule of a package keq could not find
      (*m->attrs)["<stopped>"] = s->second;
      return modules_[name] = m;
    }
    if (!parent->scope || parent->attrs->contains("<keq model>")) {  // keq's to model too
      // The installed library has it (the venv's triton/tools/tensor_descriptor.py): CPython's
      // import succeeds, so it is taken as installed and only a use of it is UNSUPPORTED (Liger's
      // mlp.py imports a TensorDescriptor it uses on one path only).
      std::string file = installed_file(name);
      if (!file.empty() || library_submodules_.contains(name)) {
        std::string found = file.empty() ? "" : " (" + file + ")";
        return unmodelled_module(name, "module '" + name + "'" + found + ", imported at " +
                                           where(at) + ", is installed but keq models " +
                                           parent->s + " without this submodule");
      }
      if (library_lacks(name))
        raise_exception(at, "ModuleNotFoundError", "No module named '" + name + "'",
                        {{"name", string(name)}, {"path", none()}});
      unsupported(at, "import of module '" + name + "' (keq models " + parent->s +
                          " but not this submodule)");
    }
    // The parent's __init__ may have imported this module already.
    if (auto it = modules_.find(name); it != modules_.end()) return it->second;
  }
  std::vector<std::string> dirs;
  if (dot == std::string::npos) {
    dirs = search_path_;
    dirs.insert(dirs.end(), import_path().begin(), import_path().end());
  } else {
    Ref parent = modules_.at(name.substr(0, dot));
    if (auto p = parent->scope->vars.find("__path__"); p != parent->scope->vars.end())
      for (const Ref& d : p->second->items)  // a list of folders, as CPython's
        if (d->kind == K::Str) dirs.push_back(d->s);
  }
  std::string leaf = name.substr(dot == std::string::npos ? 0 : dot + 1);
  for (const std::string& dir : dirs) {
    fs::path base = fs::path(dir) / leaf;
    std::error_code ec;
    if (fs::is_regular_file(base / "__init__.py", ec))
      return load_source_module(name, (base / "__init__.py").string(), true);
    if (fs::is_regular_file(base.string() + ".py", ec))
      return load_source_module(name, base.string() + ".py", false);
    for (const auto& entry : fs::directory_iterator(dir, ec)) {
      std::string f = entry.path().filename().string();
      if (f.rfind(leaf + ".", 0) == 0 && f.size() > 3 && f.substr(f.size() - 3) == ".so") {
        Ref m = module_object(name);  // an extension: usable only where nothing reads it
        (*m->attrs)["<stopped>"] =
            string(name + " is a compiled extension (" + entry.path().string() +
                   ") that keq cannot read, imported at " + where(at));
        return modules_[name] = m;
      }
    }
    if (fs::is_directory(base, ec))  // a namespace package
      return load_source_module(name, base.string(), true);
  }
  std::string path;
  for (const std::string& d : dirs) path += (path.empty() ? "" : ", ") + d;
  // A package keq read has no such submodule; a top-level module the program handles the
  // absence of is taken as absent.
  if (dot != std::string::npos || import_guards_ > 0) {
    import_notes_.push_back("module '" + name + "' is not on the search path (" + path +
                            "): taken as not installed, as imported at " + where(at));
    raise_exception(at, "ModuleNotFoundError", "No module named '" + name + "'",
                    {{"name", string(name)}, {"path", none()}});
  }
  // Nothing handles its absence, so the program's environment has it: taken as installed but
  // unread, which stops only code that uses it (a helper used on another path does not).
  std::string reason = "module '" + name + "', imported at " + where(at) +
                       ", is not on keq's search path (" + path +
                       "; keq reads imported modules from the program's folder, --python-path, "
                       "PYTHONPATH and --venv)";
  import_notes_.push_back(reason + ": taken as installed; a use of it is UNSUPPORTED");
  Ref m = module_object(name);
  (*m->attrs)["<stopped>"] = string(reason);
  return modules_[name] = m;
}

// Where a dotted module's source lies on the search path ("" when on none): what CPython's
// import would find for a package keq models itself.
std::string Interp::installed_file(const std::string& name) const {
  std::string rel = name;
  std::replace(rel.begin(), rel.end(), '.', '/');
  std::vector<std::string> dirs = search_path_;
  dirs.insert(dirs.end(), import_path().begin(), import_path().end());
  for (const std::string& dir : dirs) {
    std::error_code ec;
    fs::path base = fs::path(dir) / rel;
    for (const fs::path& p : {fs::path(base.string() + ".py"), base / "__init__.py"})
      if (fs::is_regular_file(p, ec)) return p.string();
    if (fs::is_directory(base, ec)) return base.string();  // a namespace package
  }
  return "";
}

Ref Interp::load_source_module(const std::string& name, const std::string& file, bool package,
                               const char* source) {
  Ref m = module_object(name);
  m->scope = std::make_shared<Env>();
  m->scope->parent = builtins_;
  auto& vars = m->scope->vars;
  vars["__name__"] = string(name);
  vars["__file__"] = string(file);
  size_t dot = name.rfind('.');
  vars["__package__"] = string(package                    ? name
                               : dot == std::string::npos ? ""
                                                          : name.substr(0, dot));
  if (package)
    vars["__path__"] =
        list({string(fs::is_directory(file) ? file : fs::path(file).parent_path().string())});
  if (source) {
    (*m->attrs)["<keq model>"] = string(name);
    for (auto& [n, f] : stdlib_model_builtins(name)) vars[n] = f;
    if (auto it = model_builtins_.find(name); it != model_builtins_.end())
      for (auto& [n, f] : it->second) vars[n] = f;
  }
  modules_[name] = m;  // before the body runs: an import cycle sees the partial module
  if (dot != std::string::npos) {
    const Ref& parent = modules_.at(name.substr(0, dot));
    if (parent->scope)
      parent->scope->vars[name.substr(dot + 1)] = m;
    else  // a module keq models in C++
      (*parent->attrs)[name.substr(dot + 1)] = m;
  }
  if (fs::is_directory(file)) return m;
  std::shared_ptr<const Tree> tree;
  try {
    tree = parse_cached(file, source);
  } catch (const Error& e) {  // CPython reads it; keq's parser does not
    (*m->attrs)["<stopped>"] = string("keq cannot read " + file + ": " + e.what());
    import_notes_.push_back("module '" + name + "': " + (*m->attrs)["<stopped>"]->s);
    return m;
  }
  try {
    run_module_body(*tree, m);
  } catch (const ProgramError&) {  // Python fails the import: so does keq
    modules_.erase(name);
    throw;
  }
  return m;
}

void Interp::run_module_body(const Tree& tree, const Ref& module) {
  const Tree* saved = tree_;
  tree_ = &tree;
  int depth = depth_;
  size_t methods = method_stack_.size();
  const auto& stmts = tree.at(tree.root).kids;
  for (size_t k = 0; k < stmts.size(); ++k) {
    std::string stop;
    try {
      exec(stmts[k], module->scope);
      continue;
    } catch (const Unsupported& e) {
      stop = e.what();
    } catch (const ProgramError& e) {
      if (e.confirmed) {
        tree_ = saved;
        throw;
      }
      stop = e.what();
    }
    tree_ = &tree;
    depth_ = depth;
    method_stack_.resize(methods);
    // A nested import's stop already says what its names lose; say it once.
    const std::string kLost = "; names it binds from there on are unavailable";
    if (stop.size() >= kLost.size() &&
        stop.compare(stop.size() - kLost.size(), kLost.size(), kLost) == 0)
      stop.resize(stop.size() - kLost.size());
    std::string reason = "importing " + module->s + " stopped at " + stop + kLost;
    std::vector<std::string> names;
    for (size_t j = k; j < stmts.size(); ++j) bound_names(tree, stmts[j], names);
    for (const std::string& n : names) module->scope->vars[n] = unavailable(reason);
    (*module->attrs)["<stopped>"] = string(reason);
    import_notes_.push_back(reason);
    import_stops_.push_back(reason);
    break;
  }
  tree_ = saved;
}

Ref Interp::module_attr(const Ref& module, const std::string& name, Span at) {
  if (module->scope) {
    if (auto it = module->scope->vars.find(name); it != module->scope->vars.end())
      return it->second;
  } else if (auto it = module->attrs->find(name); it != module->attrs->end()) {
    return it->second;
  }
  if (auto s = module->attrs->find("<stopped>"); s != module->attrs->end())
    return unavailable(s->second->s);
  // A submodule keq models in Python, which the library's __init__ imports.
  if (model_sources_.contains(module->s + "." + name))
    return import_module(module->s + "." + name, at);
  if (auto m = model_attributes_.find(module->s + "." + name); m != model_attributes_.end()) {
    Ref v = module_attr(import_module(m->second, at), name, at);
    if (!module->scope) (*module->attrs)[name] = v;  // as the library's __init__ binds it
    return v;
  }
  if (model_lacks(module, name)) unsupported(at, module->s + "." + name + " is not modelled");
  raise_exception(at, "AttributeError",
                  "module '" + module->s + "' has no attribute '" + name + "'");
}

// keq's own models (torch, triton, and the modules it writes in Python) may lack a name the
// real module has: that is keq's gap, not the program's AttributeError.
bool Interp::model_lacks(const Ref& module, const std::string& name) const {
  auto real = real_names_.find(module->s);
  bool absent = real != real_names_.end() && !real->second.contains(name);
  bool keq_model = !module->scope || is_stdlib(module->s.substr(0, module->s.find('.'))) ||
                   module->attrs->contains("<keq model>");
  return keq_model && !absent;
}

bool Interp::module_findable(const std::string& name, Span at) {
  if (modules_.contains(name) || model_sources_.contains(name) ||
      library_submodules_.contains(name))
    return true;
  size_t dot = name.rfind('.');
  if (dot == std::string::npos) {
    if (stdlib_model_source(name) || is_stdlib(name)) return true;
  } else {
    Ref parent = import_module(name.substr(0, dot), at);  // as CPython's find_spec does
    if (modules_.contains(name)) return true;             // the parent's __init__ imported it
    if (!parent->scope || parent->attrs->contains("<keq model>"))
      unsupported(at, "importlib.util.find_spec('" + name + "'): keq models " + parent->s +
                          " without this submodule");
  }
  if (!installed_file(name).empty()) return true;
  import_notes_.push_back("module '" + name +
                          "' is not on the search path: importlib.util.find_spec answered None "
                          "at " +
                          where(at));
  return false;
}

std::optional<std::vector<std::string>> Interp::module_dir(const Ref& module) const {
  if (module->kind != Value::Kind::Module) return std::nullopt;
  std::vector<std::string> names;
  if (names_complete_.contains(module->s)) {
    const auto& real = real_names_.at(module->s);
    names.assign(real.begin(), real.end());
    for (const auto& [name, v] : *module->attrs)  // names the program bound on it
      if (!real.contains(name)) names.push_back(name);
  } else if (module->scope && !module->attrs->contains("<keq model>") &&
             !is_stdlib(module->s.substr(0, module->s.find('.')))) {  // the program's files
    for (const auto& [name, v] : module->scope->vars) names.push_back(name);
  } else {
    return std::nullopt;
  }
  std::sort(names.begin(), names.end());
  return names;
}

Ref Interp::import_name(const Ref& module, const std::string& from, const std::string& name,
                        Span at) {
  bool bound = module->scope ? module->scope->vars.contains(name) : module->attrs->contains(name);
  if (!bound) {
    std::string sub = from + "." + name;
    if (auto it = modules_.find(sub); it != modules_.end()) return it->second;
    // Only a package has submodules; a name a module lacks is not a module to look for.
    bool package = module->scope && module->scope->vars.contains("__path__");
    if ((package || library_submodules_.contains(sub)) && !module->attrs->contains("<stopped>"))
      return import_module(sub, at);
    // CPython's from-import of a name the module lacks.
    if (!module->attrs->contains("<stopped>") && !model_sources_.contains(sub) &&
        !model_lacks(module, name)) {
      Ref file = module->scope && module->scope->vars.contains("__file__")
                     ? module->scope->vars.at("__file__")
                     : nullptr;
      std::string type = "ImportError";
      ProgramError e(where(at) + ": " + type + ": cannot import name '" + name + "' from '" +
                         module->s + "' (" +
                         (file && file->kind == K::Str ? file->s : "unknown location") + ")",
                     true);
      e.classes = exception_chain(type);
      e.pinned_import = real_names_.contains(module->s);
      throw e;
    }
  }
  return module_attr(module, name, at);  // an unavailable name is bound here, refused where used
}

// `from .x import y` inside package p.q resolves against p.q (a package) or p (a module's
// package), one level up per further dot.
std::string Interp::resolve_relative(const std::string& name, Span at) const {
  size_t dots = name.find_first_not_of('.');
  if (dots == std::string::npos) dots = name.size();
  std::string pkg;
  for (const auto& [mod_name, m] : modules_)
    if (m->scope && m->scope->vars.contains("__file__") &&
        m->scope->vars.at("__file__")->s == tree_->file)
      pkg = m->scope->vars.at("__package__")->s;
  if (pkg.empty())
    raise_exception(at, "ImportError", "attempted relative import with no known parent package");
  for (size_t k = 1; k < dots; ++k) {
    size_t d = pkg.rfind('.');
    if (d == std::string::npos)
      raise_exception(at, "ImportError", "attempted relative import beyond top-level package");
    pkg = pkg.substr(0, d);
  }
  std::string rest = name.substr(dots);
  return rest.empty() ? pkg : pkg + "." + rest;
}

}  // namespace keq::python
