"""Equivalent variants of correct candidates: the metamorphic side of mutation testing.

Each transformation rewrites the @triton.jit kernels of a candidate (its Python AST) into a form
that computes the same function in keq's real semantics; keq must prove every variant
(tests/variants/run.sh runs keq verify --no-smt on each and prints the share proved, by
transformation). A failure is a normal-form gap to close, not a variant to drop.

    python3 make_variants.py CAND.py OUT_DIR   ->  OUT_DIR/<transformation>.py, one per change

A transformation that finds nothing to rewrite in a file writes nothing. Not here (issue 15): a
scalar accumulator as a vector one (the reverse of vector_to_scalar_accumulator), which needs
the block's shape at the update."""
import ast
import copy
import os
import sys


def is_tl(node, *names):
    """tl.NAME(...) or tl.math.NAME(...)"""
    if not isinstance(node, ast.Call):
        return False
    f = node.func
    if isinstance(f, ast.Attribute) and f.attr in names:
        v = f.value
        if isinstance(v, ast.Name) and v.id == "tl":
            return True
        if isinstance(v, ast.Attribute) and v.attr == "math" and isinstance(v.value, ast.Name) \
                and v.value.id == "tl":
            return True
    return False


def tl_call(name, *args, **kwargs):
    return ast.Call(func=ast.Attribute(value=ast.Name(id="tl", ctx=ast.Load()), attr=name,
                                       ctx=ast.Load()),
                    args=list(args),
                    keywords=[ast.keyword(arg=k, value=v) for k, v in kwargs.items()])


def num(v):
    return ast.Constant(value=v)


def is_float_context(node):
    """Conservatively: an expression that is not an integer index computation."""
    for n in ast.walk(node):
        if isinstance(n, ast.Call) and is_tl(n, "arange", "program_id", "num_programs"):
            return False
        if isinstance(n, ast.Constant) and isinstance(n.value, int) and not isinstance(n.value,
                                                                                      bool):
            return False
    return True


class Transform(ast.NodeTransformer):
    """Rewrites inside @triton.jit functions only; counts its rewrites."""
    name = ""

    def __init__(self, module_constants=()):
        self.count = 0
        self.in_kernel = False
        self.module_constants = set(module_constants)  # FP8_MAX = 448.0 at module level
        self.constexprs = set(module_constants)  # and the kernel's tl.constexpr parameters

    def visit_FunctionDef(self, node):
        jit = any("jit" in ast.unparse(d) for d in node.decorator_list)
        outer, outer_consts = self.in_kernel, self.constexprs
        self.in_kernel = outer or jit
        if jit:
            self.constexprs = self.module_constants | {
                a.arg for a in node.args.args
                if a.annotation is not None and "constexpr" in ast.unparse(a.annotation)}
        if self.in_kernel:
            self.kernel(node)
        else:
            self.generic_visit(node)
        self.in_kernel, self.constexprs = outer, outer_consts
        return node

    def kernel(self, node):
        """Rewrites a @triton.jit function: expression-level transformations visit its nodes."""
        self.generic_visit(node)

    def compile_time(self, node):
        """A value Triton computes in Python at compile time: constants and constexprs."""
        return all(isinstance(n, ast.Constant) or (isinstance(n, ast.Name) and n.id in
                                                   self.constexprs)
                   for n in ast.walk(node) if isinstance(n, (ast.Constant, ast.Name)))


class DivToMulRecip(Transform):
    """a / b -> a * (1.0 / b) for a b computed in the kernel (x / n <-> x * (1/n); mean as sum / n
    <-> sum * (1/n)). A compile-time b is left alone: Python folds 1.0 / b in double and Triton
    rounds it to fp32, which is not 1 / b over the reals (x / 3.0 and x * (1.0 / 3.0) differ)."""
    name = "div_to_mul_recip"

    def visit_BinOp(self, node):
        self.generic_visit(node)
        if self.in_kernel and isinstance(node.op, ast.Div) and is_float_context(node) and \
                not self.compile_time(node.right) and not (
                isinstance(node.left, ast.Constant) and node.left.value == 1.0):
            self.count += 1
            return ast.BinOp(left=node.left, op=ast.Mult(),
                             right=ast.BinOp(left=num(1.0), op=ast.Div(), right=node.right))
        return node


