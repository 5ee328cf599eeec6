import torch
import torch.nn as nn

batch_size = 2
seq_len = 3
streams = 4
hidden = 16

class Model(nn.Module):
    """Manifold-constrained hyper-connections, the pre-mix (arXiv 2512.24880): each token's
    `streams` residual streams [.., HC, C] are combined into one layer input by the token's
    weights h_pre [.., HC]: out[c] = sum_s h_pre[s] * x[s, c]."""
    def forward(self, x, h_pre):
        return (x * h_pre.unsqueeze(-1)).sum(-2)

def get_inputs():
    return [torch.randn(batch_size, seq_len, streams, hidden), torch.rand(batch_size, seq_len, streams)]

def get_init_inputs():
    return []
