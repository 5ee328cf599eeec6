import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """
    Simple model that performs a matmul and a scaled GELU.
    """

    def __init__(self, in_features: int, out_features, eps=1e-5, *args, **kwargs):
        super(Model, self).__init__()
        self.linear = nn.Linear(in_features, out_features)
        self.eps = eps

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = self.linear(x)  # comment
        y = x[:, None, ...] if x.dim() > 1 else x[::2]
        z = F.gelu(x, approximate="tanh") * 0.5 + \
            torch.clamp(x, min=-float("inf"), max=0x7F)
        assert 0 < y.shape[0] <= 4096, f"bad {y.shape[0]:d} rows"
        with torch.no_grad():
            for i, (a, b) in enumerate(zip([1, 2], (3, 4))):
                z += a * b
        return torch.softmax(z, dim=-1)


batch_size = 16
dim = 16384


def get_inputs():
    return [torch.randn(batch_size, dim).cuda()]


def get_init_inputs():
    return [dim, dim]  # in, out


if __name__ == "__main__":
    print(Model(*get_init_inputs())(*get_inputs()).shape)
