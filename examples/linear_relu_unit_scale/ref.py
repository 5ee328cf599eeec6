import torch
import torch.nn as nn

class Model(nn.Module):
    def __init__(self, n_in, n_out):
        super().__init__()
        self.fc = nn.Linear(n_in, n_out)

    def forward(self, x):
        return torch.relu(self.fc(x))

batch = 4
n_in = 8
n_out = 6
def get_inputs():
    return [torch.randn(batch, n_in)]
def get_init_inputs():
    return [n_in, n_out]
