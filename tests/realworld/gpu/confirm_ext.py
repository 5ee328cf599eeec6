"""Runs third-party KernelBench pairs (ref.py with Model, cand.py with ModelNew, not in this
repository) on the GPU with torch and Triton for real, to confirm keq's verdicts there.

usage: python confirm_ext.py DIR OUT.txt [PROBLEM ...]   (a CUDA device; without one, the CPU
       under TRITON_INTERPRET=1, a smoke test of this script)

For each DIR/<problem>/:
- repro.py (keq verify --repro's script, if there): run, its last lines recorded;
- pairing.txt (if there, without repro.py): a line `PAIRING = [...]` as repro.py writes it, for
  a pair keq proved whose parameters it paired transposed;
- at the file's own sizes (unless CONFIRM_FILE_SIZES=0), three random draws of get_inputs(): the candidate given the
  reference's parameters (creation order, or PAIRING from repro.py as keq paired them), the
  largest absolute difference, or what the candidate raised;
- dims.txt (if there: NAME=V,... lines, keq's configurations): the same at those sizes, once for
  each autotune config forced alone, with the candidate's torch.empty filled with NaN so that
  elements nothing writes show.
"""
import ast
import os
import re
import sys
import traceback
import types

import torch
import triton

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"


def load(path, name, dims=None):  # each size in dims set where the file assigns it, as keq does
    dims = dims or {}
    tree = ast.parse(open(path).read(), path)
    body = []
    for node in tree.body:
        body.append(node)
        targets = node.targets if isinstance(node, ast.Assign) else []
        for t in targets:
            for n in [n.id for n in ast.walk(t) if isinstance(n, ast.Name) and n.id in dims]:
                value = dims[n]  # a tuple where the file writes one (input_shape = (32768,)),
                # not where it unpacks one (height, width = 32, 32)
                if isinstance(t, ast.Name) and isinstance(node.value, (ast.Tuple, ast.List)) \
                        and not isinstance(value, tuple):
                    value = (value,)
                body.append(ast.copy_location(ast.parse(f"{n} = {value!r}").body[0], node))
    tree.body = body
    m = types.ModuleType(name)
    m.__file__ = path
    sys.modules[name] = m
    exec(compile(ast.fix_missing_locations(tree), path, "exec"), m.__dict__)
    return m


def classes_of(ref, cand):  # the classes keq compares (frontends/triton/program.cc model_classes)
    if hasattr(ref, "Model"):
        return ref.Model, cand.ModelNew
    own = {n: c for n, c in vars(ref).items()
           if isinstance(c, type) and c.__module__ == ref.__name__}
    for n, c in own.items():  # KernelBook: X and XNew
        if hasattr(cand, n + "New"):
            return c, getattr(cand, n + "New")
    modules = {n: c for n, c in own.items() if issubclass(c, torch.nn.Module)}
    import inspect
    used = {n for n in modules for m, c in modules.items()
            if m != n and re.search(r"\b%s\b" % n, inspect.getsource(c))}
    roots = [c for n, c in modules.items() if n not in used]
    return (list(modules.values())[0] if len(modules) == 1 else roots[0]), cand.ModelNew


def init_arguments(ref):  # KernelBook's get_init_inputs() returns [args, kwargs]
    init = ref.get_init_inputs() if hasattr(ref, "get_init_inputs") else []
    if not hasattr(ref, "Model") and len(init) == 2 and isinstance(init[1], dict):
        return list(init[0]), init[1]
    return init, {}


def build(cls, args, kwargs=None):  # the model and its parameters in creation order (as keq numbers them)
    made, modules = [], []
    real_new, real_init = torch.nn.Parameter.__new__, torch.nn.Module.__init__

    def parameter_new(c, data=None, requires_grad=True):
        made.append(real_new(c, data, requires_grad))
        return made[-1]

    def module_init(self, *a, **kw):
        real_init(self, *a, **kw)
        modules.append(self)

    torch.nn.Parameter.__new__, torch.nn.Module.__init__ = staticmethod(parameter_new), module_init
    try:
        model = cls(*args, **(kwargs or {})).to(DEVICE)
    finally:
        torch.nn.Parameter.__new__, torch.nn.Module.__init__ = real_new, real_init
    held = {id(p) for m in modules for p in m.parameters(recurse=False)}
    return model, [p for p in made if id(p) in held]


