# Triton's block reshuffles: split, interleave, flip, join, permute/trans (functions and
# methods), ravel. Triton 3.6's interpreter gives row r of x = arange(16).reshape(2, 8):
# [6, 7, 4, 5, 2, 3, 0, 1] + 8 r (TorchFrontend test Triton.BlockShapeOpsAreTritons).
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def shuffle_kernel(x_ptr, y_ptr, N: tl.constexpr, BLOCK: tl.constexpr):
    r = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + r * N + offs)
    a, b = tl.split(tl.reshape(x, (BLOCK // 2, 2)))
    y = tl.flip(tl.interleave(b, a), 0)
    z = tl.ravel(tl.permute(tl.join(y, y), 1, 0))
    w = z.flip(0).flip(0)
    t = tl.reshape(w, (2, BLOCK)).trans(1, 0).ravel()
    tl.store(y_ptr + r * N + offs, tl.reshape(t, (BLOCK, 2)).split()[0])


class ModelNew(nn.Module):
    def forward(self, x):
        y = torch.empty_like(x)
        shuffle_kernel[(x.shape[0],)](x, y, N=x.shape[1], BLOCK=x.shape[1])
        return y


def get_inputs():
    return [torch.randn(2, 8)]


def get_init_inputs():
    return []
