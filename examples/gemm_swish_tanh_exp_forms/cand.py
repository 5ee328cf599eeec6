import torch
import torch.nn as nn
import torch.nn.functional as F
import triton
import triton.language as tl


# The activations written out through exp, as generated kernels often do: swish as
# x / (1 + e^-x) and tanh as (e^2y - 1) / (e^2y + 1). Equal to the reference over the reals;
# at a tiny y the second form cancels, which must not look like a bug.
@triton.jit
def swish_tanh_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    s = x / (1.0 + tl.exp(-x))
    y = s * 0.5
    y = tl.minimum(tl.maximum(y, -1.0), 1.0)
    e = tl.exp(2.0 * y)
    t = (e - 1.0) / (e + 1.0)
    t = tl.minimum(tl.maximum(t, -1.0), 1.0)
    tl.store(out_ptr + offs, t, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.gemm = nn.Linear(in_features, out_features)

    def forward(self, x):
        h = F.linear(x, self.gemm.weight, self.gemm.bias).contiguous()
        out = torch.empty_like(h)
        n = h.numel()
        BLOCK = 16
        swish_tanh_kernel[(triton.cdiv(n, BLOCK),)](h, out, n, BLOCK=BLOCK)
        return out
