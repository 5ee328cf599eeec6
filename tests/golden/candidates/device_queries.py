import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, tl.maximum(x, 0.0), mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        assert x.is_cuda, "x must be on the GPU"
        assert x.device.type == "cuda"
        props = torch.cuda.get_device_properties(torch.cuda.current_device())
        BLOCK = 64 if props.multi_processor_count > 100 else 32
        out = torch.empty_like(x)
        n = x.numel()
        assert x.element_size() == 4 and x.data_ptr() % 16 == 0
        relu_kernel[(triton.cdiv(n, BLOCK),)](x, out, n, BLOCK=BLOCK)
        return out
