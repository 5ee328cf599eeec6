# The convolution stays in torch; the GroupNorm kernel takes one pass for the statistics, summing
# x and x * x (var = E[x^2] - E[x]^2), and a second to normalize: one program per (sample, group).
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def groupnorm_one_pass_kernel(
    x_ptr, gamma_ptr, beta_ptr, out_ptr,
    C, HW, num_groups, eps,
    BLOCK_SIZE: tl.constexpr,
):
    pid = tl.program_id(0)
    n = pid // num_groups
    g = pid % num_groups
    channels_per_group = C // num_groups
    group_size = channels_per_group * HW
    base = n * C * HW + g * group_size

    sum_x = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    sum_x2 = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for start in range(0, group_size, BLOCK_SIZE):
        offsets = start + tl.arange(0, BLOCK_SIZE)
        mask = offsets < group_size
        x = tl.load(x_ptr + base + offsets, mask=mask, other=0.0).to(tl.float32)
        sum_x += x
        sum_x2 += x * x
    mean = tl.sum(sum_x, axis=0) / group_size
    var = tl.sum(sum_x2, axis=0) / group_size - mean * mean
    rstd = 1.0 / tl.sqrt(var + eps)

    for start in range(0, group_size, BLOCK_SIZE):
        offsets = start + tl.arange(0, BLOCK_SIZE)
        mask = offsets < group_size
        c = g * channels_per_group + offsets // HW
        x = tl.load(x_ptr + base + offsets, mask=mask, other=0.0).to(tl.float32)
        gamma = tl.load(gamma_ptr + c, mask=mask, other=1.0)
        beta = tl.load(beta_ptr + c, mask=mask, other=0.0)
        y = (x - mean) * rstd * gamma + beta
        tl.store(out_ptr + base + offsets, y, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, num_groups):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size)
        self.group_norm = nn.GroupNorm(num_groups, out_channels)

    def forward(self, x):
        x = self.conv(x)
        x = x.contiguous()
        N, C, H, W = x.shape
        G = self.group_norm.num_groups
        out = torch.empty_like(x)
        grid = (N * G,)
        groupnorm_one_pass_kernel[grid](
            x, self.group_norm.weight, self.group_norm.bias, out,
            C, H * W, G, self.group_norm.eps,
            BLOCK_SIZE=256,
        )
        return out


batch_size = 64
in_channels = 16
out_channels = 32
height = width = 30
kernel_size = 3
num_groups = 8


def get_inputs():
    return [torch.randn(batch_size, in_channels, height, width)]


def get_init_inputs():
    return [in_channels, out_channels, kernel_size, num_groups]
