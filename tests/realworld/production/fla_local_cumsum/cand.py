import torch.nn as nn
from fla.ops.utils.cumsum import chunk_local_cumsum


class ModelNew(nn.Module):
    def forward(self, g):
        return chunk_local_cumsum(g, chunk_size=16)
