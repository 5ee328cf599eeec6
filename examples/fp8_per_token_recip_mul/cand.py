import torch
import torch.nn as nn
import triton
import triton.language as tl

FP8_MAX: tl.constexpr = tl.constexpr(448.0)


@triton.jit
def quant_kernel(x_ptr, q_ptr, s_ptr, N, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    offs = tl.arange(0, BLOCK)
    mask = offs < N
    x = tl.load(x_ptr + row * N + offs, mask=mask, other=0.0).to(tl.float32)
    amax = tl.maximum(tl.max(tl.abs(x), axis=0), eps)
    inv_scale = FP8_MAX / amax  # one division per row, then multiply
    q = tl.clamp(x * inv_scale, -FP8_MAX, FP8_MAX).to(q_ptr.dtype.element_ty)
    tl.store(q_ptr + row * N + offs, q, mask=mask)
    tl.store(s_ptr + row, amax / FP8_MAX)


class ModelNew(nn.Module):
    def forward(self, x):
        M, N = x.shape
        q = torch.empty((M, N), dtype=torch.float8_e4m3fn, device=x.device)
        s = torch.empty((M, 1), dtype=torch.float32, device=x.device)
        quant_kernel[(M,)](x, q, s, N, 1e-12, BLOCK=triton.next_power_of_2(N))
        return q, s
