# KernelBook's candidate class: the reference's name plus "New"; forward takes input_0.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def pad_mask_scale_kernel(x_ptr, out_ptr, n, pad_idx, scale, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    ok = offs < n
    x = tl.load(x_ptr + offs, mask=ok, other=0.0)
    keep = tl.where(x != pad_idx, scale, 0.0)
    tl.store(out_ptr + offs, keep + tl.maximum(x, 0.0), mask=ok)


class PadMaskScaleNew(nn.Module):
    def __init__(self, pad_idx=0, scale=2.0):
        super().__init__()
        self.pad_idx = pad_idx
        self.scale = scale

    def forward(self, input_0):
        x = input_0.contiguous()
        out = torch.empty_like(x)
        n = x.numel()
        pad_mask_scale_kernel[(triton.cdiv(n, 64),)](x, out, n, self.pad_idx, self.scale, BLOCK=64)
        return out
