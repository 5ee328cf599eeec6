import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def scale_residual_kernel(x_ptr, out_ptr, n, factor, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    # x * s + x == x * (1 + s)
    tl.store(out_ptr + offs, x * (1.0 + factor), mask=mask)


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features, scaling_factor):
        super(ModelNew, self).__init__()
        self.matmul = nn.Linear(in_features, out_features)
        self.scaling_factor = scaling_factor

    def forward(self, x):
        x = self.matmul(x)
        out = torch.empty_like(x)
        n = x.numel()
        scale_residual_kernel[(triton.cdiv(n, 512),)](x, out, n, self.scaling_factor, BLOCK=512)
        return out
