"""Runs tests/realworld/liger pairs on the GPU (torch and Triton for real) at the inputs keq's
NOT_EQUIVALENT verdicts name, and writes what each side does there to a fixture.

- mhc_post_res at keq's configuration 2 (batch 5, seq 6, streams 7, hidden 8): Triton refuses
  the kernel's tl.arange over 7 streams; the reference runs.
- multi_token_attention_inf_mask at keq's counterexample (scores 0 but [0, 2, 1, 0:2] = -2e9;
  weight 0 but [0, 2, 2, 2] = -2e9; bias 0) and at an upstream padding mask (the first two keys
  of batch 0 at float32's lowest value, as an additive attention mask leaves them).

usage: python confirm_at.py OUT.txt   (liger-kernel importable, a CUDA device)
"""
import importlib.util
import os
import sys
import traceback

import torch

HERE = os.path.dirname(os.path.abspath(__file__))


def load(op, file, name, **dims):
    spec = importlib.util.spec_from_file_location(name, os.path.join(HERE, "..", "liger", op, file))
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    for k, v in dims.items():  # the module-level sizes get_inputs() reads
        setattr(m, k, v)
    return m


def models(op, **dims):
    ref, cand = load(op, "ref.py", "ref", **dims), load(op, "cand.py", "cand", **dims)
    init = ref.get_init_inputs()
    return ref, ref.Model(*init).cuda(), cand.ModelNew(*init).cuda()


def outcome(model, inputs):
    try:
        with torch.no_grad():
            return model(*[x.clone() for x in inputs]), None
    except Exception as e:  # the compiler's refusal is the finding
        text = "".join(traceback.format_exception_only(type(e), e)).strip().splitlines()
        said = [l.strip() for l in text if "Error" in l and l.strip() != text[0].strip()]
        return None, f"{type(e).__name__}: {(said or text)[-1][:300]}"


def mhc(lines):
    dims = dict(batch_size=5, seq_len=6, streams=7, hidden=8)
    ref, a, b = models("mhc_post_res", **dims)
    torch.manual_seed(0)
    inputs = [x.cuda() for x in ref.get_inputs()]
    ra, ea = outcome(a, inputs)
    rb, eb = outcome(b, inputs)
    lines.append(f"mhc_post_res {dims}: reference {'runs' if ea is None else ea}; "
                 f"candidate {'runs' if eb is None else eb}")


def mta(lines):
    dims = dict(batch_size=2, channels=3, seq_len=4)
    ref, a, b = models("multi_token_attention_inf_mask", **dims)
    with torch.no_grad():
        for m in (a, b):
            m.weight.zero_()
            m.weight[0, 2, 2, 2] = -2e9
            m.bias.zero_()
    scores = torch.zeros(2, 3, 4, 4, device="cuda")
    scores[0, 2, 1, 0:2] = -2e9
    ra, ea = outcome(a, [scores])
    rb, eb = outcome(b, [scores])
    if ea or eb:
        lines.append(f"multi_token_attention_inf_mask: reference {ea}; candidate {eb}")
        return
    lines.append(f"multi_token_attention_inf_mask at keq's witness: out[0,0,0,0] reference "
                 f"{ra[0, 0, 0, 0].item():.9g} candidate {rb[0, 0, 0, 0].item():.9g}")
    # An upstream additive padding mask: batch 0's first two keys at float32's lowest value.
    torch.manual_seed(0)
    w = torch.randn_like(a.weight) * 0.1
    for m in (a, b):  # the same parameters on both sides
        with torch.no_grad():
            m.weight.copy_(w)
    scores = torch.randn(2, 3, 4, 4, device="cuda")
    scores[0, :, :, 0:2] += torch.finfo(torch.float32).min
    ra, _ = outcome(a, [scores])
    rb, _ = outcome(b, [scores])
    diff = (ra.double() - rb.double()).abs()
    lines.append(f"multi_token_attention_inf_mask with keys 0-1 of batch 0 padded (finfo.min): "
                 f"max |difference| {diff.max().item():.9g} (batch 0 {diff[0].max().item():.9g}, "
                 f"batch 1 {diff[1].max().item():.9g})")


if __name__ == "__main__":
    lines = [f"# {torch.cuda.get_device_name()} torch {torch.__version__}"]
    for case in (mhc, mta):
        try:
            case(lines)
        except Exception:
            lines.append(f"{case.__name__}: script failed: " + traceback.format_exc()[-600:])
    with open(sys.argv[1], "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))
