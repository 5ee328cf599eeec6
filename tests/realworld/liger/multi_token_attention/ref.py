import torch
import torch.nn as nn
import torch.nn.functional as F

batch_size = 2
channels = 4
seq_len = 8
kernel_size = 3

class Model(nn.Module):
    """Multi-token attention (arXiv 2504.00927): causal-mask the scores with -1e9 (as the
    library's own test reference does), softmax over keys, a same-size 2-D convolution across
    (query, key), then zero the future positions again."""
    def __init__(self, channels, kernel_size):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(channels, channels, kernel_size, kernel_size) * 0.1)
        self.bias = nn.Parameter(torch.zeros(channels))
        self.pad = kernel_size // 2

    def forward(self, scores):
        L = scores.shape[-1]
        causal = torch.ones(L, L, dtype=torch.bool, device=scores.device).tril()
        probs = F.softmax(scores.masked_fill(~causal, -1e9), dim=-1)
        out = F.conv2d(probs, self.weight, self.bias, padding=self.pad)
        return out.masked_fill(~causal, 0.0)

def get_inputs():
    return [torch.randn(batch_size, channels, seq_len, seq_len)]

def get_init_inputs():
    return [channels, kernel_size]
