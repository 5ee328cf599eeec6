import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def quant_rows(x_ptr, q_ptr, s_ptr, n, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    m = cols < n
    x = tl.load(x_ptr + row * n + cols, mask=m, other=0.0)
    absmax = tl.maximum(tl.max(tl.abs(x), axis=0), 1e-10)
    # libdevice.round rounds half away from zero; torch.round rounds half to even.
    q = tl.extra.cuda.libdevice.round(x * (127.0 / absmax)).to(tl.int8)
    tl.store(q_ptr + row * n + cols, q, mask=m)
    tl.store(s_ptr + row, absmax / 127.0)


class ModelNew(nn.Module):
    def forward(self, x):
        t, h = x.shape
        q = torch.empty((t, h), dtype=torch.int8, device=x.device)
        s = torch.empty((t, 1), dtype=torch.float32, device=x.device)
        quant_rows[(t,)](x, q, s, h, BLOCK=triton.next_power_of_2(h))
        return q, s
