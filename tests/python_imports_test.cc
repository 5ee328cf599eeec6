// Host Python around kernels as libraries write it: try/except, @contextmanager, and modules
// imported from a search path and read as source.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "frontends/python/interp.h"
#include "frontends/torch/torch.h"
#include "frontends/triton/program.h"
#include "frontends/triton/triton.h"

namespace keq::torch {
namespace {

namespace fs = std::filesystem;
using python::Ref;
using K = python::Value::Kind;

// A folder of Python files, removed at the end of the test.
struct Folder {
  fs::path root;
  Folder() {
    root = fs::temp_directory_path() /
           ("keq_imports_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
            "_" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(root);
    fs::create_directories(root);
  }
  ~Folder() { fs::remove_all(root); }
  std::string write(const std::string& rel, const std::string& text) const {
    fs::create_directories((root / rel).parent_path());
    std::ofstream(root / rel) << text;
    return (root / rel).string();
  }
};

// Runs `src` as a file in `folder` (so its imports search there); returns global `name`.
struct ProgramRun {
  ir::TermStore store;
  TorchState state;
  python::Tree tree;
  python::Interp in{store};
  std::shared_ptr<python::Env> env;
  ProgramRun(const Folder& folder, const std::string& src) {
    tree = python::parse(src, folder.write("main.py", src));
    install(in, state);
    triton::install(in, state);
    in.add_search_dir(folder.root.string());
    env = in.run(tree);
  }
  ~ProgramRun() {
    if (env) env->vars.clear();
  }
  int64_t integer(const std::string& name) {
    Ref v = env->lookup(name);
    EXPECT_TRUE(v && v->kind == K::Int) << name;
    return v && v->kind == K::Int ? v->i : -1;
  }
};

TEST(PythonExceptions, ExceptMatchesByCPythonsHierarchy) {
  Folder f;
  ProgramRun r(f, R"(
try:
    import not_installed_anywhere
    a = 1
except ImportError:
    a = 2
try:
    {}['k']
except (ValueError, LookupError) as e:
    b = 3
class MyError(ValueError):
    pass
try:
    try:
        raise MyError("x")
    finally:
        c = 4
except ValueError:
    c = c + 10
d = 0
try:
    d = 1
except Exception:
    d = 2
else:
    d = d + 5
)");
  EXPECT_EQ(r.integer("a"), 2);   // ModuleNotFoundError is an ImportError
  EXPECT_EQ(r.integer("b"), 3);   // KeyError is a LookupError
  EXPECT_EQ(r.integer("c"), 14);  // finally ran, then the handler
  EXPECT_EQ(r.integer("d"), 6);   // else runs when nothing was raised
}

// `except ... as e` binds the exception object: the one the program raised (its args), or,
// for one CPython raises, an object with CPython's args and attributes. fla's package init
// reads ModuleNotFoundError.name to tell an absent optional package from a broken one.
TEST(PythonExceptions, TheBoundExceptionHasItsArgsAndAttributes) {
  Folder f;
  ProgramRun r(f, R"(
try:
    import not_installed_anywhere.sub
except ModuleNotFoundError as e:
    a = 1 if e.name == "not_installed_anywhere" and e.path is None else 0
    b = len(e.args[0])
class MyError(ValueError):
    pass
try:
    raise MyError("x", 7)
except ValueError as e:
    c = e.args[1]
    d = 1 if isinstance(e, MyError) else 0
)");
  EXPECT_EQ(r.integer("a"), 1);
  EXPECT_EQ(r.integer("b"),
            static_cast<int64_t>(std::string("No module named 'not_installed_anywhere'").size()));
  EXPECT_EQ(r.integer("c"), 7);
  EXPECT_EQ(r.integer("d"), 1);
}

// torch.library's custom ops run their implementation when called, directly or through
// torch.ops (a CUDA kernel registered later takes precedence); wrap_triton is the kernel;
// @torch.no_grad() and @torch.inference_mode() decorate. An undefined op of the program's
// namespace is torch's AttributeError, reported at the program's line; torch's own namespaces
// are keq's gap. A class's __getattr__ answers what lookup does not find.
TEST(PythonHost, TorchLibraryCustomOpsAndGradModeDecorators) {
  Folder f;
  ProgramRun r(f, R"(
import torch

@torch.library.custom_op("t::twice", mutates_args=())
def twice(x: torch.Tensor) -> torch.Tensor:
    return x * 2

@twice.register_fake
def _(x):
    return torch.empty_like(x)

@torch.library.custom_op("t::thrice", mutates_args=(), device_types="cpu")
def thrice(x: torch.Tensor) -> torch.Tensor:
    return x * 3

@thrice.register_kernel("cuda")
def _(x):
    return x * 30

@torch.no_grad()
def direct(x):
    return twice(x)

@torch.inference_mode()
def through_ops(x):
    return torch.ops.t.twice.default(x) + torch.ops.t.thrice(x)

class Lazy:
    def __getattr__(self, name):
        return len(name)

one = torch.ones(1)
a = int(direct(one).item())
b = int(through_ops(one).item())
c = 1 if torch.library.wrap_triton(direct) is direct else 0
d = Lazy().four
try:
    torch.ops.t.missing
    e = 0
except AttributeError as err:
    e = 1 if "'_OpNamespace' 't' object has no attribute 'missing'" in str(err.args[0]) else 2
)");
  EXPECT_EQ(r.integer("a"), 2);
  EXPECT_EQ(r.integer("b"), 32);  // the CUDA kernel, not the CPU implementation
  EXPECT_EQ(r.integer("c"), 1);
  EXPECT_EQ(r.integer("d"), 4);
  EXPECT_EQ(r.integer("e"), 1);
  try {
    ProgramRun(f, "import torch\ny = torch.ops.aten.relu(torch.ones(1))\n");
    ADD_FAILURE() << "torch.ops.aten is keq's gap";
  } catch (const python::Unsupported& u) {
    EXPECT_NE(std::string(u.what()).find("main.py:2:5: torch.ops.aten.relu is not modelled"),
              std::string::npos)
        << u.what();
  }
}

// A set's members reach consumers whose result does not depend on the visiting order: any,
// all, and sorted() where no two keys tie; math's integer square root and trigonometry.
// Grad mode as torch 2.11 keeps it: on at import; each context sets it and restores it on leaving,
// an exception too; the contexts decorate, bare or called; set_grad_enabled sets it when called.
// `code` packs the 13 answers CPython gives (7765, printed by torch 2.11).
TEST(PythonHost, GradModeFollowsTorchsContexts) {
  Folder f;
  ProgramRun r(f, R"(
import torch
a0 = torch.is_grad_enabled()
with torch.no_grad():
    a1 = torch.is_grad_enabled()
    with torch.enable_grad():
        a2 = torch.is_grad_enabled()
    a3 = torch.is_grad_enabled()
a4 = torch.is_grad_enabled()
@torch.no_grad
def bare():
    return torch.is_grad_enabled()
@torch.no_grad()
def called():
    return torch.is_grad_enabled()
@torch.inference_mode()
def infer():
    return torch.is_inference_mode_enabled() and not torch.is_grad_enabled()
a5 = bare() + 2 * called() + 4 * (not infer())
a6 = torch.is_grad_enabled() and not torch.is_inference_mode_enabled()
torch.set_grad_enabled(False)
a7 = torch.is_grad_enabled()
torch.set_grad_enabled(True)
with torch.set_grad_enabled(False):
    a8 = torch.is_grad_enabled()
a9 = torch.is_grad_enabled()
try:
    with torch.no_grad():
        raise ValueError("x")
except ValueError:
    pass
b0 = torch.is_grad_enabled()
@torch.enable_grad()
def on():
    return torch.is_grad_enabled()
with torch.no_grad():
    b1 = on() and not torch.is_grad_enabled()
    with torch.autograd.grad_mode.set_grad_enabled(True):
        b2 = torch.is_grad_enabled()
values = [a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, b0, b1, b2]
code = sum(int(bool(v)) << k for k, v in enumerate(values))
)");
  EXPECT_EQ(r.integer("code"), 7765);
}

// KernelBench runs get_inputs(), builds both models and runs forward under torch.no_grad(), and
// torch runs an autograd.Function's forward with grad mode off: a branch on the mode takes that
// way, the report says why, and a tensor computed from a parameter does not require grad.
TEST(PythonHost, GradModeIsOffWhereKernelBenchRunsTheModels) {
  Folder f;
  std::string ref = f.write("ref.py", R"(
import torch
import torch.nn as nn
class Model(nn.Module):
    def forward(self, x):
        return x * 2
def get_inputs():
    assert not torch.is_grad_enabled()
    return [torch.randn(3)]
)");
  std::string cand = f.write("cand.py", R"(
import torch
import torch.nn as nn
AT_IMPORT = torch.is_grad_enabled()
SEEN = []
class Scale(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        SEEN.append(torch.is_grad_enabled())
        return x * 2
class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.w = nn.Parameter(torch.ones(3))
        self.at_init = torch.is_grad_enabled()
    def forward(self, x):
        assert AT_IMPORT and not self.at_init and not torch.is_grad_enabled()
        assert self.w.requires_grad and not (self.w * x).requires_grad
        with torch.enable_grad():
            y = Scale.apply(x)
            assert torch.is_grad_enabled()
        assert SEEN == [False] and not torch.is_grad_enabled()
        return y if not torch.is_grad_enabled() else x * 3
)");
  ir::TermStore s;
  Program r = run_program(ref, s, "Model", {});
  Program c = run_candidate(cand, ref, s, {});
  ASSERT_EQ(c.outputs.size(), 1u);
  EXPECT_EQ(c.outputs[0]->elems, r.outputs[0]->elems);
  bool said = false;
  for (const std::string& a : c.state.host_assumptions)
    said |= a.find("torch.is_grad_enabled() is False") != std::string::npos;
  EXPECT_TRUE(said);
}

// os.path's string functions as posixpath computes them, its queries of the install keq reads,
// and importlib.machinery's FileFinder looking for a compiled extension beside a package's source
// (xformers' __init__); str and sequence repetition either way round, str.rpartition. `text` is
// what CPython 3.11 prints for the same files.
TEST(PythonHost, OsPathAndFileFinderAsCPythonRunsThem) {
  Folder f;
  f.write("pkg/__init__.py", "x = 1\n");
  f.write("pkg/_C.abi3.so", "");
  ProgramRun r(f, R"(
import os
import os.path as osp
import posixpath
import importlib.machinery
import pkg

lib = os.path.dirname(os.path.abspath(pkg.__file__))
a = [osp.join("a", "b", "/c", "d"), osp.join("a/", "b"), osp.split("/usr//lib/"), osp.split("//"),
     osp.basename("x/y.tar.gz"), osp.splitext("x/y.tar.gz"), osp.splitext(".bashrc"),
     osp.splitext("a/..b"), osp.normpath("/a/./b/../../c//d/"), osp.normpath("../x/../../y"),
     osp.normpath("//a"), osp.dirname("/a"), osp.isabs("a/b"), posixpath.sep,
     osp.commonprefix(["/usr/lib", "/usr/local"]), "ab" * 3, 2 * "-", [0] * 2, 3 * (1,),
     "a.b.c".rpartition("."), "abc".rpartition("."), "a.b".partition(".")]
details = (importlib.machinery.ExtensionFileLoader, importlib.machinery.EXTENSION_SUFFIXES)
spec = importlib.machinery.FileFinder(lib, details).find_spec("_C")
missing = importlib.machinery.FileFinder(lib, details).find_spec("_D")
b = [osp.isdir(lib), osp.isfile(lib), osp.exists(osp.join(lib, "__init__.py")),
     osp.exists(osp.join(lib, "nothing")), spec.name, osp.basename(spec.origin), missing is None,
     osp.realpath(lib) == lib]
text = repr(a) + repr(b)
)");
  Ref text = r.env->lookup("text");
  ASSERT_TRUE(text && text->kind == K::Str);
  EXPECT_EQ(text->s,
            "['/c/d', 'a/b', ('/usr//lib', ''), ('//', ''), 'y.tar.gz', ('x/y.tar', '.gz'), "
            "('.bashrc', ''), ('a/..b', ''), '/c/d', '../../y', '//a', '/', False, '/', '/usr/l', "
            "'ababab', '--', [0, 0], (1, 1, 1), ('a.b', '.', 'c'), ('', '', 'abc'), "
            "('a', '.', 'b')][True, False, True, False, '_C', '_C.abi3.so', True, True]");
}

// torch 2's autograd.Function style: forward without ctx, then setup_context(ctx, inputs,
// output); @once_differentiable on a backward keq never runs; itertools.zip_longest. torch 2.11
// prints 3, 231 and 31.
TEST(PythonHost, FunctionWithSetupContextAndOnceDifferentiable) {
  Folder f;
  ProgramRun r(f, R"(
import itertools

import torch
from torch.autograd.function import once_differentiable

SEEN = []


class Scale(torch.autograd.Function):
    @staticmethod
    def forward(x, k):
        return x * k

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.k = inputs[1]
        SEEN.append((len(inputs), inputs[1], output.shape[0]))

    @staticmethod
    @once_differentiable
    def backward(ctx, g):
        return g * ctx.k, None


one = torch.ones(1)
a = int(Scale.apply(one, 3).item())
b = SEEN[0][0] * 100 + SEEN[0][1] * 10 + SEEN[0][2]
c = list(itertools.zip_longest([1, 2, 3], "ab", fillvalue=0))
d = c[2][1] + len(c) * 10 + (c[0][1] == "a")
)");
  EXPECT_EQ(r.integer("a"), 3);
  EXPECT_EQ(r.integer("b"), 231);
  EXPECT_EQ(r.integer("d"), 31);
}

// hasattr(torch, NAME) answers from dir(torch) of torch 2.11 (FlagGems probes torch.mlu, musa
// and npu for its vendor): False for a name torch lacks, True for one it has, modelled or not
// (torch.mtia); a use of one keq does not model is UNSUPPORTED.
TEST(PythonHost, TorchsOwnNamesDecideHasattr) {
  Folder f;
  ProgramRun r(f, R"(
import torch
a = int(hasattr(torch, "npu")) + 2 * int(hasattr(torch, "mlu")) + 4 * int(hasattr(torch, "float32"))
a += 8 * int(hasattr(torch, "mtia"))
)");
  EXPECT_EQ(r.integer("a"), 12);
  EXPECT_THROW(ProgramRun(f, "import torch\nb = torch.mtia\n"), python::Unsupported);
  EXPECT_THROW(ProgramRun(f, "import torch\nb = torch.npu\n"), python::ProgramError);
  // torch's __getattr__ answers its deprecated names (torch.has_cuda), which dir() lacks.
  EXPECT_THROW(ProgramRun(f, "import torch\nb = torch.has_cuda\n"), python::Unsupported);
}

// re as libraries use it at import (version strings, names): match, search, fullmatch, sub
// with templates and functions, split, findall, finditer, named groups, escape, pos. `text` is
// what CPython 3.11 prints. What std::regex might read otherwise is UNSUPPORTED.
TEST(PythonHost, ReAsCPythonRunsIt) {
  Folder f;
  ProgramRun r(f, R"PY(
import re

v = re.match(r"^(\d+)\.(\d+)(?:\.(\d+))?(?P<local>\+\w+)?$", "2.11.0+cu130")
pat = re.compile(r"(?P<key>[a-z_]+)=(?P<val>\d+)", re.IGNORECASE)
a = [v.groups(), v.group(1, "local"), v.span(3), v.groupdict(), v.start("local"),
     bool(re.match(r"^[A-Za-z](?:[A-Za-z0-9._-]*[A-Za-z0-9])?$", "trl")),
     re.match(r"^[A-Za-z](?:[A-Za-z0-9._-]*[A-Za-z0-9])?$", "2.4.0") is None,
     re.search(r"cu(\d+)", "torch 2.11.0+cu130").group(1),
     re.fullmatch(r"\d+", "123a") is None,
     re.sub(r"(\d+)", r"<\1>", "a1b22c"), re.subn("-", "_", "a-b-c", count=1),
     re.split(r"[.+]", "2.11.0+cu130"), re.findall(r"(\w)=(\d)", "a=1 b=2"),
     re.findall(r"\d", "a1b2"), pat.findall("BLOCK_M=64 num_warps=4"),
     [m.group("val") for m in pat.finditer("x=1 y=22")],
     re.sub(r"(?P<w>\w+)", lambda m: m.group("w").upper(), "ab cd"),
     re.escape("a.b*c"), pat.groupindex["val"], pat.groups,
     re.compile(r"b").search("abcb", 2).span(), re.compile(r"^b").search("ab", 1) is None,
     re.sub(r"x", r"\g<0>\n", "axb"), re.match(r"[]a]+", "]a]x").group()]
text = repr(a)
)PY");
  Ref text = r.env->lookup("text");
  ASSERT_TRUE(text && text->kind == K::Str);
  EXPECT_EQ(
      text->s,
      R"([('2', '11', '0', '+cu130'), ('2', '+cu130'), (5, 6), {'local': '+cu130'}, 6, True, True, '130', True, 'a<1>b<22>c', ('a_b-c', 1), ['2', '11', '0', 'cu130'], [('a', '1'), ('b', '2')], ['1', '2'], [('BLOCK_M', '64'), ('num_warps', '4')], ['1', '22'], 'AB CD', 'a\\.b\\*c', 2, 2, (3, 4), True, 'ax\nb', ']a]'])");
  EXPECT_THROW(ProgramRun(f, "import re\nm = re.match(r'(?<=a)b', 'ab')\n"), python::Unsupported);
  EXPECT_THROW(ProgramRun(f, "import re\nm = re.match(r'a$', 'a\\n')\n"), python::Unsupported);
  // ECMAScript matches a back reference to a group that did not take part as empty, and ends
  // lines at \r too: both refused.
  EXPECT_THROW(ProgramRun(f, "import re\nm = re.match(r'(a)?\\1b', 'b')\n"), python::Unsupported);
  EXPECT_THROW(ProgramRun(f, "import re\nm = re.match(r'a.b', 'a\\rb')\n"), python::Unsupported);
}

TEST(PythonHost, OrderFreeUsesOfSetsAndMoreOfMath) {
  Folder f;
  ProgramRun r(f, R"(
import math
first, *rest = sorted({3, 1, 2}, key=lambda v: -v)
a = first * 100 + rest[0] * 10 + rest[1]
b = 1 if any(v > 2 for v in [0]) or all({1, 2}) else 0
c = math.isqrt(17) * 10 + math.isqrt(16)
d = 1 if abs(math.sin(math.pi / 2) - 1) < 1e-12 and math.atan2(0.0, 1.0) == 0.0 else 0
)");
  EXPECT_EQ(r.integer("a"), 321);
  EXPECT_EQ(r.integer("b"), 1);
  EXPECT_EQ(r.integer("c"), 44);
  EXPECT_EQ(r.integer("d"), 1);
  EXPECT_THROW(ProgramRun(f, "x = sorted({1, -1}, key=abs)\n"), python::Unsupported);
  EXPECT_THROW(ProgramRun(f, "x = [v for v in {1, 2}]\n"), python::Unsupported);
}

// Errors CPython raises for certain are the program's exceptions, never keq's UNSUPPORTED or
// ERROR: None in arithmetic (gpt-5's kernel indexes with `1 * 0 + None`), a float divided by
// zero, str + int, a tuple's item assigned, unpacking the wrong count, int() of NaN or infinity,
// an attribute of None.
TEST(PythonExceptions, NoneArithmeticAndFloatDivisionByZeroRaise) {
  Folder f;
  ProgramRun r(f, R"(
a = 0
try:
    x = 1 * 0 + None
except TypeError:
    a = 1
b = 0
try:
    y = None * 2.5
except TypeError:
    b = 1
c = 0
try:
    z = 1.0 / 0.0
except ZeroDivisionError:
    c = c + 1
try:
    z = 1.0 // 0.0
except ZeroDivisionError:
    c = c + 1
try:
    z = 2.5 % 0.0
except ZeroDivisionError:
    c = c + 1
d = 0
try:
    w = 0.0 ** -1.0
except ZeroDivisionError:
    d = 1
e = 0
for attempt in range(7):
    try:
        if attempt == 0:
            v = "a" + 1
        elif attempt == 1:
            t = (1, 2)
            t[0] = 3
        elif attempt == 2:
            p, q = (1, 2, 3)
        elif attempt == 3:
            p, q, r = (1, 2)
        elif attempt == 4:
            v = int(float("nan"))
        elif attempt == 5:
            v = None.shape
        else:
            v = int(float("inf"))
    except (TypeError, ValueError, AttributeError, OverflowError):
        e += 1
)");
  EXPECT_EQ(r.integer("a"), 1);
  EXPECT_EQ(r.integer("b"), 1);
  EXPECT_EQ(r.integer("c"), 3);
  EXPECT_EQ(r.integer("d"), 1);
  EXPECT_EQ(r.integer("e"), 7);  // str + int, tuple item assignment, unpacking, int() of nan/inf
}

// A failed lookup is a KeyError only where keq compares keys as Python does; an error whose
// class keq does not know is not guessed to pass a narrower except clause.
TEST(PythonExceptions, KeqDoesNotGuessWhatItCannotCompareOrClassify) {
  Folder f;
  ProgramRun r(f, R"(
import torch
d = {torch.device("cuda"): 1}
a = d.get(torch.device("cuda"), 0) + 10 * d.get(torch.device("cuda:0"), 0)
try:
    d[torch.device("cuda:0")]
except KeyError:
    a = a + 100
)");
  EXPECT_EQ(r.integer("a"), 101);  // devices compare by value, and "cuda" is not "cuda:0"
  // A class with __eq__: equal() compares instances by identity, Python by that method.
  EXPECT_THROW(ProgramRun(f,
                          "class K:\n    def __eq__(self, o):\n        return True\n"
                          "    def __hash__(self):\n        return 0\n"
                          "d = {K(): 1}\nx = d[K()]\n"),
               python::Unsupported);
  // Triton refuses a negative grid with an error whose class keq does not record: `except
  // ValueError` may or may not take it, so keq does not say; `except Exception` certainly does.
  std::string launch = R"(
import torch
import triton
import triton.language as tl
@triton.jit
def k(x_ptr):
    pass
x = torch.zeros(2)
b = 0
try:
    k[(-1,)](x)
except )";
  EXPECT_THROW(ProgramRun(f, launch + "ValueError:\n    b = 1\n"), python::Unsupported);
  ProgramRun any(f, launch + "Exception:\n    b = 1\n");
  EXPECT_EQ(any.integer("b"), 1);
}

// Smaller host idioms libraries use, each once measured against CPython's answer.
TEST(PythonHost, IdiomsLibrariesUse) {
  Folder f;
  ProgramRun r(f, R"(
import torch
import triton.language as tl
x = torch.randn(3)
a = 1 if x is not None else 0
sq = {k: k * k for k in range(4) if k != 2}
b = sq[3] + len(sq)
MODE: tl.constexpr = tl.constexpr(7)
c = {MODE.value: 1}[7]
parts = "2.11.0+cu130".split("+")[0].split(".")
e = int(parts[1]) + ("abc".startswith("ab") and not "abc".endswith("b"))
)");
  EXPECT_EQ(r.integer("a"), 1);   // `is not` on a tensor is identity, not elementwise
  EXPECT_EQ(r.integer("b"), 12);  // 9 + 3 keys
  EXPECT_EQ(r.integer("c"), 1);
  EXPECT_EQ(r.integer("e"), 12);
  // A host int has CPython's attributes only (in a kernel a constexpr has .value).
  EXPECT_THROW(ProgramRun(f, "x = 3\ny = x.value\n"), python::ProgramError);
  // A fresh tensor does not require grad (torch 2.11 prints False); one computed with grad mode
  // on from a tensor that requires grad does (True), which keq does not track.
  EXPECT_EQ(ProgramRun(f, "import torch\ng = int(torch.randn(2).requires_grad)\n").integer("g"), 0);
  EXPECT_THROW(ProgramRun(f,
                          "import torch\nw = torch.randn(2, requires_grad=True)\n"
                          "g = (w * 2).requires_grad\n"),
               python::Unsupported);
  EXPECT_EQ(ProgramRun(f,
                       "import torch\nw = torch.randn(2, requires_grad=True)\n"
                       "g = int(w.requires_grad)\n")
                .integer("g"),
            1);
}

// A namespace-style package (fla's __init__ calls pkgutil.extend_path) still finds its
// submodules, and platform answers as the H200 host does (fla's IS_ARM at import).
TEST(PythonHost, PkgutilExtendPathAndPlatform) {
  Folder f;
  f.write("pkg/__init__.py",
          "from pkgutil import extend_path\n__path__ = extend_path(__path__, __name__)\n");
  f.write("pkg/sub.py", "VALUE = 5\n");
  ProgramRun r(f, R"(
import platform
from pkg.sub import VALUE
arm = platform.machine().lower() in ('aarch64', 'arm64')
a = VALUE + (10 if arm else 0) + (100 if platform.system() == "Linux" else 0)
)");
  EXPECT_EQ(r.integer("a"), 105);
}

// pkgutil.iter_modules(__path__) as CPython 3.11's file finder lists a package (Liger's ops and
// backends __init__ import their implementations by it; CPython's answer for this folder):
// names sorted, a folder only with an __init__, a package before the same-named module, an
// extension by its name, dotted names skipped. __path__ is a list, as CPython's.
TEST(PythonHost, PkgutilIterModulesListsAPackageAsCPython) {
  Folder f;
  f.write("pkg/__init__.py", R"(
import pkgutil
NAMES = [(info.name, ispkg) for info, (_, n, ispkg) in
         zip(pkgutil.iter_modules(__path__, "pkg."), pkgutil.iter_modules(__path__, "pkg."))]
FIRST = __path__[0].endswith("pkg")
)");
  for (const char* file :
       {"pkg/a.py", "pkg/b/__init__.py", "pkg/c/mod.py", "pkg/_d/__init__.py",
        "pkg/e.cpython-311-x86_64-linux-gnu.so", "pkg/a.b/__init__.py", "pkg/b.py"})
    f.write(file, "X = 1\n");
  ProgramRun r(f, "import pkg\nnames = pkg.NAMES\nfirst = pkg.FIRST\n");
  EXPECT_EQ(r.in.repr(r.env->lookup("names")),
            "[('pkg._d', True), ('pkg.a', False), ('pkg.b', True), ('pkg.e', False)]");
  EXPECT_TRUE(r.env->lookup("first")->b);
}

// A submodule of a library keq models itself (triton.tools.disasm; tensor_descriptor was this
// test's example until keq modelled it) that the search path holds is imported as CPython
// imports it, not a stop: its names are unavailable, and only a use of one is UNSUPPORTED
// (Liger's mlp.py imported TensorDescriptor in a try it never used on the paths keq runs). One
// the search path lacks stays UNSUPPORTED at the import.
TEST(PythonImports, AnInstalledSubmoduleKeqDoesNotModelStopsOnlyItsUses) {
  Folder f;
  f.write("site/triton/tools/disasm.py", "def get_sass(cubin):\n    pass\n");
  f.write("lib.py", R"(
try:
    from triton.tools.disasm import get_sass
except ModuleNotFoundError:
    get_sass = None
VALUE = 7
def uses():
    return get_sass is None
)");
  python::set_import_path({(f.root / "site").string()});
  ProgramRun r(f, "from lib import VALUE\nv = VALUE\n");
  EXPECT_EQ(r.integer("v"), 7);
  EXPECT_TRUE(r.in.import_stops().empty());
  try {
    ProgramRun r2(f, "from lib import uses\nu = uses()\n");
    ADD_FAILURE() << "a use of the unmodelled submodule ran";
  } catch (const python::Unsupported& e) {
    EXPECT_NE(std::string(e.what()).find("triton.tools"), std::string::npos) << e.what();
  }
  python::set_import_path({});
  // Triton 3.6 has the module (scripts/module_names.py submodules triton) without a search path
  // too: the import succeeds, a use of what it binds is UNSUPPORTED.
  EXPECT_THROW(ProgramRun(f, "from triton.tools.disasm import get_sass\nx = get_sass\n"),
               python::Unsupported);
}

TEST(PythonHost, LoggingThreadingAndOsAsLibrariesUseThem) {
  // keq models these in Python (stdlib_models.cc): records go nowhere, locks are free, the
  // environment is empty; `with` runs an object's __enter__ and __exit__.
  Folder f;
  ProgramRun r(f, R"(
import logging
import os
import threading
logger = logging.getLogger(__name__)
logger.setLevel(logging.INFO)
logger.info("loaded %s", __name__)
a = logger.isEnabledFor(logging.DEBUG) + 2 * logger.isEnabledFor(logging.ERROR)
b = 1 if logging.getLogger(__name__) is logger else 0
_LOCK = threading.Lock()
with _LOCK as got:
    c = 10 * got + _LOCK.locked()
d = c + _LOCK.locked()
e = int(os.environ.get("LIGER_KERNEL_STRICT", "0")) + (os.getenv("TRITON_DEBUG") is None)
class Timer:
    def __enter__(self):
        self.n = 5
        return self
    def __exit__(self, *exc):
        self.n += 1
        return False
t = Timer()
with t as u:
    g = u.n
h = t.n
)");
  EXPECT_EQ(r.integer("a"), 2);
  EXPECT_EQ(r.integer("b"), 1);
  EXPECT_EQ(r.integer("c"), 11);
  EXPECT_EQ(r.integer("d"), 11);  // released on leaving
  EXPECT_EQ(r.integer("e"), 1);
  EXPECT_EQ(r.integer("g"), 5);
  EXPECT_EQ(r.integer("h"), 6);
}

TEST(PythonHost, SetsForMembershipButNotForOrder) {
  // Members once, `in`, len(), add/discard; iterating is unsupported: CPython's order is the
  // members' hash order, not insertion order.
  Folder f;
  ProgramRun r(f, R"(
reserved = {"backends", "experimental", "backends"}
seen = set()
seen.add(("jsd", "triton"))
seen.add(("jsd", "triton"))
seen.discard("nothing")
a = len(reserved) + 10 * len(seen) + 100 * (("jsd", "triton") in seen) + 1000 * ("x" in reserved)
b = len({k % 3 for k in range(10)}) + len(frozenset([1, 1, 2]))
)");
  EXPECT_EQ(r.integer("a"), 112);
  EXPECT_EQ(r.integer("b"), 5);
  EXPECT_THROW(ProgramRun(f, "for m in {1, 2}:\n    pass\n"), python::Unsupported);
}

TEST(PythonExceptions, AnUnmatchedExceptionAndKeqsOwnGapsPassThrough) {
  Folder f;
  EXPECT_THROW(ProgramRun(f, "try:\n    raise RuntimeError('x')\nexcept ValueError:\n    pass\n"),
               python::ProgramError);
  // keq not modelling something is not an exception Python raised: no handler takes it.
  EXPECT_THROW(ProgramRun(f,
                          "import sqlite3\ntry:\n    sqlite3.connect(':memory:')\n"
                          "except Exception:\n    pass\n"),
               python::Unsupported);
}

TEST(PythonContextManager, TheWithBodyRunsAtTheYieldAcrossFiles) {
  Folder f;
  f.write("helpers.py", R"(
from contextlib import contextmanager
log = []
@contextmanager
def tracked(tag):
    log.append(tag)
    yield tag * 2
    log.append(-tag)
)");
  ProgramRun r(f, R"(
from helpers import tracked, log
def body():
    with tracked(3) as v:
        return v + 1
x = body()
n = len(log)
last = log[-1]
)");
  EXPECT_EQ(r.integer("x"), 7);  // the return inside the with body is body()'s
  EXPECT_EQ(r.integer("n"), 2);  // the generator ran on after the body
  EXPECT_EQ(r.integer("last"), -3);
}

TEST(PythonImports, PackagesSubmodulesAndRelativeImports) {
  Folder f;
  f.write("lib/__init__.py", "from .ops import scale\nVERSION = 3\n");
  f.write("lib/ops/__init__.py", "from .scale import scale\n");
  f.write("lib/ops/scale.py", "from ..util import twice\ndef scale(x):\n    return twice(x) + 1\n");
  f.write("lib/util.py", "def twice(x):\n    return 2 * x\n");
  ProgramRun r(f, R"(
import lib.ops.scale
from lib import VERSION
from lib.ops import scale as s
a = lib.util.twice(5) + VERSION
b = s(1)
c = 1 if callable(lib.ops.scale) else 0
)");
  EXPECT_EQ(r.integer("a"), 13);
  EXPECT_EQ(r.integer("b"), 3);
  // lib/ops/__init__.py rebinds `scale` to the function after the submodule was set, as in CPython.
  EXPECT_EQ(r.integer("c"), 1);
}

// A library whose module level stops at something keq does not model still lends what it bound
// before; what it binds after is unusable, named with where it stopped, never guessed.
TEST(PythonImports, AStoppedModuleLendsEarlierNamesAndRefusesLaterOnes) {
  Folder f;
  f.write("lib.py", R"(
TABLE = {"a": 1}
def early():
    return 5
import sqlite3; DB = sqlite3.connect(":memory:")
TABLE["b"] = 2
def late():
    return 6
)");
  ProgramRun r(f, "from lib import early, late\nx = early()\n");
  EXPECT_EQ(r.integer("x"), 5);
  ASSERT_FALSE(r.in.import_notes().empty());
  EXPECT_NE(r.in.import_notes()[0].find("lib.py:5"), std::string::npos) << r.in.import_notes()[0];
  try {
    ProgramRun r2(f, "from lib import late\ny = late()\n");
    FAIL() << "late() ran";
  } catch (const python::Unsupported& e) {
    EXPECT_NE(std::string(e.what()).find("sqlite3"), std::string::npos) << e.what();
  }
  // TABLE was mutated after the stop: it no longer holds what the module leaves there.
  EXPECT_THROW(ProgramRun(f, "from lib import TABLE\nz = TABLE['a']\n"), python::Unsupported);
  // A module stopped by the stop of one it imports names both places, and what is lost once.
  f.write("outer.py", "from lib import early, late\nX = late()\nLATER = 1\n");
  ProgramRun r3(f, "from outer import early\nw = early()\n");
  EXPECT_EQ(r3.integer("w"), 5);
  std::string note = r3.in.import_notes().back();
  EXPECT_NE(note.find("importing outer stopped at"), std::string::npos) << note;
  EXPECT_EQ(note.find("unavailable"), note.rfind("unavailable")) << note;
}

// Triton 3.6's Autotuner.run: with several configs, a key's first launch benchmarks and then
// zeroes the reset_to_zero arguments; a cached key's launch does not; one config never does.
// Configs that differ only in num_warps are one program for keq.
TEST(TritonAutotune, ResetToZeroOnAKeysFirstLaunchOnly) {
  Folder f;
  std::string ref = f.write("ref.py", R"(
import torch
import torch.nn as nn
n = 2
class Model(nn.Module):
    def forward(self, x):
        return x + x
def get_inputs():
    return [torch.randn(n)]
)");
  auto cand = [&](const std::string& configs) {
    return f.write("cand.py", R"(
import torch
import torch.nn as nn
import triton
import triton.language as tl
CONFIGS = )" + configs + R"(
@triton.autotune(configs=CONFIGS, key=["n"], reset_to_zero=["out_ptr"])
@triton.jit
def add_into(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    m = offs < n
    tl.atomic_add(out_ptr + offs, tl.load(x_ptr + offs, mask=m), mask=m)
class ModelNew(nn.Module):
    def forward(self, x):
        out = torch.ones_like(x) * 7
        add_into[(1,)](x, out, x.numel())
        add_into[(1,)](x, out, x.numel())
        return out
)");
  };
  ir::TermStore s;
  Program two = run_candidate(
      cand("[triton.Config({'BLOCK': 2}), triton.Config({'BLOCK': 2}, num_warps=8)]"), ref, s, {});
  std::string reset = s.str(two.outputs[0]->elems[0]);
  EXPECT_EQ(reset.find('7'), std::string::npos) << reset;
  ASSERT_EQ(two.state.autotune_signatures.size(), 2u);
  EXPECT_EQ(two.state.autotune_signatures[0], two.state.autotune_signatures[1]);
  Program one = run_candidate(cand("[triton.Config({'BLOCK': 2})]"), ref, s, {});
  std::string kept = s.str(one.outputs[0]->elems[0]);
  EXPECT_NE(kept.find('7'), std::string::npos) << kept;
}

// The benchmarking runs keq models before an accumulating kernel's first launch are the
// configs the autotuner benchmarks: not those prune_configs_by drops (they ran as the config
// standing for them, adding a run Triton does not make). One kept config of three: the real
// run and one benchmarking run add 1 each.
TEST(TritonAutotune, PrunedConfigsMakeNoBenchmarkingRuns) {
  Folder f;
  std::string ref = f.write("ref.py", R"(
import torch
import torch.nn as nn
n = 2
class Model(nn.Module):
    def forward(self, x):
        return x * 0 + 2
def get_inputs():
    return [torch.randn(n)]
)");
  auto cand = [&](const std::string& prune) {
    return f.write("cand.py", R"(
import torch
import torch.nn as nn
import triton
import triton.language as tl
def first_only(configs, named_args, **kwargs):
    return configs[:1]
@triton.autotune(configs=[triton.Config({'BLOCK': 2}, num_warps=w) for w in (1, 2, 4)],
                 key=["n"])" + prune +
                                  R"()
@triton.jit
def count_into(out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.atomic_add(out_ptr + offs, 1.0, mask=offs < n)
class ModelNew(nn.Module):
    def forward(self, x):
        out = torch.zeros_like(x)
        count_into[(1,)](out, x.numel())
        return out
)");
  };
  ir::TermStore s;
  auto ones_added = [&](const Program& p) {
    std::string t = s.str(p.outputs[0]->elems[0]);
    return std::count(t.begin(), t.end(), '1');
  };
  Program pruned =
      run_candidate(cand(", prune_configs_by={'early_config_prune': first_only}"), ref, s, {});
  Program all = run_candidate(cand(""), ref, s, {});
  EXPECT_EQ(ones_added(pruned), 2) << s.str(pruned.outputs[0]->elems[0]);
  EXPECT_EQ(ones_added(all), 4) << s.str(all.outputs[0]->elems[0]);
}

// Writes the identity reference beside `cand_src` and runs the candidate: the message of the
// UNSUPPORTED it must end in.
std::string unsupported_candidate(const Folder& f, const std::string& cand_src) {
  std::string ref = f.write("ref.py", R"(
import torch
import torch.nn as nn
class Model(nn.Module):
    def forward(self, x):
        return x
def get_inputs():
    return [torch.randn(2)]
)");
  std::string cand = f.write("cand.py", cand_src);
  ir::TermStore store;
  try {
    run_candidate(cand, ref, store, {});
  } catch (const python::Unsupported& e) {
    return e.what();
  }
  return "(ran)";
}

// torch._inductor's triton_helpers, keq's model in Python: max2 reduces with the NaN-propagating
// where-form maximum, which keq takes as torch's max; a float where-form without the NaN test
// picks by the reduction's order on a NaN, so it stays UNSUPPORTED.
TEST(PythonImports, InductorHelpersReduceAndAnOrderDependentCombineIsRefused) {
  Folder f;
  auto cand = [](const std::string& reduce) {
    return R"(
import torch
import torch.nn as nn
import triton
import triton.language as tl
from torch._inductor.runtime import triton_helpers

@triton.jit
def pick(a, b):
    return tl.where(a > b, a, b)

@triton.jit
def k(x_ptr, y_ptr):
    v = tl.load(x_ptr + tl.arange(0, 2))
    tl.store(y_ptr + tl.arange(0, 2), v * 0 + )" +
           reduce + R"()

class ModelNew(nn.Module):
    def forward(self, x):
        y = torch.empty_like(x)
        k[(1,)](x, y)
        return y
)";
  };
  EXPECT_EQ(unsupported_candidate(f, cand("triton_helpers.max2(v, 0)")), "(ran)");
  EXPECT_NE(unsupported_candidate(f, cand("tl.reduce(v, 0, pick)"))
                .find("a combine_fn keq does not recognise"),
            std::string::npos);
}

TEST(PythonImports, AnUncaughtMissingModuleIsUnsupportedNotAVerdict) {
  Folder f;
  std::string what = unsupported_candidate(f, R"(
import torch.nn as nn
from kernels_not_installed import fast_copy
class ModelNew(nn.Module):
    def forward(self, x):
        return fast_copy(x)
)");
  EXPECT_NE(what.find("cand.py:3"), std::string::npos) << what;
  EXPECT_NE(what.find("kernels_not_installed"), std::string::npos);
}

// After keq stopped a module's top level, an exception the program raises may be keq's
// divergence (fla: a stopped package __init__ changed the import order, and an import cycle
// raised AttributeError in keq, not in CPython): UNSUPPORTED, naming the stop, not a verdict.
TEST(PythonImports, AnExceptionAfterAStoppedModuleIsNoVerdict) {
  Folder f;
  f.write("lib.py", "import sqlite3\nDB = sqlite3.connect(':memory:')\nVALUE = 1\n");
  std::string what = unsupported_candidate(f, R"(
import torch.nn as nn
try:
    import lib
except Exception:
    pass
class ModelNew(nn.Module):
    def forward(self, x):
        raise ValueError("boom")
)");
  EXPECT_NE(what.find("ValueError: boom, raised after keq stopped a module"), std::string::npos)
      << what;
}

// A module keq cannot find is taken as installed where nothing handles its absence (mamba's
// layernorm_gated.py imports einops at the top and never calls it on the forward path: the file
// was UNSUPPORTED at the import); inside a try with handlers it is CPython's ImportError, so the
// program's fallback runs.
TEST(PythonImports, AMissingModuleStopsOnlyCodeThatUsesIt) {
  Folder f;
  ProgramRun r(f, R"(
from einops_not_here import rearrange
import helpers_not_here.sub as sub
try:
    import optional_not_here
    a = 1
except ImportError:
    a = 2
def uses():
    return rearrange(1)
b = 3
)");
  EXPECT_EQ(r.integer("a"), 2);
  EXPECT_EQ(r.integer("b"), 3);
  python::CallArgs c;
  try {
    r.in.call(r.env->lookup("uses"), c);
    FAIL() << "ran";
  } catch (const python::Unsupported& e) {
    EXPECT_NE(std::string(e.what()).find("module 'einops_not_here', imported at"),
              std::string::npos)
        << e.what();
  }
}

// dir() of a module whose names keq knows: one read from source, and torch.distributed (its
// names under torch 2.11, private ones too). flash-attn's cross_entropy stopped at import on
// `if "all_gather_into_tensor" not in dir(torch.distributed)`. Elsewhere it is not modelled.
TEST(PythonImports, DirListsTheNamesOfAModuleKeqKnowsWhole) {
  Folder f;
  f.write("helpers.py", "import math\nSCALE = 2\ndef twice(x):\n    return SCALE * x\n");
  ProgramRun r(f, R"(
import torch
import helpers
names = dir(helpers)
a = int("twice" in names) + 2 * int("SCALE" in names) + 4 * int("math" in names)
b = int(names == sorted(names)) + 2 * int("thrice" in names)
d = dir(torch.distributed)
c = int("all_gather_into_tensor" in d) + 2 * int("_all_gather_base" in d) + 4 * int("nope" in d)
e = int(hasattr(torch.distributed, "reduce_scatter_tensor"))
)");
  EXPECT_EQ(r.integer("a"), 7);
  EXPECT_EQ(r.integer("b"), 1);
  EXPECT_EQ(r.integer("c"), 3);
  EXPECT_EQ(r.integer("e"), 1);
  Folder g;
  EXPECT_THROW(ProgramRun(g, "import torch\nx = dir(torch.nn)\n"), python::Unsupported);
  // keq's own Python model of a module lists keq's names, not the library's.
  EXPECT_THROW(ProgramRun(g, "import torch.library\nx = dir(torch.library)\n"),
               python::Unsupported);
  EXPECT_THROW(ProgramRun(g, "x = dir()\n"), python::Unsupported);
}

// A library's own triton_op (flash-attn's keeps the schema torch's drops) imports
// set_wrap_triton_enabled from torch._library.triton and registers a decomposition for
// FunctionalTensorMode: both modelled, and an eager call runs the implementation.
TEST(PythonImports, ALibrarysOwnTritonOpRunsItsImplementation) {
  Folder f;
  ProgramRun r(f, R"(
import torch
from torch.library import custom_op
from torch._library.triton import set_wrap_triton_enabled
from torch._subclasses.functional_tensor import FunctionalTensorMode

def triton_op(name, fn=None, /, *, mutates_args, schema=None):
    def dec(fn):
        def backend_fn(*args, **kwargs):
            with set_wrap_triton_enabled(False):
                return fn(*args, **kwargs)
        result = custom_op(name, backend_fn, mutates_args=mutates_args, schema=schema)
        result.register_fake(fn)
        result.register_torch_dispatch(FunctionalTensorMode, lambda *a: None)
        return result
    return dec if fn is None else dec(fn)

@triton_op("t::plus_one", mutates_args=(), schema="(int x) -> int")
def plus_one(x):
    return x + 1

a = plus_one(41)
)");
  EXPECT_EQ(r.integer("a"), 42);
}

// What libraries run at import, as CPython runs it (torchao's and unsloth's __init__): a
// standard-library module keq does not model imports, and only a use of it is UNSUPPORTED;
// warnings filters change nothing keq computes (an "error" filter would); importlib.metadata
// reads a package's version from its .dist-info on the search path; torch.version has
// git_version; torch.utils._triton answers as on the H200.
TEST(PythonImports, LibraryImportTimeHelpersRunAsCPythonRunsThem) {
  Folder f;
  f.write("pkg_x-1.2.3.dist-info/METADATA", "Name: pkg-x\nVersion: 1.2.3\n");
  ProgramRun r(f, R"(
import ctypes
import warnings
import torch
from importlib.metadata import PackageNotFoundError, version
from torch.utils._triton import has_triton
warnings.filterwarnings("ignore", message="numpy")
with warnings.catch_warnings() as w:
    warnings.simplefilter("ignore")
a = int(w is None) + 2 * int(version("pkg-x") == "1.2.3") + 4 * int(has_triton())
b = int(hasattr(torch.version, "git_version")) + 2 * int(issubclass(PackageNotFoundError, ImportError))
def uses():
    return ctypes.c_int(3)
)");
  EXPECT_EQ(r.integer("a"), 7);
  EXPECT_EQ(r.integer("b"), 3);
  python::CallArgs c;
  EXPECT_THROW(r.in.call(r.env->lookup("uses"), c), python::Unsupported);
  Folder g;
  EXPECT_THROW(ProgramRun(g, "import warnings\nwarnings.simplefilter('error')\n"),
               python::Unsupported);
  EXPECT_THROW(ProgramRun(g, "from importlib.metadata import version\nv = version('absent')\n"),
               python::Unsupported);
}

// A function's own attributes as CPython gives them, and functools.wraps copying them and
// setting __wrapped__ (fla's decorators read fn.__name__; inspect.signature follows
// __wrapped__).
TEST(PythonHost, FunctionAttributesAndWrapsAsCPython) {
  Folder f;
  ProgramRun r(f, R"(
import functools
def f(a, b=2):
    "doc of f"
    return a
@functools.wraps(f)
def g(*args, **kwargs):
    return f(*args, **kwargs)
def h():
    pass
h.tag = 5
a = int(f.__name__ == "f") + 2 * int(g.__name__ == "f") + 4 * int(g.__doc__ == "doc of f")
b = int(g.__wrapped__ is f) + 2 * int(not hasattr(f, "__wrapped__")) + 4 * int(h.__doc__ is None)
c = h.tag + 10 * int(f.__module__ == __name__) + 100 * int((lambda: 0).__name__ == "<lambda>")
)");
  EXPECT_EQ(r.integer("a"), 7);
  EXPECT_EQ(r.integer("b"), 7);
  EXPECT_EQ(r.integer("c"), 115);
  EXPECT_THROW(ProgramRun(f, "def f():\n    pass\nx = f.missing\n"), python::ProgramError);
  EXPECT_THROW(ProgramRun(f, "def f():\n    pass\nx = f.__code__\n"), python::Unsupported);
}

// inspect.signature, Signature.bind and the predicates as CPython 3.11 answers them (each
// value below is CPython's for this text). A library function keq models as a builtin has
// Triton 3.6's parameter names; reading their defaults is UNSUPPORTED, as is asking whether a
// builtin is a Python function (torch.nn.functional.relu is one in CPython).
TEST(PythonHost, InspectSignatureAndBindAsCPython) {
  Folder f;
  f.write("mod.py", "def two():\n    pass\ndef one():\n    pass\nclass K:\n    pass\nV = 3\n");
  ProgramRun r(f, R"(
import functools
import inspect
import triton
def f(a, b=2, /, c=3, *args, d, e=5, **kw):
    return a
@functools.wraps(f)
def g(*args, **kwargs):
    return f(*args, **kwargs)
class C:
    def __init__(self, x, y=1):
        self.x = x
    def m(self, p, q=4):
        return p
S = inspect.signature(f)
kinds = [p.kind for p in S.parameters.values()]
ok = kinds == [0, 0, 1, 2, 3, 3, 4]
ok = ok and [p.default for p in S.parameters.values()][1:3] == [2, 3]
ok = ok and S.parameters["a"].default is inspect.Parameter.empty
ok = ok and list(inspect.signature(g).parameters) == ["a", "b", "c", "args", "d", "e", "kw"]
ok = ok and list(inspect.signature(C).parameters) == ["x", "y"]
ok = ok and list(inspect.signature(C(1).m).parameters) == ["p", "q"]
B = S.bind(1, 9, 8, 7, d=6, z=0)
B.apply_defaults()
ok = ok and B.arguments == {"a": 1, "b": 9, "c": 8, "args": (7,), "d": 6, "e": 5, "kw": {"z": 0}}
ok = ok and B.args == (1, 9, 8, 7) and B.kwargs == {"d": 6, "e": 5, "z": 0}
try:
    S.bind(1)
    missing = 0
except TypeError:
    missing = 1
ok = ok and "cache_results" in inspect.signature(triton.autotune).parameters
ok = ok and (inspect.isfunction(f), inspect.isclass(C), inspect.ismethod(C(1).m)) == (True, True, True)
ok = ok and not inspect.isfunction(C) and inspect.unwrap(g) is f
import mod
names = [n for n, v in inspect.getmembers(mod, inspect.isfunction)]
ok = int(ok and names == ["one", "two"]) + 2 * missing
)");
  EXPECT_EQ(r.integer("ok"), 3);
  EXPECT_THROW(ProgramRun(f,
                          "import inspect, triton\n"
                          "d = inspect.signature(triton.autotune).parameters['key'].default\n"),
               python::Unsupported);
  EXPECT_THROW(ProgramRun(f, "import inspect, torch\nb = inspect.isfunction(torch.relu)\n"),
               python::Unsupported);
}

// == compares dicts, sets and slices by value, in any order, and calls a class's own __eq__;
// host ints, floats and strs have CPython's attributes only (hasattr(x, "dtype") is False:
// fla's autotuner keys tensors by it).
TEST(PythonHost, ContainersCompareByValueAndScalarsHaveTheirOwnAttributes) {
  Folder f;
  ProgramRun r(f, R"(
class P:
    def __init__(self, v):
        self.v = v
    def __eq__(self, other):
        return self.v == other.v
a = int({"a": 1, "b": (2,)} == {"b": (2,), "a": 1}) + 2 * int({1, 2} == {2, 1})
a = a + 4 * int({"a": {"z": 1}} != {"a": {"z": 2}}) + 8 * int(P(1) == P(1)) + 16 * int(P(1) != P(2))
b = int(not hasattr(1.0, "dtype")) + 2 * int(not hasattr(3, "dtype")) + 4 * int(not hasattr("s", "dtype"))
b = b + 8 * int(not hasattr(True, "dtype")) + 16 * int({1: 2} != {1: 2, 3: 4})
)");
  EXPECT_EQ(r.integer("a"), 31);
  EXPECT_EQ(r.integer("b"), 31);
}

// collections.deque with a maxlen drops from the other end (fla's tensor_cache keeps its last
// 4 calls so); tensor parallelism's classes import and subclass, and making one is UNSUPPORTED.
TEST(PythonHost, DequesWithAMaxlenAndDistributedNamesAsLibrariesImportThem) {
  Folder f;
  ProgramRun r(f, R"(
import torch
from collections import deque
from torch.distributed import DeviceMesh
from torch.distributed.tensor import DTensor, Replicate, Shard, distribute_module
from torch.distributed.tensor.parallel import ParallelStyle
d = deque([1, 2, 3], maxlen=3)
d.append(4)
d.appendleft(0)
e = deque(maxlen=2)
e.extend([5, 6, 7])
a = sum(d) + 10 * len(d) + 100 * e.popleft() + 1000 * int(e.maxlen == 2 and not isinstance(d, list))
class NormParallel(ParallelStyle):
    pass
b = int(not isinstance(torch.randn(2), DTensor)) + 2 * int(issubclass(NormParallel, ParallelStyle))
)");
  EXPECT_EQ(r.integer("a"), 1635);  // deque([0, 2, 3]); e deque([6, 7]), then 6 taken
  EXPECT_EQ(r.integer("b"), 3);
  EXPECT_THROW(ProgramRun(f, "from torch.distributed.tensor import Shard\ns = Shard(0)\n"),
               python::Unsupported);
}

// Triton's own submodules import as installed (fla probes triton.experimental.gluon with
// find_spec and imports it for a backend it does not pick), a use is UNSUPPORTED; a vendor's
// name on tl.extra is absent; the Warning classes CPython has are there.
TEST(PythonImports, TritonsSubmodulesAndVendorProbesAsInstalled) {
  Folder f;
  ProgramRun r(f, R"(
import warnings
from importlib.util import find_spec
import triton.language as tl
import triton.experimental.gluon as gluon
a = int(find_spec("triton.experimental.gluon") is not None) + 2 * int(not hasattr(tl.extra, "ascend"))
a = a + 4 * int(hasattr(tl.extra, "cuda")) + 8 * int(issubclass(ImportWarning, Warning))
)");
  EXPECT_EQ(r.integer("a"), 15);
  EXPECT_THROW(ProgramRun(f, "import triton.experimental.gluon as g\nx = g.jit\n"),
               python::Unsupported);
  EXPECT_THROW(ProgramRun(f, "import triton.no_such_module\n"), python::ProgramError);
}

}  // namespace
}  // namespace keq::torch
