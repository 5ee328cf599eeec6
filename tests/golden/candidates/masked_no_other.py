import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def row_max_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n)  # masked lanes are undefined without other=
    tl.store(out_ptr, tl.max(x, axis=0))


class ModelNew(nn.Module):
    def forward(self, x):
        out = torch.empty(1, device=x.device)
        row_max_kernel[(1,)](x, out, x.numel(), BLOCK=8)
        return out


def get_inputs():
    return [torch.randn(5)]


def get_init_inputs():
    return []
