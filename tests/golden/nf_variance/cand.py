# LayerNorm whose variance is E[x^2] - E[x]^2, clamped at 0 (how LLM-written kernels write it),
# against torch's two-pass layer_norm: proved past 64 columns by the normal forms' W atoms.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def ln_kernel(x_ptr, y_ptr, N, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < N
    x = tl.load(x_ptr + row * N + offs, mask=mask, other=0.0)
    mean = tl.sum(x, axis=0) / N
    var = tl.sum(x * x, axis=0) / N - mean * mean
    var = tl.maximum(var, 0.0)
    rstd = 1.0 / tl.sqrt(var + eps)
    tl.store(y_ptr + row * N + offs, (x - mean) * rstd, mask=mask)


class ModelNew(nn.Module):
    def forward(self, x):
        rows, n = x.shape
        y = torch.empty_like(x)
        ln_kernel[(rows,)](x, y, n, 1e-5, BLOCK=triton.next_power_of_2(n))
        return y
