import torch
import torch.nn as nn
import triton
import triton.language as tl


# `and`, `or` and `not` on boolean blocks, and the builtins min/max with a block among their
# arguments: Triton's code generator makes them elementwise (logical_and, tl.minimum, ...), and
# compiles this kernel for sm_90.
@triton.jit
def bool_ops(x_ptr, both_ptr, either_ptr, neither_ptr, lo_ptr, hi_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(both_ptr + offs, tl.where((x > 0) and (x < 2), 1.0, 0.0))
    tl.store(either_ptr + offs, tl.where((x < 0) or (x > 2), 1.0, 0.0))
    tl.store(neither_ptr + offs, tl.where(not (x > 0), 1.0, 0.0))
    tl.store(lo_ptr + offs, min(x, 1.0, x * 2))
    tl.store(hi_ptr + offs, max(x, -1.0))


class Model(nn.Module):
    def forward(self, x):
        outs = [torch.empty_like(x) for _ in range(5)]
        bool_ops[(1,)](x, *outs, BLOCK=4)
        return tuple(outs)


def get_inputs():
    return [torch.randn(4)]


def get_init_inputs():
    return []
