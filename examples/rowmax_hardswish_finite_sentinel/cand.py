import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def rowmax_hardswish_kernel(x_ptr, y_ptr, C, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    # -1e30 stands in for -inf; hardswish is at least -3/8, so it never wins.
    acc = tl.full((1,), -1e30, dtype=tl.float32)
    for c in range(0, C):
        v = tl.load(x_ptr + row * C + c + tl.arange(0, 1))
        hs = v * tl.minimum(tl.maximum(v + 3.0, 0.0), 6.0) / 6.0
        acc = tl.maximum(acc, hs)
    tl.store(y_ptr + row + tl.arange(0, 1), acc)


class ModelNew(nn.Module):
    def forward(self, x):
        x = x.contiguous()
        B, C = x.shape
        y = torch.empty((B, 1), device=x.device, dtype=x.dtype)
        rowmax_hardswish_kernel[(B,)](x, y, C, BLOCK=1)
        return y


batch_size = 2
channels = 3


def get_inputs():
    return [torch.randn(batch_size, channels)]


def get_init_inputs():
    return []
