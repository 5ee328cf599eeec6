# GELU fused into a GroupNorm, one program per (sample, group), written as LLM kernels often are:
# one flat loop over the group (BLOCK 512), GELU inline with x / sqrt(2) (torch multiplies by
# 1/sqrt(2)), scalar tl.sum accumulators, var = E[g^2] - E[g]^2 clamped at 0, tl.rsqrt, and the
# affine's channel per lane (g * cpg + idx // HW). sqrt(2) cut to 1.4142: 1.4e-5 off, far past one fp32
# ulp, so keq does not take it as sqrt(2) and the outputs differ.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def gelu_groupnorm_kernel(x_ptr, w_ptr, b_ptr, y_ptr, C, HW, G, eps, BLOCK: tl.constexpr):
    pid = tl.program_id(0).to(tl.int64)
    n = pid // G
    g = pid % G
    cpg = C // G
    group_size = cpg * HW
    base = n * C * HW + g * group_size
    total = 0.0
    total_sq = 0.0
    for start in range(0, group_size, BLOCK):
        idx = start + tl.arange(0, BLOCK)
        m = idx < group_size
        v = tl.load(x_ptr + base + idx, mask=m, other=0.0)
        v = v * 0.5 * (1.0 + tl.erf(v / 1.4142))
        v = tl.where(m, v, 0.0)
        total += tl.sum(v, axis=0)
        total_sq += tl.sum(v * v, axis=0)
    mean = total / group_size
    var = total_sq / group_size - mean * mean
    var = tl.maximum(var, 0.0)
    rstd = tl.rsqrt(var + eps)
    for start in range(0, group_size, BLOCK):
        idx = start + tl.arange(0, BLOCK)
        m = idx < group_size
        v = tl.load(x_ptr + base + idx, mask=m, other=0.0)
        v = v * 0.5 * (1.0 + tl.erf(v / 1.4142))
        c = g * cpg + idx // HW
        w = tl.load(w_ptr + c, mask=m, other=1.0)
        b = tl.load(b_ptr + c, mask=m, other=0.0)
        out = (v - mean) * rstd * w + b
        tl.store(y_ptr + base + idx, out, mask=m)


class ModelNew(nn.Module):
    def __init__(self, channels, num_groups):
        super().__init__()
        self.gn = nn.GroupNorm(num_groups, channels)

    def forward(self, x):
        x = x.contiguous()
        N, C, H, W = x.shape
        G = self.gn.num_groups
        y = torch.empty_like(x)
        gelu_groupnorm_kernel[(N * G,)](x, self.gn.weight, self.gn.bias, y, C, H * W, G, self.gn.eps, BLOCK=512)
        return y


batch_size = 8
channels = 64
num_groups = 8
height = width = 32


def get_inputs():
    return [torch.randn(batch_size, channels, height, width)]


def get_init_inputs():
    return [channels, num_groups]
