import torch
import torch.nn as nn
class ModelNew(nn.Module):
    def forward(self, x, y):
        # x's sum in two parts: no subterm of size but y's sum is shared with the reference
        sx = x[:, :25].sum(dim=1, keepdim=True) + x[:, 25:].sum(dim=1, keepdim=True)
        return (sx * y.sum(dim=1, keepdim=True)) * 1.0
