import torch
import torch.nn as nn
import triton
import triton.language as tl


# Both distributions clamped to 1e-8 before the logs (an LLM-written KernelBench kernel's
# "numerical stability"): where a prediction is below 1e-8 (a logit 19 below its row's largest)
# the term is no longer the reference's, whose log of an underflowed 0 is -inf.
@triton.jit
def kl_rows(P, T, OUT, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    acc = 0.0
    for start in range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < n_cols
        t = tl.maximum(tl.load(T + row * n_cols + cols, mask=mask, other=0.0), 1e-8)
        p = tl.maximum(tl.load(P + row * n_cols + cols, mask=mask, other=0.0), 1e-8)
        acc += tl.sum(t * (tl.log(t) - tl.log(p)), axis=0)
    tl.store(OUT + row, acc)


class ModelNew(nn.Module):
    def forward(self, predictions, targets):
        predictions, targets = predictions.contiguous(), targets.contiguous()
        rows, n_cols = predictions.shape
        per_row = torch.empty(rows, device=predictions.device, dtype=torch.float32)
        kl_rows[(rows,)](predictions, targets, per_row, n_cols, BLOCK=256)
        return per_row.mean()


batch_size = 128
dim = 4096


def get_inputs():
    return [torch.randn(batch_size, dim).softmax(dim=-1), torch.randn(batch_size, dim).softmax(dim=-1)]


def get_init_inputs():
    return []
