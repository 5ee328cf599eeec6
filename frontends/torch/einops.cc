// einops (rearrange, repeat, reduce, einsum and the torch layers) as keq models it: Python text
// read like any module, written over the tensor methods keq already models (reshape, permute,
// expand, sum/mean/amax/amin/prod, torch.einsum). KernelBench's references (Mamba2) and real
// models' host code call einops; the library's own code dispatches on backends and caches
// parsed patterns, none of which changes a value. Patterns are checked as einops checks them,
// and a bad one raises EinopsError.
#include "frontends/torch/torch_impl.h"

namespace keq::torch::impl {

namespace {

constexpr const char* kEinops = R"PY(
import torch


class EinopsError(RuntimeError):
    pass


def _tokens(side):
    out = []
    word = ""
    for ch in side:
        if ch == " " or ch == "(" or ch == ")":
            if word:
                out.append(word)
            word = ""
            if ch != " ":
                out.append(ch)
        else:
            word += ch
    if word:
        out.append(word)
    return out


def _groups(side, pattern):
    # Each dimension of one side: a list of its axes ("..." the ellipsis, "1" or another number
    # an anonymous axis, a name a named one); "()" is an empty group.
    groups = []
    current = None
    for tok in _tokens(side):
        if tok == "(":
            if current is not None:
                raise EinopsError("Axis composition is one-level (brackets inside brackets not allowed) in " + repr(pattern))
            current = []
        elif tok == ")":
            if current is None:
                raise EinopsError("Brackets are not balanced in " + repr(pattern))
            groups.append(current)
            current = None
        else:
            if tok != "..." and not tok.isdigit() and not tok.isidentifier():
                raise EinopsError("Invalid axis identifier: " + tok + " in " + repr(pattern))
            if current is None:
                groups.append([tok])
            else:
                current.append(tok)
    if current is not None:
        raise EinopsError("Brackets are not balanced in " + repr(pattern))
    return groups


def _expand_ellipsis(groups, n):
    out = []
    for g in groups:
        if g == ["..."]:
            for k in range(n):
                out.append(["...%d" % k])
        elif "..." in g:
            inner = []
            for a in g:
                if a == "...":
                    inner.extend(["...%d" % k for k in range(n)])
                else:
                    inner.append(a)
            out.append(inner)
        else:
            out.append(g)
    return out


def _ellipses(groups):
    return sum([g.count("...") for g in groups])


def _prod(values):
    r = 1
    for v in values:
        r *= v
    return r


def _plan(shape, pattern, axes_lengths, operation):
    if "->" not in pattern:
        raise EinopsError("Pattern must contain '->': " + repr(pattern))
    left_text, right_text = pattern.split("->")
    left, right = _groups(left_text, pattern), _groups(right_text, pattern)
    if _ellipses(left) > 1 or _ellipses(right) > 1:
        raise EinopsError("Only one ellipsis on each side: " + repr(pattern))
    if _ellipses(right) and not _ellipses(left):
        raise EinopsError("Ellipsis found in right side, but not left side of a pattern " + repr(pattern))
    n_ellipsis = 0
    if _ellipses(left):
        n_ellipsis = len(shape) - (len(left) - 1)
        if n_ellipsis < 0:
            raise EinopsError("Wrong shape: expected >=%d dims. Received %d-dim tensor." % (len(left) - 1, len(shape)))
    elif len(shape) != len(left):
        raise EinopsError("Wrong shape: expected %d dims. Received %d-dim tensor." % (len(left), len(shape)))
    left, right = _expand_ellipsis(left, n_ellipsis), _expand_ellipsis(right, n_ellipsis)
    sizes = {}
    for name, value in axes_lengths.items():
        sizes[name] = int(value)
    # The left side's axes, each with its size: a named axis once, anonymous ones each alone.
    axes = []
    for dim, g in zip(shape, left):
        unknown = [a for a in g if not a.isdigit() and a not in sizes]
        known = _prod([int(a) if a.isdigit() else sizes[a] for a in g if a not in unknown])
        if len(unknown) > 1:
            raise EinopsError("Could not infer sizes for " + repr(unknown))
        if unknown:
            if known == 0 or dim % known != 0:
                raise EinopsError("Shape mismatch, can't divide axis of length %d in chunks of %d" % (dim, known))
            sizes[unknown[0]] = dim // known
        elif known != dim:
            raise EinopsError("Shape mismatch, %d != %d" % (dim, known))
        for k, a in enumerate(g):
            if a.isdigit():
                if a != "1":
                    axes.append(("#%d.%d" % (len(axes), k), int(a)))
            else:
                if a in [n for n, _ in axes]:
                    raise EinopsError("Indexing expression contains duplicate dimension " + repr(a))
                axes.append((a, sizes[a]))
    left_names = [n for n, _ in axes]
    right_names = [a for g in right for a in g if not a.isdigit()]
    for a in right_names:
        if right_names.count(a) > 1:
            raise EinopsError("Indexing expression contains duplicate dimension " + repr(a))
    if operation == "rearrange":
        extra = [a for a in right_names if a not in left_names] + [a for a in left_names if a not in right_names]
        if extra or [g for g in right for a in g if a.isdigit() and a != "1"]:
            raise EinopsError("Identifiers only on one side of expression (should be on both): " + repr(sorted([a for k, a in enumerate(extra) if a not in extra[:k]])))
    elif operation == "reduce":
        extra = [a for a in right_names if a not in left_names]
        if extra or [g for g in right for a in g if a.isdigit() and a != "1"]:
            raise EinopsError("Unexpected identifiers on the right side of reduce: " + repr(extra))
    else:
        missing = [a for a in left_names if a not in right_names]
        if missing:
            raise EinopsError("Unexpected identifiers on the left side of repeat: " + repr(missing))
        for a in right_names:
            if a not in left_names and a not in sizes:
                raise EinopsError("Specify sizes for new axes in repeat: " + repr(a))
    return axes, right, sizes


def _apply(tensor, pattern, operation, reduction, axes_lengths):
    axes, right, sizes = _plan(list(tensor.shape), pattern, axes_lengths, operation)
    names = [n for n, _ in axes]
    x = tensor.reshape([s for _, s in axes])
    right_names = [a for g in right for a in g if not a.isdigit()]
    reduced = [k for k, n in enumerate(names) if n not in right_names]
    if reduced:
        dims = tuple(reduced)
        if callable(reduction):
            x = reduction(x, dims)
        elif reduction == "sum":
            x = x.sum(dim=dims)
        elif reduction == "mean":
            x = x.mean(dim=dims)
        elif reduction == "max":
            x = x.amax(dim=dims)
        elif reduction == "min":
            x = x.amin(dim=dims)
        elif reduction == "prod":
            for d in reversed(reduced):
                x = x.prod(dim=d)
        else:
            raise EinopsError("Unknown reduction " + repr(reduction))
        names = [n for n in names if n in right_names]
    order = [names.index(a) for a in right_names if a in names]
    x = x.permute(order)
    # Axes only the right side has (repeat): a new dimension of their length.
    kept, shape, target, k = list(x.shape), [], [], 0
    for a in [a for g in right for a in g if a != "1"]:
        if a in names:
            shape.append(kept[k])
            target.append(kept[k])
            k += 1
        else:
            shape.append(1)
            target.append(int(a) if a.isdigit() else sizes[a])
    if shape != target:
        x = x.reshape(shape).expand(target)
    final = []
    flat = list(x.shape)
    k = 0
    for g in right:
        n = len([a for a in g if a != "1"])
        final.append(_prod(flat[k:k + n]))
        k += n
    return x.reshape(final)


def _as_tensor(tensor):
    if isinstance(tensor, (list, tuple)):
        return torch.stack(list(tensor))
    return tensor


def rearrange(tensor, pattern, **axes_lengths):
    return _apply(_as_tensor(tensor), pattern, "rearrange", None, axes_lengths)


def repeat(tensor, pattern, **axes_lengths):
    return _apply(_as_tensor(tensor), pattern, "repeat", None, axes_lengths)


def reduce(tensor, pattern, reduction, **axes_lengths):
    return _apply(_as_tensor(tensor), pattern, "reduce", reduction, axes_lengths)


def einsum(*tensors_and_pattern):
    if len(tensors_and_pattern) < 2:
        raise ValueError("einsum() must be called with at least one tensor and a pattern")
    pattern = tensors_and_pattern[-1]
    tensors = tensors_and_pattern[:-1]
    letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
    names = {}
    out = ""
    for part in _tokens(pattern.replace(",", " , ").replace("->", " -> ")):
        if part == "," or part == "->":
            out += part
        elif part == "...":
            out += "..."
        else:
            if part not in names:
                names[part] = letters[len(names)]
            out += names[part]
    return torch.einsum(out, *tensors)


def parse_shape(x, pattern):
    names = [a for a in _tokens(pattern) if a != "(" and a != ")"]
    if len(names) != len(x.shape):
        raise RuntimeError("Can't parse shape with different number of dimensions: " + pattern)
    return {a: d for a, d in zip(names, x.shape) if a != "_"}
)PY";

// einops.layers.torch: the three operations as nn.Modules (a ViT's patch embedding).
constexpr const char* kEinopsLayers = R"PY(
import torch
import einops


class Rearrange(torch.nn.Module):
    def __init__(self, pattern, **axes_lengths):
        super().__init__()
        self.pattern = pattern
        self.axes_lengths = axes_lengths

