import torch
import torch.nn as nn
import triton
import triton.language as tl
from triton.tools.tensor_descriptor import TensorDescriptor


@triton.jit
def scale_shift(x_desc, y_desc, BM: tl.constexpr, BN: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    tile = x_desc.load([pid_m * BM, pid_n * BN])
    y_desc.store([pid_m * BM, pid_n * BN], tile * 2.0 + 1.0)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        M, N = x.shape
        BM, BN = 16, 32
        x_desc = TensorDescriptor.from_tensor(x, [BM, BN])
        y_desc = TensorDescriptor(y, y.shape, y.stride(), [BM, BN])
        scale_shift[(triton.cdiv(M, BM), triton.cdiv(N, BN))](x_desc, y_desc, BM=BM, BN=BN)
        return y
