import torch
import torch.nn as nn

class Model(nn.Module):
    def __init__(self, normalized_shape: tuple):
        super(Model, self).__init__()
        self.ln = nn.LayerNorm(normalized_shape=normalized_shape)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.ln(x)

batch_size = 16
features = 64
dim1 = 256

def get_inputs():
    x = torch.randn(batch_size, features, dim1)
    return [x]

def get_init_inputs():
    return [(features, dim1)]
