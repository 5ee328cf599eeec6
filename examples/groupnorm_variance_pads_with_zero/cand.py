# A GroupNorm over blocks of a group's elements with two bugs that a group of 8 x 65536 elements
# (a multiple of BLOCK) hides: the variance pass loads masked lanes as 0 and so adds
# (0 - mean)^2 for each, and the affine pass loads gamma and beta unmasked, past the channels
# on the last group's masked lanes (an out-of-bounds read whose values are never stored).
# keq reports the reads and a counterexample over outputs whose values are all defined.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def group_norm_kernel(x_ptr, y_ptr, gamma_ptr, beta_ptr, n_groups, n_channels, spatial, eps,
                      BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    group = pid % n_groups
    sample = pid // n_groups
    per_group = n_channels // n_groups
    size = per_group * spatial
    base = sample * n_channels * spatial + group * size
    total = 0.0
    for start in range(0, size, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        total += tl.sum(tl.load(x_ptr + base + offs, mask=offs < size, other=0.0), axis=0)
    mean = total / size
    squares = 0.0
    for start in range(0, size, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        centered = tl.load(x_ptr + base + offs, mask=offs < size, other=0.0) - mean
        squares += tl.sum(centered * centered, axis=0)
    rstd = 1.0 / tl.sqrt(squares / size + eps)
    for start in range(0, size, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < size
        x = tl.load(x_ptr + base + offs, mask=mask, other=0.0)
        channel = group * per_group + offs // spatial
        gamma = tl.load(gamma_ptr + channel)
        beta = tl.load(beta_ptr + channel)
        tl.store(y_ptr + base + offs, (x - mean) * rstd * gamma + beta, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, num_features: int, num_groups: int):
        super(ModelNew, self).__init__()
        self.num_groups = num_groups
        self.weight = nn.Parameter(torch.ones(num_features))
        self.bias = nn.Parameter(torch.zeros(num_features))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        n, c, h, w = x.shape
        y = torch.empty_like(x)
        group_norm_kernel[(n * self.num_groups,)](x, y, self.weight, self.bias, self.num_groups, c,
                                                  h * w, 1e-5, BLOCK=64)
        return y
