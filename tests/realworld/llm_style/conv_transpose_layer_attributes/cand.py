# The transposed convolution stays in torch, called with the layer's own attributes (stride,
# padding and output_padding are tuples on a torch layer: an LLM-written kernel indexes
# conv_transpose.stride[0]); the epilogue is one Triton kernel with an exact-erf GELU.
import torch
import torch.nn as nn
import torch.nn.functional as F
import triton
import triton.language as tl


@triton.jit
def add_min_gelu_mul_kernel(x_ptr, out_ptr, n, add_value, multiply_value, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    x = tl.minimum(x + add_value, 0.0)
    y = 0.5 * x * (1.0 + tl.erf(x * 0.7071067811865476))
    tl.store(out_ptr + offs, y * multiply_value, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, stride, add_value, multiply_value):
        super(ModelNew, self).__init__()
        self.conv_transpose = nn.ConvTranspose2d(in_channels, out_channels, kernel_size, stride=stride)
        self.add_value = add_value
        self.multiply_value = multiply_value

    def forward(self, x):
        ct = self.conv_transpose
        assert ct.stride[0] == ct.stride[1] and ct.kernel_size[0] == ct.kernel_size[1]
        y = F.conv_transpose2d(x, ct.weight, ct.bias, stride=ct.stride, padding=ct.padding,
                               output_padding=ct.output_padding, groups=ct.groups,
                               dilation=ct.dilation).contiguous()
        out = torch.empty_like(y)
        n = y.numel()
        grid = lambda meta: (triton.cdiv(n, meta["BLOCK"]),)
        add_min_gelu_mul_kernel[grid](y, out, n, self.add_value, self.multiply_value, BLOCK=256)
        return out
