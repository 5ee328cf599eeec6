// --repro: a counterexample as a Python script the user runs on their own machine (keq never
// runs Python). It sets the configuration's sizes, builds the inputs and parameters the
// counterexample names (every other element 0: the differing element does not depend on them),
// runs the two models (Model and ModelNew, or KernelBook's X and XNew), and prints both values at
// the differing element.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>

#include "verify/verify.h"

namespace keq::verify {
namespace {

// A float32 value printed with 9 digits round-trips through float32 but not always through
// Python's double: 3.40282347e+38 is past float32's largest value as a double, and torch refuses
// to store it. The exact value of the float32 (17 digits) is what the script writes.
std::string py_float(const std::string& v) {
  if (v == "nan" || v == "-nan") return "float('nan')";
  if (v == "inf") return "float('inf')";
  if (v == "-inf") return "float('-inf')";
  char* end = nullptr;
  float f = std::strtof(v.c_str(), &end);
  if (end == v.c_str() || *end != '\0' || !std::isfinite(f)) return v;
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", static_cast<double>(f));
  return buf;
}

// "in0[1,2]" -> "(1, 2)"; "s" and a 0-d tensor's "p2[]" -> "()"
std::string py_index(const std::string& name) {
  size_t open = name.find('[');
  if (open == std::string::npos || open + 2 >= name.size()) return "()";
  std::string inner = name.substr(open + 1, name.size() - open - 2), out = "(";
  for (char c : inner) out += c == ',' ? std::string(", ") : std::string(1, c);
  return out + (inner.find(',') == std::string::npos ? ",)" : ")");
}

std::string py_str(const std::string& s) {
  std::string out = "\"";
  for (char c : s) out += (c == '"' || c == '\\') ? std::string("\\") + c : std::string(1, c);
  return out + "\"";
}

// PAIRING: by the candidate's creation index, the reference parameter it takes and whether
// transposed, or None (its own); empty where creation order pairs them.
std::string pairing_list(const std::vector<torch::ParameterAlias>& pairing) {
  std::string t = "PAIRING = [";
  for (size_t k = 0; k < pairing.size(); ++k) {
    const torch::ParameterAlias& a = pairing[k];
    t += k ? ", " : "";
    t += a.name.empty() ? "None"
                        : "(" + py_str(a.name) + ", " + (a.transposed ? "True" : "False") + ")";
  }
  return t + "]\n";
}

// NAME = [...]: TorchState::parameter_objects, keq's parameter behind each torch Parameter.
std::string parameter_objects(const std::string& name, const std::vector<int64_t>& objects) {
  std::string t = name + " = [";
  for (size_t k = 0; k < objects.size(); ++k)
    t += (k ? ", " : "") + (objects[k] < 0 ? std::string("None") : std::to_string(objects[k]));
  return t + "]\n";
}

}  // namespace

std::string repro_script(const std::string& ref_path, const std::string& cand_path,
                         const Report& r) {
  if (!r.counterexample) return "";
  const Counterexample& c = *r.counterexample;
  std::map<std::string, std::string> tensors;  // "in0" -> "{(0, 1): 2.5, ...}"
  for (const auto& [name, value] : c.inputs) {
    std::string tensor = name.substr(0, name.find('['));
    std::string& entries = tensors[tensor];
    entries += (entries.empty() ? "" : ", ") + py_index(name) + ": " + py_float(value);
  }
  std::string t =
      "# keq --repro: rebuilds keq's counterexample and runs both models on it.\n"
      "# keq said: " +
      r.reason + "\n#   bound: " + r.bound + "\n#   reference " + c.ref_value + ", candidate " +
      c.cand_value + " at output " + std::to_string(c.output) +
      "\n"
      "# Inputs and parameters keq names are set; every other element is 0. Inputs are\n"
      "# in0, in1, ... as keq numbers get_inputs()'s random draws (a forward argument computed\n"
      "# from a draw, torch.randn(...).softmax(-1), is computed from keq's values). Parameters "
      "are\n"
      "# p0, p1, ... as keq numbers them (the random values a model's __init__ makes, in creation\n"
      "# order); REF_PARAMS and CAND_PARAMS give the one each torch Parameter holds (every one "
      "some\n"
      "# module made and holds, in creation order; None: none of them). The candidate's take the "
      "reference's\n"
      "# values in that order, or as PAIRING says. Values a model copies from a parameter while\n"
      "# it is built are not followed. Each\n"
      "# size in DIMS is set where the file assigns it, so values computed from it follow. Sizes\n"
      "# written as literals in get_inputs() (literal@LINE:COL in the bound) cannot be set here.\n"
      "import ast\nimport sys\nimport types\n\nimport torch\n\n";
  t += "REF = " + py_str(std::filesystem::absolute(ref_path).string()) + "\n";
  t += "CAND = " + py_str(std::filesystem::absolute(cand_path).string()) + "\n";
  t += "REF_CLASS, CAND_CLASS = " + py_str(r.ref_class) + ", " + py_str(r.cand_class) + "\n";
  t += std::string("KERNELBOOK = ") + (r.ref_class == "Model" ? "False" : "True") + "\n";
  t += std::string("EVAL = ") + (r.eval_mode ? "True" : "False") + "  # keq verify --eval\n";
  if (r.round_once)
    t += "# keq verify --round-once: keq rounded fp16, bf16 and fp8 values once, where\n"
         "# torch rounds after each op; here both run as they do, so a difference of the\n"
         "# last bits is torch's.\n";
  t += "DIMS = {";
  for (size_t k = 0; k < r.dims.size(); ++k) {
    const auto& [name, values] = r.dims[k];
    std::string v = values.size() == 1 ? std::to_string(values[0]) : "(";
    if (values.size() != 1) {
      for (size_t j = 0; j < values.size(); ++j) v += (j ? ", " : "") + std::to_string(values[j]);
      v += ")";  // a tuple: several values
    }
    t += (k ? ", " : "") + py_str(name) + ": " + v;
  }
  t += "}\nVALUES = {\n";
  for (const auto& [tensor, entries] : tensors)
    t += "    " + py_str(tensor) + ": {" + entries + "},\n";
  std::string idx;
  for (size_t k = 0; k < c.index.size(); ++k) idx += (k ? ", " : "") + std::to_string(c.index[k]);
  t += "}\n" + pairing_list(r.parameter_pairing);
  t += parameter_objects("REF_PARAMS", r.ref_parameter_objects);
  t += parameter_objects("CAND_PARAMS", r.cand_parameter_objects);
  t += "OUTPUT, INDEX = " + std::to_string(c.output) + ", (" + idx +
       (c.index.size() == 1 ? ",)" : ")") + "\n";
  t += R"PY(

def load(path, name):  # the file run with each size in DIMS set where the file assigns it
    tree = ast.parse(open(path).read(), path)
    body = []
    for node in tree.body:
        body.append(node)
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) else []
        for t in targets:
            for n in [n.id for n in ast.walk(t) if isinstance(n, ast.Name) and n.id in DIMS]:
                value = DIMS[n]  # a 1-tuple where the file writes one (input_shape = (4096,))
                if isinstance(t, ast.Name) and isinstance(node.value, (ast.Tuple, ast.List)) and not isinstance(value, tuple):
                    value = (value,)
                body.append(ast.copy_location(ast.parse(f"{n} = {value!r}").body[0], node))
    tree.body = body
    module = types.ModuleType(name)
    module.__file__ = path
    sys.modules[name] = module
    exec(compile(ast.fix_missing_locations(tree), path, "exec"), module.__dict__)
    return module


def fill(t, name):
    if name not in VALUES or not torch.is_tensor(t):
        return
    t.zero_()
    for index, value in VALUES[name].items():
        t[index] = value


def drawn_inputs(module):  # get_inputs() with its k-th random draw set to keq's in<k>
    real = {n: getattr(torch, n) for n in ("randn", "rand", "randint", "randn_like", "rand_like")}
    count = [0]

