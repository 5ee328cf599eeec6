import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def sum_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for start in tl.range(0, n, BLOCK, num_stages=2):
        offs = start + tl.arange(0, BLOCK)
        acc += tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    for k in tl.static_range(2):
        acc = acc * 2.0
    tl.store(y_ptr, tl.sum(acc, axis=0))


class ModelNew(nn.Module):
    def forward(self, x):
        y = torch.empty(1, device=x.device)
        sum_kernel[(1,)](x, y, x.numel(), BLOCK=2)
        return y


def get_inputs():
    return [torch.randn(3)]


def get_init_inputs():
    return []
