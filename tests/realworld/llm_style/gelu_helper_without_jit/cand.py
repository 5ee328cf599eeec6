import math

import torch
import torch.nn as nn
import triton
import triton.language as tl


# The activation as a helper the kernel calls, without @triton.jit: TRITON_INTERPRET=1 runs it
# as Python and the output is right, but Triton's compiler refuses a kernel that names a plain
# function ("Unsupported function referenced"), so the module never runs on the GPU.
def gelu_tanh(x):
    k = math.sqrt(2.0 / math.pi)
    inner = k * (x + 0.044715 * x * x * x)
    t = 2.0 * tl.sigmoid(2.0 * inner) - 1.0  # tanh(inner)
    return 0.5 * x * (1.0 + t)


@triton.jit
def bias_gelu_kernel(y_ptr, b_ptr, out_ptr, n_rows, n_cols,
                     stride_row, BLOCK_N: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    mask = cols < n_cols
    y = tl.load(y_ptr + row * stride_row + cols, mask=mask, other=0.0)
    b = tl.load(b_ptr + cols, mask=mask, other=0.0)
    tl.store(out_ptr + row * stride_row + cols, gelu_tanh(y + b), mask=mask)


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x):
        y = x @ self.linear.weight.t()
        y = y.contiguous()
        out = torch.empty_like(y)
        n_rows, n_cols = y.shape
        BLOCK_N = min(triton.next_power_of_2(n_cols), 1024)
        grid = (n_rows, triton.cdiv(n_cols, BLOCK_N))
        bias_gelu_kernel[grid](y, self.linear.bias, out, n_rows, n_cols, y.stride(0),
                               BLOCK_N=BLOCK_N)
        return out


batch_size = 128
in_features = 512
out_features = 1024


def get_inputs():
    return [torch.randn(batch_size, in_features)]


def get_init_inputs():
    return [in_features, out_features]
