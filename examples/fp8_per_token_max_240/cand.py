import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def quant_kernel(x_ptr, q_ptr, s_ptr, N, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < N
    x = tl.load(x_ptr + row * N + offs, mask=mask, other=0.0)
    amax = tl.maximum(tl.max(tl.abs(x)), 1e-12)
    scale = amax / 240.0
    # no clamp: the cast to e4m3 saturates on Hopper
    q = (x / scale).to(tl.float8e4nv)
    tl.store(q_ptr + row * N + offs, q, mask=mask)
    tl.store(s_ptr + row, scale)


class ModelNew(nn.Module):
    def forward(self, x):
        M, N = x.shape
        q = torch.empty((M, N), dtype=torch.float8_e4m3fn, device=x.device)
        s = torch.empty((M, 1), dtype=torch.float32, device=x.device)
        quant_kernel[(M,)](x, q, s, N, BLOCK=triton.next_power_of_2(N))
        return q, s
