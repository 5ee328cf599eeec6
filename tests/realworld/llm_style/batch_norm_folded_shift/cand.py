import torch
import torch.nn as nn
import triton
import triton.language as tl


# Training-mode BatchNorm2d in two kernels: per-channel sums (a scalar accumulator per lane over
# every batch and position), then the normalization folded into a scale and a shift.
@triton.jit
def channel_sums_kernel(x_ptr, sum_ptr, sumsq_ptr, N, C, HW, BLOCK_C: tl.constexpr):
    c = tl.program_id(0) * BLOCK_C + tl.arange(0, BLOCK_C)
    cmask = c < C
    s = tl.zeros([BLOCK_C], dtype=tl.float32)
    sq = tl.zeros([BLOCK_C], dtype=tl.float32)
    for n in range(N):
        for p in range(HW):
            v = tl.load(x_ptr + n * C * HW + c * HW + p, mask=cmask, other=0.0)
            s += v
            sq += v * v
    tl.store(sum_ptr + c, s, mask=cmask)
    tl.store(sumsq_ptr + c, sq, mask=cmask)


@triton.jit
def scale_shift_kernel(x_ptr, y_ptr, scale_ptr, shift_ptr, C, HW, BLOCK: tl.constexpr):
    row = tl.program_id(0)  # one (n, c) plane per program
    c = row % C
    scale = tl.load(scale_ptr + c)
    shift = tl.load(shift_ptr + c)
    for start in range(0, HW, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        m = offs < HW
        v = tl.load(x_ptr + row * HW + offs, mask=m, other=0.0)
        tl.store(y_ptr + row * HW + offs, v * scale + shift, mask=m)


class ModelNew(nn.Module):
    def __init__(self, num_features):
        super().__init__()
        self.bn = nn.BatchNorm2d(num_features)

    def forward(self, x):
        x = x.contiguous()
        N, C, H, W = x.shape
        sums = torch.empty(C, device=x.device, dtype=torch.float32)
        sumsq = torch.empty(C, device=x.device, dtype=torch.float32)
        channel_sums_kernel[(triton.cdiv(C, 32),)](x, sums, sumsq, N, C, H * W, BLOCK_C=32)
        count = N * H * W
        mean = sums / count
        var = sumsq / count - mean * mean  # biased, as training-mode BatchNorm normalizes
        inv_std = torch.rsqrt(var + self.bn.eps)
        scale = self.bn.weight * inv_std
        shift = self.bn.bias - mean * scale
        y = torch.empty_like(x)
        scale_shift_kernel[(N * C,)](x, y, scale, shift, C, H * W, BLOCK=128)
        return y