def pairing_of(problem_dir):
    # repro.py's PAIRING, or pairing.txt's (a pair keq proved: no repro.py, yet its weights are
    # transposed, as keq's note on the parameters' pairing says)
    path = os.path.join(problem_dir, "repro.py")
    if not os.path.exists(path):
        path = os.path.join(problem_dir, "pairing.txt")
    if not os.path.exists(path):
        return []
    for line in open(path):
        if line.startswith("PAIRING = "):
            return ast.literal_eval(line[len("PAIRING = "):])
    return []


def copy_parameters(ref_params, cand_params, pairing):
    with torch.no_grad():
        for k, p in enumerate(cand_params):
            source, transposed = pairing[k] if k < len(pairing) and pairing[k] else (f"p{k}", False)
            if k < len(pairing) and pairing[k] is None:
                continue  # the candidate's own
            j = int(source[1:])
            if j >= len(ref_params):
                continue
            s = ref_params[j].data
            s = s.t() if transposed else s
            if s.numel() == p.numel():
                p.data.copy_(s.reshape(p.shape))


def autotuners(module):
    return [v for v in vars(module).values() if isinstance(v, triton.runtime.autotuner.Autotuner)]


def poisoned(t):  # NaN, or an integer tensor's smallest value (an argmin's unwritten index)
    if t.dtype.is_floating_point:
        return t.fill_(float("nan"))
    return t.fill_(torch.iinfo(t.dtype).min) if t.dtype != torch.bool else t


class NanEmpty:  # the candidate's torch.empty* filled with NaN: unwritten elements show
    names = ("empty", "empty_like")

    def __enter__(self):
        self.real = {n: getattr(torch, n) for n in self.names}
        self.real_new_empty = torch.Tensor.new_empty
        for n in self.names:
            setattr(torch, n, lambda *a, _f=self.real[n], **kw: poisoned(_f(*a, **kw)))
        torch.Tensor.new_empty = lambda t, *a, **kw: poisoned(self.real_new_empty(t, *a, **kw))

    def __exit__(self, *exc):
        for n, f in self.real.items():
            setattr(torch, n, f)
        torch.Tensor.new_empty = self.real_new_empty


def difference(a, b, chunk=1 << 26):  # NaNs only b has, the largest |a - b| and |a|, in chunks
    a, b = a.reshape(-1), b.reshape(-1)
    # fp8 has no isnan/isfinite in torch 2.11: its values compared as fp32 (exact)
    a, b = [t.float() if t.is_floating_point() and t.element_size() == 1 else t for t in (a, b)]
    nans, worst, scale = 0, 0.0, 0.0
    for k in range(0, a.numel(), chunk):
        x, y = a[k:k + chunk], b[k:k + chunk]
        nans += int((y.isnan() & ~x.isnan()).sum().item())
        d = (x.double() - y.double()).abs()
        d, x = d[~d.isnan()], x[x.isfinite()].abs()
        worst = max(worst, d.max().item() if d.numel() else 0.0)
        scale = max(scale, x.max().item() if x.numel() else 0.0)
    return nans, worst, scale


def own_imports(problem_dir):
    # A candidate that imports its kernels from its own folder (`from kernel import
    # kernel_function`, as keq reads it with --python-path): that folder first on sys.path, and
    # what an earlier problem's folder imported under the same names forgotten.
    folder = os.path.abspath(problem_dir)
    parent = os.path.dirname(folder)
    for name, m in list(sys.modules.items()):
        f = os.path.abspath(getattr(m, "__file__", None) or "/")
        if name not in ("ref", "cand") and f.startswith(parent + os.sep):
            del sys.modules[name]
    sys.path[:] = [p for p in sys.path if os.path.dirname(os.path.abspath(p)) != parent]
    sys.path.insert(0, folder)


