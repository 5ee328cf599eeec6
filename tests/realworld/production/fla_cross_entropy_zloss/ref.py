import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Mean cross entropy of [N, V] logits against [N] class targets."""

    def forward(self, logits, target):
        lse = torch.logsumexp(logits, -1)
        return F.cross_entropy(logits, target, ) + 1e-4 * (lse * lse).mean()


N, V = 8, 32


def get_inputs():
    return [torch.randn(N, V), torch.randint(0, V, (N,))]


def get_init_inputs():
    return []
