# Not a bug: dividing each square by C before the sum.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def rmsnorm_kernel(x_ptr, y_ptr, C, S, eps, BLOCK_C: tl.constexpr):
    # One program per (batch, spatial position); the features sit S elements apart.
    pid = tl.program_id(0)
    b = pid // S
    s = pid % S
    c = tl.arange(0, BLOCK_C)
    mask = c < C
    ptrs = x_ptr + b * C * S + c * S + s
    x = tl.load(ptrs, mask=mask, other=0.0)
    ms = tl.sum(x * x / C, axis=0)
    y = x * tl.rsqrt(ms + eps)
    tl.store(y_ptr + b * C * S + c * S + s, y, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, num_features: int, eps: float = 1e-5):
        super().__init__()
        self.num_features = num_features
        self.eps = eps

    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        B, C, H, W = x.shape
        rmsnorm_kernel[(B * H * W,)](x, y, C, H * W, self.eps, BLOCK_C=triton.next_power_of_2(C))
        return y
