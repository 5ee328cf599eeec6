import torch
import torch.nn as nn

batch_size = 4
dim = 16

class Model(nn.Module):
    """Sparsemax over the last dimension (Martins & Astudillo, 2016), by sorting."""
    def forward(self, x):
        z, _ = torch.sort(x, dim=-1, descending=True)
        k = torch.arange(1, x.shape[-1] + 1, dtype=x.dtype, device=x.device)
        cumsum = z.cumsum(dim=-1)
        support = (1 + k * z) > cumsum
        k_z = support.sum(dim=-1, keepdim=True)
        # The support is a prefix of the sorted row: its sum is the cumsum at k_z.
        tau = ((z * support).sum(dim=-1, keepdim=True) - 1) / k_z.to(x.dtype)
        return torch.clamp(x - tau, min=0)

def get_inputs():
    return [torch.randn(batch_size, dim)]

def get_init_inputs():
    return []
