import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def tanh_kernel(in_ptr, out_ptr, numel, BLOCK_SIZE: tl.constexpr):
    idx = tl.program_id(0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    m = idx < numel
    x = tl.load(in_ptr + idx, mask=m)
    # tanh(x) = 2 * sigmoid(2x) - 1
    t = 2.0 * tl.sigmoid(2.0 * x) - 1.0
    tl.store(out_ptr + idx, t, mask=m)


class ModelNew(nn.Module):
    def __init__(self):
        super(ModelNew, self).__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        out = torch.empty_like(x)
        numel = x.numel()
        BLOCK_SIZE = triton.next_power_of_2(min(numel, 1024))
        grid = (triton.cdiv(numel, BLOCK_SIZE),)
        tanh_kernel[grid](x, out, numel, BLOCK_SIZE=BLOCK_SIZE)
        return out
