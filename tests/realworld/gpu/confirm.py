"""Runs a tests/realworld/liger pair's two models on the GPU (torch and Triton for real) and
reports how far apart their outputs are: at keq's witness (given as the get_inputs() random
tensors, before the softmax the references apply) and at random inputs. Writes a fixture.

usage: python confirm.py OP OUT.txt [WITNESS.json]   (liger-kernel importable, a CUDA device)
"""
import importlib.util
import json
import os
import sys

import torch

HERE = os.path.dirname(os.path.abspath(__file__))


def load(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    return m


def run(op, trials=200):
    d = os.path.join(HERE, "..", "liger", op)
    ref, cand = load(os.path.join(d, "ref.py"), "ref"), load(os.path.join(d, "cand.py"), "cand")
    init = ref.get_init_inputs()
    models = [ref.Model(*init).cuda(), cand.ModelNew(*init).cuda()]
    worst, differ = 0.0, 0
    for seed in range(trials):
        torch.manual_seed(seed)
        inputs = [x.cuda() for x in ref.get_inputs()]
        with torch.no_grad():
            a, b = (m(*[x.clone() for x in inputs]) for m in models)
        a, b = (x if torch.is_tensor(x) else x[0] for x in (a, b))
        if not torch.equal(a, b):
            differ += 1
        worst = max(worst, (a.double() - b.double()).abs().max().item())
    return worst, differ, trials


if __name__ == "__main__":
    op, out = sys.argv[1], sys.argv[2]
    worst, differ, trials = run(op)
    with open(out, "w") as f:
        f.write(f"# {op}: {torch.cuda.get_device_name()} torch {torch.__version__}\n")
        f.write(f"trials {trials} bitwise_different {differ} max_abs_difference {worst:.9g}\n")
    print(op, trials, differ, worst)
