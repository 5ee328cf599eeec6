import torch.nn as nn
from liger_kernel.ops.swiglu import LigerSiLUMulFunction
from liger_kernel.ops.tiled_mlp import apply_tiled_mlp

class ModelNew(nn.Module):
    """The same MLP run in sequence shards (ceil(seq_len / hidden) of them) by Liger's TiledMLP."""
    def __init__(self, hidden, intermediate):
        super().__init__()
        self.gate_proj = nn.Linear(hidden, intermediate, bias=False)
        self.up_proj = nn.Linear(hidden, intermediate, bias=False)
        self.down_proj = nn.Linear(intermediate, hidden, bias=False)

    def _mlp(self, module, x):
        return module.down_proj(LigerSiLUMulFunction.apply(module.gate_proj(x), module.up_proj(x)))

    def forward(self, x):
        params = [p for p in self.parameters() if p.requires_grad]
        return apply_tiled_mlp(fn=self._mlp, mlp_module=self, x=x, compute_params=params)
