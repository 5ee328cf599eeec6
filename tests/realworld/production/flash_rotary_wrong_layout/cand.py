import torch.nn as nn
from flash_attn.layers.rotary import apply_rotary_emb


# A wrapper bug: the GPT-J (interleaved) layout where the reference rotates halves (GPT-NeoX).
class ModelNew(nn.Module):
    def forward(self, x, cos, sin):
        return apply_rotary_emb(x, cos, sin, interleaved=True)