    def draw(f):
        def made(*a, **kw):
            t = f(*a, **kw)
            with torch.no_grad():
                fill(t, f"in{count[0]}")
            count[0] += 1
            return t
        return made

    for n, f in real.items():
        setattr(torch, n, draw(f))
    try:
        return module.get_inputs()
    finally:
        for n, f in real.items():
            setattr(torch, n, f)


def build(cls):  # the model, and every nn.Parameter some module made and holds, in creation order
    made, modules, copied, copies = [], [], set(), set()  # a deep-copied Parameter counts as its copy
    real_new, real_init = torch.nn.Parameter.__new__, torch.nn.Module.__init__
    real_deepcopy = torch.nn.Parameter.__deepcopy__

    def parameter_new(c, data=None, requires_grad=True):
        made.append(real_new(c, data, requires_grad))
        return made[-1]

    def parameter_deepcopy(self, memo):
        p = real_deepcopy(self, memo)
        if all(p is not q for q in made):
            made.append(p)
        copied.add(id(self))
        copies.add(id(p))
        return p

    def module_init(self, *a, **kw):
        real_init(self, *a, **kw)
        modules.append(self)

    torch.nn.Parameter.__new__, torch.nn.Module.__init__ = staticmethod(parameter_new), module_init
    torch.nn.Parameter.__deepcopy__ = parameter_deepcopy
    try:
        model = cls(*args, **kwargs).to(device)
    finally:
        torch.nn.Parameter.__new__, torch.nn.Module.__init__ = real_new, real_init
        torch.nn.Parameter.__deepcopy__ = real_deepcopy
    held = ({id(p) for m in modules for p in m.parameters(recurse=False)} - copied) | copies
    return model, [p for p in made if id(p) in held]


def keq_parameters(params, keq):  # {keq's index: the Parameter holding it}
    return {k: p for k, p in zip(keq, params) if k is not None}


ref, cand = load(REF, "keq_ref"), load(CAND, "keq_cand")
device = "cuda" if torch.cuda.is_available() else "cpu"
init = ref.get_init_inputs() if hasattr(ref, "get_init_inputs") else []
args, kwargs = (init[0], init[1]) if KERNELBOOK and len(init) == 2 and isinstance(init[1], dict) else (init, {})
inputs = [x.to(device) if torch.is_tensor(x) else x for x in drawn_inputs(ref)]
with torch.no_grad():
    (ref_model, ref_params), (cand_model, cand_params) = build(getattr(ref, REF_CLASS)), build(getattr(cand, CAND_CLASS))
    models = [m.eval() if EVAL else m for m in (ref_model, cand_model)]
    ref_keq = keq_parameters(ref_params, REF_PARAMS)
    for j, p in ref_keq.items():
        fill(p.data, f"p{j}")
    for k, p in keq_parameters(cand_params, CAND_PARAMS).items():
        if k >= len(PAIRING):  # a view of p<k> in another shape takes its elements in order
            named = ref_keq[k].shape if k in ref_keq and ref_keq[k].numel() == p.numel() else p.shape
            fill(p.data.view(named), f"p{k}")
        elif PAIRING[k] is None:  # a parameter of the candidate's own: 0 unless keq names it
            fill(p.data, f"c{k}")
        else:
            source = ref_keq[int(PAIRING[k][0][1:])].data
            p.data.copy_((source.t() if PAIRING[k][1] else source).reshape(p.shape))
    outs = [m(*[x.clone() if torch.is_tensor(x) else x for x in inputs]) for m in models]
outs = [o if isinstance(o, (tuple, list)) else (o,) for o in outs]
a, b = (o[OUTPUT][INDEX].item() for o in outs)
print(f"reference: {a!r}")
print(f"candidate: {b!r}")
print("differ" if (a != b and not (a != a and b != b)) else "equal")
)PY";
  return t;
}

}  // namespace keq::verify
