import functools

import torch
import torch.nn as nn
import triton
import triton.language as tl
from triton.runtime.autotuner import Autotuner


class NamedAutotuner(Autotuner):
    """An autotuner that remembers its kernel's name and counts its launches, in the way
    libraries extend Triton's (fla's CachedAutotuner)."""

    def __init__(self, fn, arg_names, configs, key, reset_to_zero, restore_value, **kwargs):
        super().__init__(fn, arg_names, configs, key, reset_to_zero, restore_value, **kwargs)
        self.kernel_name = fn.fn.__name__ if hasattr(fn, "fn") else fn.__name__
        self.launches = 0

    def run(self, *args, **kwargs):
        self.launches += 1
        return super().run(*args, **kwargs)


def named_autotune(configs, key):
    def decorator(fn):
        return NamedAutotuner(fn, fn.arg_names, configs, key, None, None)

    return decorator


def contiguous_inputs(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        return fn(*[a.contiguous() if isinstance(a, torch.Tensor) else a for a in args], **kwargs)

    return wrapper


@triton.heuristics({"BD": lambda args: triton.next_power_of_2(args["D"])})
@named_autotune(configs=[triton.Config({"BR": br}, num_warps=w) for br in [1, 2] for w in [1, 2]],
                key=["D"])
@triton.jit
def rms_scale_kernel(x, y, eps, T, D: tl.constexpr, BD: tl.constexpr, BR: tl.constexpr):
    rows = tl.program_id(0) * BR + tl.arange(0, BR)
    cols = tl.arange(0, BD)
    mask = (rows[:, None] < T) & (cols[None, :] < D)
    b_x = tl.load(x + rows[:, None] * D + cols[None, :], mask=mask, other=0.0)
    rstd = 1 / tl.sqrt(tl.sum(b_x * b_x, 1) / D + eps)
    tl.store(y + rows[:, None] * D + cols[None, :], 2.0 * b_x * rstd[:, None], mask=mask)


@contiguous_inputs
def rms_scale(x, eps=1e-6):
    D = x.shape[-1]
    x2 = x.view(-1, D)
    y = torch.empty_like(x2)
    T = x2.shape[0]
    grid = lambda meta: (triton.cdiv(T, meta["BR"]),)
    rms_scale_kernel[grid](x2, y, eps, T, D=D)
    return y.view(x.shape)


class ModelNew(nn.Module):
    def forward(self, x):
        return rms_scale(x)