class SubToAddNeg(Transform):
    """a - b -> a + (-b) on float expressions"""
    name = "sub_to_add_neg"

    def visit_BinOp(self, node):
        self.generic_visit(node)
        if self.in_kernel and isinstance(node.op, ast.Sub) and is_float_context(node):
            self.count += 1
            return ast.BinOp(left=node.left, op=ast.Add(),
                             right=ast.UnaryOp(op=ast.USub(), operand=node.right))
        return node


class RsqrtToSqrtDiv(Transform):
    """tl.rsqrt(v) -> 1.0 / tl.sqrt(v)"""
    name = "rsqrt_to_sqrt_div"

    def visit_Call(self, node):
        self.generic_visit(node)
        if self.in_kernel and is_tl(node, "rsqrt") and len(node.args) == 1:
            self.count += 1
            return ast.BinOp(left=num(1.0), op=ast.Div(), right=tl_call("sqrt", node.args[0]))
        return node


class SqrtDivToRsqrt(Transform):
    """a / tl.sqrt(v) -> a * tl.rsqrt(v)"""
    name = "sqrt_div_to_rsqrt"

    def visit_BinOp(self, node):
        self.generic_visit(node)
        if self.in_kernel and isinstance(node.op, ast.Div) and is_tl(node.right, "sqrt"):
            self.count += 1
            return ast.BinOp(left=node.left, op=ast.Mult(),
                             right=tl_call("rsqrt", *node.right.args))
        return node


class ExpToExp2(Transform):
    """tl.exp(v) -> tl.exp2(v * 1.4426950408889634), as flash-attention kernels write it: the
    literal is log2 e rounded, which keq's real semantics takes as log2 e (DESIGN.md)"""
    name = "exp_to_exp2"

    def visit_Call(self, node):
        self.generic_visit(node)
        if self.in_kernel and is_tl(node, "exp") and len(node.args) == 1:
            self.count += 1
            return tl_call("exp2", ast.BinOp(left=node.args[0], op=ast.Mult(),
                                             right=num(1.4426950408889634)))
        return node


class OtherZeroToWhere(Transform):
    """tl.load(p, mask=m, other=0) -> tl.where(m, tl.load(p, mask=m), 0)"""
    name = "other_zero_to_where"

    def visit_Call(self, node):
        self.generic_visit(node)
        if not (self.in_kernel and is_tl(node, "load")):
            return node
        kw = {k.arg: k.value for k in node.keywords}
        other = kw.get("other")
        if "mask" not in kw or not isinstance(other, ast.Constant) or other.value not in (0, 0.0):
            return node
        load = copy.deepcopy(node)
        load.keywords = [k for k in load.keywords if k.arg != "other"]
        self.count += 1
        return tl_call("where", kw["mask"], load, num(0.0))


class MaximumToWhere(Transform):
    """tl.maximum(a, 0.0) -> tl.where(a > 0.0, a, 0.0) (a constant operand: NaN aside, where keq's
    real semantics has no NaN from finite inputs)"""
    name = "maximum_const_to_where"

    def visit_Call(self, node):
        self.generic_visit(node)
        if self.in_kernel and is_tl(node, "maximum", "minimum") and len(node.args) == 2 and \
                isinstance(node.args[1], ast.Constant):
            a, c = node.args
            op = ast.Gt() if node.func.attr == "maximum" else ast.Lt()
            self.count += 1
            return tl_call("where", ast.Compare(left=a, ops=[op], comparators=[c]),
                           copy.deepcopy(a), c)
        return node


def names_in(node):
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def has_effect(node):
    """A call that writes memory, or anything the reordering must not move."""
    return any(isinstance(n, ast.Call) and is_tl(n, "store", "atomic_add", "atomic_max",
                                                   "atomic_min", "atomic_cas", "atomic_xchg",
                                                   "debug_barrier")
               for n in ast.walk(node))


def simple_range(st):
    """A `for NAME in range(...)` without else, break or continue: its (start, stop, step)."""
    if not (isinstance(st, ast.For) and isinstance(st.target, ast.Name)
            and isinstance(st.iter, ast.Call) and isinstance(st.iter.func, ast.Name)
            and st.iter.func.id == "range" and not st.orelse and not st.iter.keywords):
        return None
    if any(isinstance(n, (ast.Break, ast.Continue)) for n in ast.walk(st)):
        return None
    args = st.iter.args
    return (num(0), args[0], num(1)) if len(args) == 1 else \
        (args[0], args[1], args[2] if len(args) == 3 else num(1))


