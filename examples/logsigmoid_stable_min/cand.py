import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def logsigmoid_kernel(x_ptr, y_ptr, n, temperature, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    # log(sigmoid(x)) without overflow: min(x, 0) - log(1 + exp(-|x|))
    y = (tl.minimum(0.0, x) - tl.log(1.0 + tl.exp(-tl.abs(x)))) / temperature
    tl.store(y_ptr + offs, y, mask=mask)


class ModelNew(nn.Module):
    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        logsigmoid_kernel[(triton.cdiv(n, 32),)](x, y, n, 4.0, BLOCK=32)
        return y
