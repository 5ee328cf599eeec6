import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def sub_channel_bias_kernel(x_ptr, b_ptr, y_ptr, C, HW, BLOCK: tl.constexpr):
    row = tl.program_id(0)  # one (batch, channel) plane
    offs = tl.arange(0, BLOCK)
    mask = offs < HW
    x = tl.load(x_ptr + row * HW + offs, mask=mask, other=0.0)
    b = tl.load(b_ptr + row % C)
    # The bias subtracted where the reference adds it.
    tl.store(y_ptr + row * HW + offs, x - b, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, channels, bias_shape):
        super().__init__()
        # The reference's draw, squeezed to (channels,): the same values in another shape.
        self.bias = nn.Parameter(torch.randn(bias_shape).squeeze())

    def forward(self, x):
        x = x.contiguous()
        B, C, H, W = x.shape
        y = torch.empty_like(x)
        sub_channel_bias_kernel[(B * C,)](x, self.bias, y, C, H * W,
                                          BLOCK=triton.next_power_of_2(H * W))
        return y


batch_size = 4
channels = 8
height = 4
width = 4
bias_shape = (channels, 1, 1)


def get_inputs():
    return [torch.randn(batch_size, channels, height, width)]


def get_init_inputs():
    return [channels, bias_shape]