class LoopTransform(Transform):
    """Rewrites each simple `for ... in range(start, stop, step)` of a kernel whose step is a
    positive constant or a constexpr (a block size), inner loops first: rewrite_loop returns the
    statements that replace it, or None to keep it."""

    def positive_step(self, step):
        return (isinstance(step, ast.Constant) and isinstance(step.value, int) and
                step.value > 0) or (isinstance(step, ast.Name) and step.id in self.constexprs)

    def rewrite_body(self, body):
        out = []
        for st in body:
            for field in ("body", "orelse"):
                if isinstance(getattr(st, field, None), list) and \
                        not isinstance(st, ast.FunctionDef):
                    setattr(st, field, self.rewrite_body(getattr(st, field)))
            r = simple_range(st) if self.in_kernel else None
            new = self.rewrite_loop(st, *r) if r and self.positive_step(r[2]) else None
            if new is None:
                out.append(st)
            else:
                self.count += 1
                out.extend(new)
        return out

    def kernel(self, node):
        node.body = self.rewrite_body(node.body)


class ForToWhile(LoopTransform):
    """for i in range(a, b[, s]): body -> i = a; while i < b: body; i += s"""
    name = "for_to_while"

    def rewrite_loop(self, st, start, stop, step):
        i = st.target.id
        init = ast.Assign(targets=[ast.Name(id=i, ctx=ast.Store())], value=start)
        incr = ast.AugAssign(target=ast.Name(id=i, ctx=ast.Store()), op=ast.Add(), value=step)
        cond = ast.Compare(left=ast.Name(id=i, ctx=ast.Load()), ops=[ast.Lt()], comparators=[stop])
        return [init, ast.While(test=cond, body=st.body + [incr], orelse=[])]


class SplitLoop(LoopTransform):
    """for i in range(0, n, s): body -> the same trips as two loops, range(0, mid, s) then
    range(mid, n, s), mid = n // (2 * s) * s (n a size, so 0 <= mid <= n)"""
    name = "split_loop"

    def rewrite_loop(self, st, start, stop, step):
        if not (isinstance(start, ast.Constant) and start.value == 0):
            return None
        mid = ast.BinOp(left=ast.BinOp(left=copy.deepcopy(stop), op=ast.FloorDiv(),
                                       right=ast.BinOp(left=num(2), op=ast.Mult(),
                                                       right=copy.deepcopy(step))),
                        op=ast.Mult(), right=copy.deepcopy(step))
        first, second = copy.deepcopy(st), copy.deepcopy(st)
        first.iter = ast.Call(func=ast.Name(id="range", ctx=ast.Load()),
                              args=[num(0), mid, copy.deepcopy(step)], keywords=[])
        second.iter = ast.Call(func=ast.Name(id="range", ctx=ast.Load()),
                               args=[copy.deepcopy(mid), stop, step], keywords=[])
        return [first, second]


