import torch
import torch.nn as nn
class ModelNew(nn.Module):
    def forward(self, x, y):
        return (x.sum(dim=1, keepdim=True) * y.sum(dim=1, keepdim=True)) * 1.0
