import torch
import torch.nn as nn

batch_size = 2
seq_len = 3
streams = 4
hidden = 16

class Model(nn.Module):
    """Manifold-constrained hyper-connections, the post-mix and residual (arXiv 2512.24880):
    stream o of a token becomes h_post[o] * f + sum_i h_res[o, i] * x[i], f the layer's output
    [.., C], x the streams [.., HC, C]."""
    def forward(self, x, f, h_post, h_res):
        return h_post.unsqueeze(-1) * f.unsqueeze(-2) + h_res @ x

def get_inputs():
    return [torch.randn(batch_size, seq_len, streams, hidden), torch.randn(batch_size, seq_len, hidden),
            torch.rand(batch_size, seq_len, streams), torch.rand(batch_size, seq_len, streams, streams)]

def get_init_inputs():
    return []
