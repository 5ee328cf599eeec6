import torch
import torch.nn as nn
import triton
import triton.language as tl

@triton.jit
def welford_combine(mean_a, m2_a, w_a, mean_b, m2_b, w_b):
    w = w_a + w_b
    delta = mean_b - mean_a
    frac = tl.where(w == 0.0, 0.0, w_b / w)
    return mean_a + delta * frac, m2_a + m2_b + delta * delta * w_a * frac, w

@triton.jit
def ln_kernel(x_ptr, y_ptr, N, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < N
    x = tl.load(x_ptr + row * N + offs, mask=mask, other=0.0)
    w = mask.to(tl.float32)
    m2 = tl.zeros((BLOCK,), dtype=tl.float32)
    mean, m2, cnt = tl.reduce((x, m2, w), 0, welford_combine)
    var = m2 / cnt
    rstd = 1.0 / tl.sqrt(var + eps)
    tl.store(y_ptr + row * N + offs, (x - mean) * rstd, mask=mask)

class ModelNew(nn.Module):
    def __init__(self, normalized_shape):
        super().__init__()
        self.eps = 1e-5
    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        B, N = x.shape
        ln_kernel[(B,)](x, y, N, self.eps, BLOCK=triton.next_power_of_2(N))
        return y
