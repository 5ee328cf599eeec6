import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def block_quant_kernel(x_ptr, y_ptr, s_ptr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    s = tl.max(tl.abs(x)) / 448.0
    # The store saturates where torch's cast would give NaN; x / s is within 448 (or NaN).
    tl.store(y_ptr + offs, (x / s).to(y_ptr.dtype.element_ty))
    tl.store(s_ptr + pid, s)


class ModelNew(nn.Module):
    def __init__(self, block):
        super().__init__()
        self.block = block

    def forward(self, x):
        assert x.shape[-1] % self.block == 0
        y = torch.empty_like(x, dtype=torch.float8_e4m3fn)
        s = x.new_empty(x.shape[0], x.shape[1] // self.block, dtype=torch.float32)
        block_quant_kernel[(x.numel() // self.block,)](x, y, s, BLOCK=self.block)
        return y, s


rows = 16
cols = 256
block = 128


def get_inputs():
    return [torch.randn(rows, cols)]


def get_init_inputs():
    return [block]
