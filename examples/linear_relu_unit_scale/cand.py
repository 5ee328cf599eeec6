# A candidate-only parameter that starts at ones and is never trained (requires_grad=False),
# a scale an LLM-written kernel multiplies in. No reference parameter pairs with it, so it
# holds its initial value: the pair is EQUIVALENT, as KernelBench finds it.
import torch
import torch.nn as nn
import triton
import triton.language as tl

@triton.jit
def scale_relu(x_ptr, s_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    s = tl.load(s_ptr)
    tl.store(y_ptr + offs, tl.maximum(x, 0.0) * s, mask=m)

class ModelNew(nn.Module):
    def __init__(self, n_in, n_out):
        super().__init__()
        self.fc = nn.Linear(n_in, n_out)
        self.scale = nn.Parameter(torch.ones(1), requires_grad=False)

    def forward(self, x):
        h = self.fc(x).contiguous()
        y = torch.empty_like(h)
        n = h.numel()
        scale_relu[(triton.cdiv(n, 128),)](h, self.scale, y, n, BLOCK=128)
        return y

batch = 4
n_in = 8
n_out = 6
def get_inputs():
    return [torch.randn(batch, n_in)]
def get_init_inputs():
    return [n_in, n_out]
