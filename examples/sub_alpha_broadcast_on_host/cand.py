import torch
import torch.nn as nn
import triton
import triton.language as tl


# The host broadcasts and promotes as LLM-written wrappers do (torch.as_tensor,
# torch.broadcast_shapes, torch.broadcast_tensors, torch.result_type, torch.promote_types, then
# flat contiguous copies); the kernel is elementwise over the flattened result.
@triton.jit
def sub_kernel(x_ptr, b_ptr, out_ptr, alpha, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    b = tl.load(b_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, x - alpha * b, mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x, b):
        b = torch.as_tensor(b, dtype=x.dtype, device=x.device)
        shape = torch.broadcast_shapes(x.shape, b.shape)
        x_b, b_b = torch.broadcast_tensors(x, b)
        assert x_b.shape == shape and b_b.shape == shape
        dtype = torch.promote_types(x.dtype, b.dtype)
        assert torch.result_type(x_b, b_b) == dtype
        x_flat = x_b.to(dtype).contiguous().view(-1)
        b_flat = b_b.to(dtype).contiguous().view(-1)
        out = torch.empty(shape, dtype=dtype, device=x.device)
        n = out.numel()
        sub_kernel[(triton.cdiv(n, 256),)](x_flat, b_flat, out, 2, n, BLOCK=256)
        return out
