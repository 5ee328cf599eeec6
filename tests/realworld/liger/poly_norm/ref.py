import torch
import torch.nn as nn

batch_size = 4
hidden = 64

class Model(nn.Module):
    """PolyNorm (arXiv 2411.03884): y = w0*norm(x^3) + w1*norm(x^2) + w2*norm(x) + b,
    norm(u) = u / sqrt(mean(u^2) + eps) over the last dimension."""
    def __init__(self, eps=1e-6):
        super().__init__()
        self.weight = nn.Parameter(torch.full((3,), 1.0 / 3.0))
        self.bias = nn.Parameter(torch.tensor(1.0))
        self.eps = eps

    def _norm(self, u):
        return u * torch.rsqrt(u.pow(2).mean(-1, keepdim=True) + self.eps)

    def forward(self, x):
        x3 = x * x * x
        x2 = x * x
        return (self.weight[0] * self._norm(x3) + self.weight[1] * self._norm(x2)
                + self.weight[2] * self._norm(x) + self.bias)

def get_inputs():
    return [torch.randn(batch_size, 3, hidden)]

def get_init_inputs():
    return []
