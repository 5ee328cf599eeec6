import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def scale_shift(x_ptr, y_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):
    x_desc = tl.make_tensor_descriptor(x_ptr, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
    y_desc = tl.make_tensor_descriptor(y_ptr, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    tile = x_desc.load([pid_m * BM, 0])
    y_desc.store([pid_m * BM, pid_n * BN], tile * 2.0 + 1.0)


def alloc(size, alignment, stream):
    return torch.empty(size, device="cuda", dtype=torch.int8)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        triton.set_allocator(alloc)

    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        M, N = x.shape
        grid = (triton.cdiv(M, 16), triton.cdiv(N, 32))
        scale_shift[grid](x, y, M, N, BM=16, BN=32)
        return y
