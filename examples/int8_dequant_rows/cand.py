import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def dequant(q_ptr, s_ptr, y_ptr, n, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    m = cols < n
    q = tl.load(q_ptr + row * n + cols, mask=m, other=0)
    s = tl.load(s_ptr + row)
    tl.store(y_ptr + row * n + cols, q.to(tl.float32) * s, mask=m)


class ModelNew(nn.Module):
    def forward(self, q, scale):
        y = torch.empty(q.shape, dtype=torch.float32, device=q.device)
        dequant[(q.shape[0],)](q, scale, y, q.shape[1], BLOCK=triton.next_power_of_2(q.shape[1]))
        return y