class VectorToScalarAccumulator(Transform):
    """acc = tl.zeros([B], dtype=tl.float32); for ...: acc += e; ... tl.sum(acc, axis=0) ->
    acc = 0.0; for ...: acc += tl.sum(e, axis=0); ... acc (where acc is read only there)"""
    name = "vector_to_scalar_accumulator"

    @staticmethod
    def zeros_f32(value):
        """tl.zeros([B], dtype=tl.float32): one dimension"""
        return is_tl(value, "zeros") and value.args and \
            isinstance(value.args[0], (ast.List, ast.Tuple)) and len(value.args[0].elts) == 1 and \
            any(k.arg == "dtype" and ast.unparse(k.value) == "tl.float32" for k in value.keywords)

    @staticmethod
    def is_sum_of(node, acc):
        if not (is_tl(node, "sum") and len(node.args) >= 1 and isinstance(node.args[0], ast.Name)
                and node.args[0].id == acc):
            return False
        axes = [k.value for k in node.keywords if k.arg == "axis"] + node.args[1:2]
        return all(isinstance(a, ast.Constant) and a.value in (0, None) for a in axes)

    def reads_only_summed(self, nodes, acc):
        summed = set()
        for n in nodes:
            for m in ast.walk(n):
                if self.is_sum_of(m, acc):
                    summed.add(id(m.args[0]))
        return all(not (isinstance(m, ast.Name) and m.id == acc) or id(m) in summed
                   for n in nodes for m in ast.walk(n))

    def rewrite(self, body):
        for k, st in enumerate(body):
            if not (isinstance(st, ast.Assign) and len(st.targets) == 1 and
                    isinstance(st.targets[0], ast.Name) and self.zeros_f32(st.value)):
                continue
            acc = st.targets[0].id
            loop = next((j for j in range(k + 1, len(body)) if isinstance(body[j], ast.For)), None)
            if loop is None or simple_range(body[loop]) is None:
                continue
            between = body[k + 1:loop]
            updates = [u for u in body[loop].body if isinstance(u, ast.AugAssign) and
                       isinstance(u.op, ast.Add) and isinstance(u.target, ast.Name) and
                       u.target.id == acc]
            rest = [u for u in body[loop].body if u not in updates]
            reads = lambda ns: any(isinstance(m, ast.Name) and m.id == acc
                                   for n in ns for m in ast.walk(n))
            if len(updates) != 1 or reads(between) or reads(rest) or reads([updates[0].value]):
                continue
            if not self.reads_only_summed(body[loop + 1:], acc):
                continue
            self.count += 1
            st.value = num(0.0)
            updates[0].value = tl_call("sum", updates[0].value, axis=num(0))
            for n in body[loop + 1:]:
                for parent in ast.walk(n):
                    for field, value in ast.iter_fields(parent):
                        if isinstance(value, ast.AST) and self.is_sum_of(value, acc):
                            setattr(parent, field, ast.Name(id=acc, ctx=ast.Load()))
                        elif isinstance(value, list):
                            for i, v in enumerate(value):
                                if isinstance(v, ast.AST) and self.is_sum_of(v, acc):
                                    value[i] = ast.Name(id=acc, ctx=ast.Load())
            return

    def kernel(self, node):
        if self.in_kernel:
            self.rewrite(node.body)


class SwapIndependent(Transform):
    """Two adjacent assignments that read neither's target and write no memory: swapped (the
    first such pair of each block)"""
    name = "swap_independent"

    def swap_in(self, body):
        for k in range(len(body) - 1):
            a, b = body[k], body[k + 1]
            if not (isinstance(a, ast.Assign) and isinstance(b, ast.Assign)):
                continue
            ta, tb = names_in(ast.Tuple(elts=a.targets)), names_in(ast.Tuple(elts=b.targets))
            if ta & tb or ta & names_in(b.value) or tb & names_in(a.value):
                continue
            if has_effect(a) or has_effect(b):
                continue
            body[k], body[k + 1] = b, a
            self.count += 1
            return

    def kernel(self, node):
        for n in ast.walk(node):
            for field in ("body", "orelse"):
                if isinstance(getattr(n, field, None), list):
                    self.swap_in(getattr(n, field))


TRANSFORMS = [DivToMulRecip, SubToAddNeg, RsqrtToSqrtDiv, SqrtDivToRsqrt, ExpToExp2,
              OtherZeroToWhere, MaximumToWhere, ForToWhile, SplitLoop, VectorToScalarAccumulator,
              SwapIndependent]


def module_constants(tree):
    """Names a module binds to a number (or tl.constexpr(number)): compile-time in kernels."""
    out = set()
    for st in tree.body:
        targets, value = [], None
        if isinstance(st, ast.Assign):
            targets, value = st.targets, st.value
        elif isinstance(st, ast.AnnAssign) and st.value is not None:
            targets, value = [st.target], st.value
        if isinstance(value, ast.Call) and value.args:
            value = value.args[0]  # tl.constexpr(448.0)
        if isinstance(value, (ast.Constant, ast.UnaryOp, ast.BinOp)):
            out |= {t.id for t in targets if isinstance(t, ast.Name)}
    return out


def main():
    src, out_dir = sys.argv[1], sys.argv[2]
    text = open(src).read()
    os.makedirs(out_dir, exist_ok=True)
    constants = module_constants(ast.parse(text))
    for t in TRANSFORMS:
        tree = ast.parse(text)
        tr = t(constants)
        tree = ast.fix_missing_locations(tr.visit(tree))
        if tr.count:
            with open(os.path.join(out_dir, t.name + ".py"), "w") as f:
                f.write(f"# {t.name}: {tr.count} rewrites of {os.path.basename(src)}\n")
                f.write(ast.unparse(tree) + "\n")


if __name__ == "__main__":
    main()
