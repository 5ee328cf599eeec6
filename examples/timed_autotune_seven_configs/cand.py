import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def bias_clamp_kernel(x_ptr, bias_ptr, out_ptr, C, HW, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    plane = tl.program_id(1)
    mask = offs < HW
    x = tl.load(x_ptr + plane * HW + offs, mask=mask, other=0.0)
    b = tl.load(bias_ptr + plane % C)
    y = tl.minimum(tl.maximum(x + b, 0.0), 1.0)
    tl.store(out_ptr + plane * HW + offs, y, mask=mask)


# A hand-rolled autotuner: each config warmed up, then timed over ten launches on the same
# memory, the fastest kept. Six comparisons keq cannot decide: 64 outcomes, each a run in which
# the same launches repeat (keq replays them).
CONFIGS = [(64, 2), (128, 4), (256, 4), (256, 8), (512, 8), (1024, 8), (1024, 16)]


def bias_clamp(x, bias):
    x = x.contiguous()
    B, C, H, W = x.shape
    out = torch.empty_like(x)
    best_ms, best = float("inf"), None
    for block, warps in CONFIGS:
        grid = (triton.cdiv(H * W, block), B * C)
        bias_clamp_kernel[grid](x, bias, out, C, H * W, BLOCK=block, num_warps=warps)
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        for _ in range(10):
            bias_clamp_kernel[grid](x, bias, out, C, H * W, BLOCK=block, num_warps=warps)
        end.record()
        torch.cuda.synchronize()
        ms = start.elapsed_time(end) / 10
        if ms < best_ms:
            best_ms, best = ms, (block, warps)
    block, warps = best
    grid = (triton.cdiv(H * W, block), B * C)
    bias_clamp_kernel[grid](x, bias, out, C, H * W, BLOCK=block, num_warps=warps)
    return out


class ModelNew(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.bias = nn.Parameter(torch.randn(channels, 1, 1))

    def forward(self, x):
        return bias_clamp(x, self.bias.view(-1))


batch_size = 2
channels = 3
height = 4
width = 5


def get_inputs():
    return [torch.rand(batch_size, channels, height, width)]


def get_init_inputs():
    return [channels]
