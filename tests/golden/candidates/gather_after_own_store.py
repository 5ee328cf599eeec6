import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def scaled_then_picked(x_ptr, t_ptr, buf_ptr, out_ptr, n, BLOCK: tl.constexpr):
    # Every lane stores into buf, then one loaded index reads buf back: which lane's store it
    # reads depends on the index, and lanes are not ordered without a barrier.
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + row * n + offs, mask=m, other=0.0)
    tl.store(buf_ptr + row * n + offs, x * 2.0, mask=m)
    t = tl.load(t_ptr + row)
    tl.store(out_ptr + row, tl.load(buf_ptr + row * n + t))


class ModelNew(nn.Module):
    def forward(self, x, t):
        buf = torch.empty_like(x)
        out = torch.empty(x.shape[0], device=x.device)
        scaled_then_picked[(x.shape[0],)](x, t, buf, out, x.shape[1], BLOCK=4)
        return out


def get_inputs():
    return [torch.randn(2, 3), torch.randint(0, 3, (2,))]


def get_init_inputs():
    return []
