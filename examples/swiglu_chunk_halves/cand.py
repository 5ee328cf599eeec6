# SwiGLU over x.chunk(2, -1): the halves are strided views of x (row stride 2N), passed to the
# kernel with their strides.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def swiglu_kernel(a_ptr, b_ptr, y_ptr, n_cols, stride_a, stride_b, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    m = cols < n_cols
    a = tl.load(a_ptr + row * stride_a + cols, mask=m, other=0.0)
    b = tl.load(b_ptr + row * stride_b + cols, mask=m, other=0.0)
    tl.store(y_ptr + row * n_cols + cols, a * tl.sigmoid(a) * b, mask=m)


class ModelNew(nn.Module):
    def forward(self, x):
        a, b = x.chunk(2, dim=-1)
        M, N = a.shape
        y = torch.empty((M, N), device=x.device)
        swiglu_kernel[(M,)](a, b, y, N, a.stride(0), b.stride(0), BLOCK=triton.next_power_of_2(N))
        return y
