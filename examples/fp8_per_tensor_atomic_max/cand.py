# Two-stage per-tensor quantization (the form inference engines use): each program folds its
# block's max(|x|, eps) / 448 into one scale with tl.atomic_max, then a second kernel divides.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _per_tensor_quant_stage1(x_ptr, s_ptr, n_elements, eps, fp8_max, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    amax = tl.maximum(tl.max(tl.abs(x)), eps)
    tl.atomic_max(s_ptr, amax / fp8_max)


@triton.jit
def _per_tensor_quant_stage2(x_ptr, s_ptr, q_ptr, n_elements, fp8_min, fp8_max, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    s = tl.load(s_ptr)
    q = tl.clamp(x / s, fp8_min, fp8_max)
    tl.store(q_ptr + offs, q.to(q_ptr.dtype.element_ty), mask=mask)


def per_tensor_quant_fp8(x, eps=1e-12):
    finfo = torch.finfo(torch.float8_e4m3fn)
    q = torch.empty_like(x, dtype=torch.float8_e4m3fn)
    s = torch.zeros((1,), dtype=torch.float32, device=x.device)
    n = x.numel()
    BLOCK = 128
    grid = (triton.cdiv(n, BLOCK),)
    _per_tensor_quant_stage1[grid](x, s, n, eps, finfo.max, BLOCK=BLOCK)
    _per_tensor_quant_stage2[grid](x, s, q, n, finfo.min, finfo.max, BLOCK=BLOCK)
    return q, s


class ModelNew(nn.Module):
    def forward(self, x):
        return per_tensor_quant_fp8(x.contiguous())
