import torch.nn as nn
from fla.modules.norm.l2norm import l2norm


class ModelNew(nn.Module):
    def forward(self, x):
        return l2norm(x, eps=1e-6)
