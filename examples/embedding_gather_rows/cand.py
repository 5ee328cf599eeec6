# One program per looked-up row: the row index is loaded, then the weight row it names.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def embed_scale_kernel(idx_ptr, w_ptr, out_ptr, dim, scale, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    ok = cols < dim
    i = tl.load(idx_ptr + row)
    v = tl.load(w_ptr + i * dim + cols, mask=ok, other=0.0)
    tl.store(out_ptr + row * dim + cols, v * scale, mask=ok)


class EmbedScaleNew(nn.Module):
    def __init__(self, num_embeddings, dim, scale=2.0):
        super().__init__()
        self.emb = nn.Embedding(num_embeddings, dim)
        self.scale = scale

    def forward(self, input_0):
        idx = input_0.contiguous().view(-1)
        w = self.emb.weight.contiguous()
        dim = w.shape[1]
        out = torch.empty((idx.numel(), dim), device=w.device, dtype=w.dtype)
        embed_scale_kernel[(idx.numel(),)](idx, w, out, dim, self.scale, BLOCK=triton.next_power_of_2(dim))
        return out.view(*input_0.shape, dim)
