import torch
import torch.nn as nn
import triton
import triton.language as tl


# A row's logsumexp with its sum clamped before the log, log(max(s, 1e-10)): the sum of
# exp(v - max v) includes exp(0) = 1, so the clamp never bites and keq reads it as the sum.
@triton.jit
def lse_kernel(x_ptr, out_ptr, C, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < C
    v = tl.load(x_ptr + row * C + offs, mask=mask, other=float('-inf'))
    m = tl.max(v, axis=0)
    e = tl.where(mask, tl.exp(v - m), 0.0)
    s = tl.sum(e, axis=0)
    r = tl.log(tl.maximum(s, 1e-10)) + m
    tl.store(out_ptr + row, tl.maximum(r, 0.0))


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        B, C = x.shape
        out = torch.empty(B, 1, device=x.device, dtype=x.dtype)
        lse_kernel[(B,)](x, out, C, BLOCK=triton.next_power_of_2(C))
        return out


batch_size = 2
channels = 3


def get_inputs():
    return [torch.randn(batch_size, channels)]


def get_init_inputs():
    return []
