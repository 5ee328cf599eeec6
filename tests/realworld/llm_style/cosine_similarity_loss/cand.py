import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def cos_rows_kernel(a_ptr, b_ptr, out_ptr, D, stride, eps, BLOCK_D: tl.constexpr):
    row = tl.program_id(0)
    dot = tl.zeros((BLOCK_D,), dtype=tl.float32)
    na = tl.zeros((BLOCK_D,), dtype=tl.float32)
    nb = tl.zeros((BLOCK_D,), dtype=tl.float32)
    for start in range(0, D, BLOCK_D):
        cols = start + tl.arange(0, BLOCK_D)
        m = cols < D
        a = tl.load(a_ptr + row * stride + cols, mask=m, other=0.0)
        b = tl.load(b_ptr + row * stride + cols, mask=m, other=0.0)
        dot += a * b
        na += a * a
        nb += b * b
    d = tl.sum(dot, axis=0)
    denom = tl.maximum(tl.sqrt(tl.sum(na, axis=0)) * tl.sqrt(tl.sum(nb, axis=0)), eps)
    tl.store(out_ptr + row, 1.0 - d / denom)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, predictions, targets):
        a = predictions.contiguous()
        b = targets.contiguous()
        B, D = a.shape
        per_row = torch.empty(B, device=a.device, dtype=torch.float32)
        cos_rows_kernel[(B,)](a, b, per_row, D, a.stride(0), 1e-8, BLOCK_D=512)
        return per_row.mean()
