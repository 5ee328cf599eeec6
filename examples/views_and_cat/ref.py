import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a, b):
        x = a.permute(0, 2, 1).contiguous()
        y = b.transpose(1, 2)
        z = torch.cat([x, y], dim=-1)
        z = z.view(z.shape[0], -1)
        return z.unsqueeze(1)[:, :, 1:]


batch = 2
m = 3
n = 5


def get_inputs():
    return [torch.randn(batch, m, n), torch.randn(batch, m, n)]


def get_init_inputs():
    return []
