import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _sigmoid_fwd(X, Y, N, BLOCK: tl.constexpr):
    pid = tl.program_id(0).to(tl.int64)
    offsets = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < N
    x = tl.load(X + offsets, mask=mask, other=0.0).to(tl.float32)
    y = 1.0 / (1.0 + tl.exp(-x))
    tl.store(Y + offsets, y, mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        assert x.device.type == "cuda"
        x_flat = x.contiguous().view(-1)
        y = torch.empty_like(x_flat)
        N = x_flat.numel()
        BLOCK = 2048
        _sigmoid_fwd[(triton.cdiv(N, BLOCK),)](x_flat, y, N, BLOCK=BLOCK, num_warps=4)
        return y.view_as(x)
