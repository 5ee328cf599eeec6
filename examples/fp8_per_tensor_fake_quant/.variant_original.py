import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def amax_kernel(x_ptr, amax_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    tl.atomic_max(amax_ptr, tl.max(tl.abs(x), axis=0))


@triton.jit
def fake_quant_kernel(x_ptr, y_ptr, amax_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    scale = tl.maximum(tl.load(amax_ptr), 1e-12) / 448.0
    q = (x * (1.0 / scale)).to(tl.float8e4nv)  # saturating: no clamp needed
    tl.store(y_ptr + offs, q.to(tl.float32) * scale, mask=mask)


class ModelNew(nn.Module):
    def forward(self, x):
        x = x.contiguous()
        n = x.numel()
        amax = torch.zeros(1, device=x.device, dtype=torch.float32)
        y = torch.empty_like(x)
        BLOCK = 1024
        grid = (triton.cdiv(n, BLOCK),)
        amax_kernel[grid](x, amax, n, BLOCK=BLOCK)
        fake_quant_kernel[grid](x, y, amax, n, BLOCK=BLOCK)
        return y
