import torch
import torch.nn as nn
import triton
import triton.language as tl


# tl.sum of a mask counts the lanes that are on: Triton widens masks (and 8- and 16-bit
# integers) to 32 bits before it sums them (_pick_sum_dtype). An LLM-written level-2 #89 kernel
# branches on `tl.sum(c_mask) > 0`; keq stopped with an ill-typed term there.
@triton.jit
def count(Y, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(Y, tl.sum(mask).to(tl.float32))
    tl.store(Y + 1, tl.sum(mask, axis=0, dtype=tl.float32) * 0.5)
    tl.store(Y + 2, (tl.sum(mask) > 0).to(tl.float32))
    tl.store(Y + 3, tl.sum(mask.to(tl.int8) * 100).to(tl.float32))


class ModelNew(nn.Module):
    def forward(self, x):
        y = torch.empty(4, device=x.device)
        count[(1,)](y, x.shape[0], BLOCK=8)
        return y


def get_inputs():
    return [torch.randn(5)]


def get_init_inputs():
    return []