def compare(problem_dir, dims, seeds, nan_empty=False, config=None):
    own_imports(problem_dir)
    ref = load(os.path.join(problem_dir, "ref.py"), "ref", dims)
    cand = load(os.path.join(problem_dir, "cand.py"), "cand", dims)
    tuners = autotuners(cand)
    if config is not None and (config >= max([len(t.configs) for t in tuners] or [1])):
        return None
    if config is not None:
        for t in tuners:
            t.configs = [t.configs[min(config, len(t.configs) - 1)]]
            t.cache = {}
    args, kwargs = init_arguments(ref)
    ref_class, cand_class = classes_of(ref, cand)
    torch.manual_seed(0)
    rm, rp = build(ref_class, args, kwargs)
    cm, cp = build(cand_class, args, kwargs)
    copy_parameters(rp, cp, pairing_of(problem_dir))
    worst, nans, scale, shape = 0.0, 0, 0.0, None
    for seed in seeds:
        torch.manual_seed(seed)
        inputs = [x.to(DEVICE) if torch.is_tensor(x) else x for x in ref.get_inputs()]
        with torch.no_grad():
            a = rm(*[x.clone() if torch.is_tensor(x) else x for x in inputs])
            try:
                if nan_empty:
                    with NanEmpty():
                        b = cm(*[x.clone() if torch.is_tensor(x) else x for x in inputs])
                else:
                    b = cm(*[x.clone() if torch.is_tensor(x) else x for x in inputs])
            except Exception as e:  # the candidate raises where the reference runs
                lines = [l for l in str(e).splitlines() if l.strip()] or [""]
                where = f"{lines[0][:80]} ... " if len(lines) > 1 else ""
                return f"candidate raises: {type(e).__name__}: {where}{lines[-1][:300]}"
        a, b = (x if torch.is_tensor(x) else x[0] for x in (a, b))
        if a.shape != b.shape:
            return f"shapes differ: reference {list(a.shape)}, candidate {list(b.shape)}"
        n, w, m = difference(a, b)
        nans, worst, scale, shape = max(nans, n), max(worst, w), max(scale, m), list(a.shape)
        del a, b, inputs  # KernelBench's level-1 sizes fill most of the GPU's memory
        torch.cuda.empty_cache() if DEVICE == "cuda" else None
    picked = ";".join(str(t.best_config) for t in tuners if getattr(t, "best_config", None))
    return (f"shape {shape}: max_abs_difference {worst:.9g} (largest finite |reference| {scale:.6g}), "
            f"candidate NaN where the reference "
            f"is not: {nans}" + (f", autotune {picked}" if picked else ""))


def run_repro(problem_dir):
    import subprocess
    path = os.path.join(problem_dir, "repro.py")
    if not os.path.exists(path):
        return None
    env = dict(os.environ)  # the candidate's own imports (own_imports)
    env["PYTHONPATH"] = os.pathsep.join(
        [os.path.abspath(problem_dir)] + [x for x in [env.get("PYTHONPATH")] if x])
    p = subprocess.run([sys.executable, path], capture_output=True, text=True, timeout=300,
                       env=env)
    lines = (p.stdout.strip().splitlines() or [""])[-3:]
    return " | ".join(lines) if p.returncode == 0 else "raised: " + p.stderr.strip().splitlines()[-1]


def confirm(problem_dir):
    out = []
    r = run_repro(problem_dir)
    if r is not None:
        out.append(f"  keq's counterexample (repro.py): {r}")
    if os.environ.get("CONFIRM_FILE_SIZES", "1") != "0":  # 0: keq's witness and dims.txt only
        try:
            out.append(f"  file's sizes, 3 random draws: {compare(problem_dir, {}, range(3))}")
        except Exception:
            out.append("  file's sizes: error " + traceback.format_exc().splitlines()[-1])
    dims_file = os.path.join(problem_dir, "dims.txt")
    for line in open(dims_file).read().split() if os.path.exists(dims_file) else []:
        dims = {}  # keq writes a tuple's values as 4x5
        for k, v in (kv.split("=") for kv in line.split(",")):
            values = tuple(int(x) for x in v.split("x"))
            dims[k] = values if len(values) > 1 else values[0]
        for config in range(64):
            try:
                r = compare(problem_dir, dims, range(2), nan_empty=True, config=config)
            except Exception:  # the files themselves (an import): no config changes that
                out.append(f"  {line}: error " + traceback.format_exc().splitlines()[-1])
                break
            if r is None:
                break
            out.append(f"  {line}, autotune config {config + 1} alone, NaN-filled empty: {r}")
    return out


if __name__ == "__main__":
    root, out_path = sys.argv[1], sys.argv[2]
    problems = sys.argv[3:] or sorted(os.listdir(root))
    with open(out_path, "w") as f:
        name = torch.cuda.get_device_name() if DEVICE == "cuda" else "CPU, Triton interpreter"
        f.write(f"# {name}, torch {torch.__version__}, triton {triton.__version__}\n")
        for p in problems:
            lines = [p] + confirm(os.path.join(root, p))
            print("\n".join(lines), flush=True)
            f.write("\n".join(lines) + "\n")
