import torch
import torch.nn as nn
import triton
import triton.language as tl


# Right for every input a test draws, wrong at bf16's edge: a lane past half of bf16's largest
# value doubles to inf, the row's mean is inf, and inf - inf is NaN. torch's relu keeps the
# NaN; tl.maximum (a maxnum) turns it into 0. Found by a seeded bf16 LayerNorm + ReLU task
# (session 58) and measured on an H100 there.
@triton.jit
def centred_relu(x_ptr, y_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * n_cols + cols, mask=mask, other=0.0)
    y = (x.to(tl.float32) * 2).to(tl.bfloat16).to(tl.float32)
    mean = tl.sum(tl.where(mask, y, 0.0), axis=0) / n_cols
    out = tl.maximum(y - mean, 0.0)
    tl.store(y_ptr + row * n_cols + cols, out, mask=mask)


class ModelNew(nn.Module):
    def forward(self, x):
        x = x.contiguous()
        rows, cols = x.shape
        y = torch.empty(x.shape, dtype=torch.float32, device=x.device)
        centred_relu[(rows,)](x, y, cols, BLOCK=triton.next_power_of_2(cols))
        return y
