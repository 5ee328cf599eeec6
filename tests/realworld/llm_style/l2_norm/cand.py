import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def l2norm_kernel(X, Y, stride, N, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    X += row * stride
    Y += row * stride
    _acc = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        x = tl.load(X + cols, mask=cols < N, other=0.).to(tl.float32)
        _acc += x * x
    inv_norm = 1.0 / tl.sqrt(tl.sum(_acc, axis=0))
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        mask = cols < N
        x = tl.load(X + cols, mask=mask, other=0.).to(tl.float32)
        tl.store(Y + cols, x * inv_norm, mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super(ModelNew, self).__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        y = torch.empty_like(x)
        M, N = x.shape
        BLOCK_SIZE = min(4096, triton.next_power_of_2(N))
        l2norm_kernel[(M,)](x, y, x.stride(0), N, BLOCK_SIZE=BLOCK_SIZE, num_warps=8)
        return y
