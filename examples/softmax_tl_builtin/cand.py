# A row softmax through Triton's own tl.softmax (triton/language/standard.py: x - max, exp,
# sum, fdiv), the padding lanes loaded as -inf so that they add exp(-inf) = 0 to the sum.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def softmax_rows(x_ptr, y_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * n_cols + cols, mask=mask, other=float("-inf"))
    tl.store(y_ptr + row * n_cols + cols, tl.softmax(x, dim=0), mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        softmax_rows[(x.shape[0],)](x, y, x.shape[1], BLOCK=triton.next_power_of_2(x.shape[1]))
        return y


batch = 4
dim = 1000


def get_inputs():
    return [torch.randn(batch, dim)]


def get_init_inputs():
    return []
