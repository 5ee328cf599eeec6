# Bug: BLOCK_C fixed at 2: features past the second are never loaded or stored.
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
    ms = tl.sum(x * x, axis=0) / C
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
        rmsnorm_kernel[(B * H * W,)](x, y, C, H * W, self.eps, BLOCK_C=2)
        return y