    def forward(self, x):
        return einops.rearrange(x, self.pattern, **self.axes_lengths)


class Repeat(torch.nn.Module):
    def __init__(self, pattern, **axes_lengths):
        super().__init__()
        self.pattern = pattern
        self.axes_lengths = axes_lengths

    def forward(self, x):
        return einops.repeat(x, self.pattern, **self.axes_lengths)


class Reduce(torch.nn.Module):
    def __init__(self, pattern, reduction, **axes_lengths):
        super().__init__()
        self.pattern = pattern
        self.reduction = reduction
        self.axes_lengths = axes_lengths

    def forward(self, x):
        return einops.reduce(x, self.pattern, self.reduction, **self.axes_lengths)
)PY";

}  // namespace

void install_einops(python::Interp& in) {
  in.register_model_source("einops", kEinops);
  in.register_model_source("einops.layers", "");
  in.register_model_source("einops.layers.torch", kEinopsLayers);
  // What einops 0.8 exports: a name keq's model lacks (pack, unpack, asnumpy) is UNSUPPORTED.
  in.set_real_names("einops", {"EinopsError", "rearrange", "reduce", "repeat", "einsum", "pack",
                               "unpack", "parse_shape", "asnumpy", "layers"});
}

}  // namespace keq::torch::impl
