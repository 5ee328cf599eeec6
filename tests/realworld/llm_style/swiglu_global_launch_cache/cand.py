# LLM style: module globals filled on the first call through `global` (the SM count, a launcher
# closure keyed by the element count), and a persistent grid-stride kernel over every element.
import torch
import torch.nn as nn
import triton
import triton.language as tl

_NUM_SMS = None
_LAUNCHERS = {}


@triton.jit
def swiglu_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr, NUM_PROGRAMS: tl.constexpr):
    pid = tl.program_id(0)
    for start in range(pid * BLOCK, n, NUM_PROGRAMS * BLOCK):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < n
        x = tl.load(x_ptr + offs, mask=mask, other=0.0)
        y = tl.load(y_ptr + offs, mask=mask, other=0.0)
        tl.store(out_ptr + offs, x / (1.0 + tl.exp(-x)) * y, mask=mask)


def _launcher(n):
    global _NUM_SMS
    if _NUM_SMS is None:
        _NUM_SMS = torch.cuda.get_device_properties(0).multi_processor_count
    if n not in _LAUNCHERS:
        block = 256
        programs = min(_NUM_SMS, triton.cdiv(n, block))

        def launch(x, y, out):
            swiglu_kernel[(programs,)](x, y, out, n, BLOCK=block, NUM_PROGRAMS=programs)

        _LAUNCHERS[n] = launch
    return _LAUNCHERS[n]


class ModelNew(nn.Module):
    def forward(self, x, y):
        out = torch.empty_like(x)
        _launcher(x.numel())(x, y, out)
        return out
