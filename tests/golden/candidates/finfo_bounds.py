# Per-token fp8 quantization whose host code reads the format's range from torch.finfo and
# passes it to the kernel as runtime floats (vLLM's style); iinfo bounds an index assert.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def quant_kernel(x_ptr, q_ptr, s_ptr, n, eps, fp8_min, fp8_max, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    cols = tl.arange(0, BLOCK)
    mask = cols < n
    x = tl.load(x_ptr + row * n + cols, mask=mask, other=0.0).to(tl.float32)
    amax = tl.maximum(tl.max(tl.abs(x)), eps)
    scale = amax / fp8_max
    q = tl.clamp(x / scale, fp8_min, fp8_max).to(q_ptr.dtype.element_ty)
    tl.store(q_ptr + row * n + cols, q, mask=mask)
    tl.store(s_ptr + row, scale)


class ModelNew(nn.Module):
    def __init__(self, dtype=torch.float8_e4m3fn):
        super().__init__()
        self.dtype = dtype

    def forward(self, x):
        M, N = x.shape
        assert x.numel() <= torch.iinfo(torch.int32).max, "index would overflow int32"
        finfo = torch.finfo(self.dtype)
        q = torch.empty((M, N), dtype=torch.float8_e4m3fn, device=x.device)
        s = torch.empty((M, 1), dtype=torch.float32, device=x.device)
        quant_kernel[(M,)](x, q, s, N, 1e-12, finfo.min, finfo.max, BLOCK=triton.next_power_of_2(N))
        return q, s
