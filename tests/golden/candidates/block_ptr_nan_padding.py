import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def pad_kernel(x_ptr, y_ptr, R, C, BLOCK_R: tl.constexpr, BLOCK_C: tl.constexpr):
    src = tl.make_block_ptr(base=x_ptr, shape=(R, C), strides=(C, 1), offsets=(0, 1),
                            block_shape=(BLOCK_R, BLOCK_C), order=(1, 0))
    dst = tl.make_block_ptr(base=y_ptr, shape=(BLOCK_R, BLOCK_C), strides=(BLOCK_C, 1),
                            offsets=(0, 0), block_shape=(BLOCK_R, BLOCK_C), order=(1, 0))
    tl.store(dst, tl.load(src, boundary_check=(0, 1), padding_option="nan"))


class ModelNew(nn.Module):
    def forward(self, x):
        y = torch.empty((2, 4), device=x.device)
        pad_kernel[(1,)](x, y, 2, 3, BLOCK_R=2, BLOCK_C=4)
        return y


def get_inputs():
    return [torch.randn(2, 3)]


def get_init_inputs():
    return []
