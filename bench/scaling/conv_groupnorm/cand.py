# The convolution stays in torch; GroupNorm is one program per (sample, group), two passes over
# the group's channels x pixels in blocks, then the per-channel affine.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def group_norm_kernel(x_ptr, w_ptr, b_ptr, y_ptr, C, HW, G, eps, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    n = pid // G
    g = pid % G
    cpg = C // G
    size = cpg * HW
    base = n * C * HW + g * size
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for start in range(0, size, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        acc += tl.load(x_ptr + base + offs, mask=offs < size, other=0.0)
    mean = tl.sum(acc, axis=0) / size
    acc2 = tl.zeros((BLOCK,), dtype=tl.float32)
    for start in range(0, size, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + base + offs, mask=offs < size, other=0.0)
        d = tl.where(offs < size, x - mean, 0.0)
        acc2 += d * d
    rstd = 1.0 / tl.sqrt(tl.sum(acc2, axis=0) / size + eps)
    for start in range(0, size, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < size
        c = g * cpg + offs // HW
        x = tl.load(x_ptr + base + offs, mask=mask, other=0.0)
        w = tl.load(w_ptr + c, mask=mask, other=0.0)
        b = tl.load(b_ptr + c, mask=mask, other=0.0)
        tl.store(y_ptr + base + offs, (x - mean) * rstd * w + b, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, num_groups):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size)
        self.gn = nn.GroupNorm(num_groups, out_channels)

    def forward(self, x):
        x = self.conv(x)
        n, c, h, w = x.shape
        y = torch.empty_like(x)
        g = self.gn.num_groups
        group_norm_kernel[(n * g,)](x, self.gn.weight, self.gn.bias, y, c, h * w, g, self.gn.eps,
                                    BLOCK=128)
        return y
