# Bug: eps added after the rsqrt.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def layernorm_kernel(x_ptr, w_ptr, b_ptr, y_ptr, N, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < N
    x = tl.load(x_ptr + row * N + cols, mask=mask, other=0.0)
    mean = tl.sum(x, axis=0) / N
    d = tl.where(mask, x - mean, 0.0)
    var = tl.sum(d * d, axis=0) / N
    w = tl.load(w_ptr + cols, mask=mask, other=1.0)
    b = tl.load(b_ptr + cols, mask=mask, other=0.0)
    y = d * (tl.rsqrt(var) + eps) * w + b
    tl.store(y_ptr + row * N + cols, y, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, normalized_shape: tuple):
        super().__init__()
        self.ln = nn.LayerNorm(normalized_shape=normalized_shape)

    def forward(self, x):
        x = x.contiguous()
        N = x.shape[-1]
        rows = x.numel() // N
        y = torch.empty_like(x)
        layernorm_kernel[(rows,)](x, self.ln.weight, self.ln.bias, y, N, self.ln.eps,
                                  BLOCK=triton.next_power_of_2(N))
        return y
