import torch
import torch.nn as nn

batch_size = 2
seq_len = 4


class Model(nn.Module):
    """Causal softmax over attention scores: future keys masked with -inf."""

    def forward(self, scores):
        L = scores.shape[-1]
        future = torch.ones(L, L, dtype=torch.bool, device=scores.device).triu(1)
        return torch.softmax(scores.masked_fill(future, float("-inf")), dim=-1)


def get_inputs():
    return [torch.randn(batch_size, seq_len, seq_len)]


def get_init_inputs():
    return []
