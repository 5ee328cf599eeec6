import torch
import torch.nn as nn

n_blocks = 4
batch_size = 2
seq_len = 3
hidden = 16

class Model(nn.Module):
    """Attention residuals over depth (arXiv 2603.15031): the stacked block outputs V
    [N, B, T, D] are RMS-normalised per block (weight w_norm), scored against a learned query,
    softmax-weighted over the N blocks, and summed."""
    def __init__(self, hidden, eps=1e-6):
        super().__init__()
        self.w_query = nn.Parameter(torch.randn(hidden))
        self.w_norm = nn.Parameter(torch.ones(hidden))
        self.eps = eps

    def forward(self, v):
        k = v * torch.rsqrt(v.pow(2).mean(-1, keepdim=True) + self.eps) * self.w_norm
        alpha = torch.softmax((k * self.w_query).sum(-1), dim=0)
        return (alpha.unsqueeze(-1) * v).sum(0)

def get_inputs():
    return [torch.randn(n_blocks, batch_size, seq_len, hidden)]

def get_init_inputs():
    return [hidden]
