# Bug: clamps at 65000, not at fp16's largest finite value 65504.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def scale_cast_kernel(x_ptr, y_ptr, n, scale, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.minimum(tl.maximum(x * scale, -65000.0), 65000.0)
    tl.store(y_ptr + offs, y.to(tl.float16), mask=mask)


class ModelNew(nn.Module):
    def __init__(self, scale: float):
        super().__init__()
        self.scale = scale

    def forward(self, x):
        y = torch.empty(x.shape, dtype=torch.float16, device=x.device)
        n = x.numel()
        scale_cast_kernel[(triton.cdiv(n, 4),)](x, y, n, self.scale, BLOCK=4)
        return y
