import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def square_kernel(x_ptr, y_ptr, N: tl.constexpr):
    # K = 16 is enough for fp16 and fp32 operands; 8-bit ones need K >= 32 (Triton 3.6, H200).
    r = tl.arange(0, N)
    x = tl.load(x_ptr + r[:, None] * N + r[None, :])
    y = tl.dot(x, tl.trans(x))
    tl.store(y_ptr + r[:, None] * N + r[None, :], y)


class ModelNew(nn.Module):
    def forward(self, x):
        y = torch.empty(x.shape, device=x.device)
        square_kernel[(1,)](x, y, N=16)
        return y


def get_inputs():
    return [torch.randn(16, 16).to(torch.float8_e4m3fn)]


def get_init_inputs():
    return []
