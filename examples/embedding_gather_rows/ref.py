# An embedding lookup followed by a scale, in KernelBook's form (no Model; the candidate is
# EmbedScaleNew). The indices come from randint, so every row the lookup may read is known.
import torch
import torch.nn as nn


class EmbedScale(nn.Module):
    def __init__(self, num_embeddings, dim, scale=2.0):
        super().__init__()
        self.emb = nn.Embedding(num_embeddings, dim)
        self.scale = scale

    def forward(self, idx):
        return self.emb(idx) * self.scale


def get_inputs():
    return [torch.randint(0, 6, [3, 5])]


def get_init_inputs():
    return [[], {'num_embeddings': 6, 'dim': 4, 'scale': 0.5}]
