import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def group_rms_kernel(X, W, Y, stride_row, N, eps, BLOCK_N: tl.constexpr):
    row = tl.program_id(0)
    group = tl.program_id(1)
    cols = tl.arange(0, BLOCK_N)
    mask = cols < N
    base = row * stride_row + group * N
    # Masked lanes load 1.0 and stay in the sum of squares: wrong wherever the group's width
    # is not a power of two.
    x = tl.load(X + base + cols, mask=mask, other=1.0)
    var = tl.sum(x * x, axis=0) / N
    rstd = 1 / tl.sqrt(var + eps)
    w = tl.load(W + group * N + cols, mask=mask)
    tl.store(Y + base + cols, x * rstd * w, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, hidden, ngroups, eps=1e-5):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(hidden))
        self.ngroups = ngroups
        self.eps = eps

    def forward(self, x):
        M, N = x.shape
        group_size = N // self.ngroups
        y = torch.empty_like(x)
        grid = (M, self.ngroups)
        group_rms_kernel[grid](x, self.weight, y, x.stride(0), group_size, self.eps,
                               BLOCK_N=triton.next_power_of_2(group_size))
        return y


batch = 16
hidden = 256
ngroups = 4


def get_inputs():
    return [torch.randn(batch, hidden)]


def get_init_inputs():
    return [hidden, ngroups]
