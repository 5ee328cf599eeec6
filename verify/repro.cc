// --repro: a counterexample as a Python script the user runs on their own machine (keq never
// runs Python). It sets the configuration's sizes, builds the inputs and parameters the
// counterexample names (every other element 0: the differing element does not depend on them),
// runs the two models (Model and ModelNew, or KernelBook's X and XNew), and prints both values at
// the differing element.
#include <filesystem>
#include <map>

#include "verify/verify.h"

namespace keq::verify {
namespace {

std::string py_float(const std::string& v) {
  if (v == "nan" || v == "-nan") return "float('nan')";
  if (v == "inf") return "float('inf')";
  if (v == "-inf") return "float('-inf')";
  return v;
}

std::string py_index(const std::string& name) {  // "in0[1,2]" -> "(1, 2)"; "s" -> "()"
  size_t open = name.find('[');
  if (open == std::string::npos) return "()";
  std::string inner = name.substr(open + 1, name.size() - open - 2), out = "(";
  for (char c : inner) out += c == ',' ? std::string(", ") : std::string(1, c);
  return out + (inner.find(',') == std::string::npos ? ",)" : ")");
}

std::string py_str(const std::string& s) {
  std::string out = "\"";
  for (char c : s) out += (c == '"' || c == '\\') ? std::string("\\") + c : std::string(1, c);
  return out + "\"";
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
      "# Inputs and parameters keq names are set; every other element is 0. Parameters are\n"
      "# assigned in Module.parameters() order, which is their creation order for the usual\n"
      "# modules (keq matches them that way). Sizes written as literals in get_inputs()\n"
      "# (literal@LINE:COL in the bound) cannot be set from here.\n"
      "import importlib.util\n\nimport torch\n\n";
  t += "REF = " + py_str(std::filesystem::absolute(ref_path).string()) + "\n";
  t += "CAND = " + py_str(std::filesystem::absolute(cand_path).string()) + "\n";
  t += "REF_CLASS, CAND_CLASS = " + py_str(r.ref_class) + ", " + py_str(r.cand_class) + "\n";
  t += std::string("KERNELBOOK = ") + (r.ref_class == "Model" ? "False" : "True") + "\n";
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
  t += "}\nOUTPUT, INDEX = " + std::to_string(c.output) + ", (" + idx +
       (c.index.size() == 1 ? ",)" : ")") + "\n";
  t += R"PY(

def load(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    for k, v in DIMS.items():
        if hasattr(module, k) and not k.startswith("literal@"):
            setattr(module, k, v)
    return module


def fill(t, name):
    if name not in VALUES or not torch.is_tensor(t):
        return
    t.zero_()
    for index, value in VALUES[name].items():
        t[index] = value


ref, cand = load(REF, "keq_ref"), load(CAND, "keq_cand")
device = "cuda" if torch.cuda.is_available() else "cpu"
init = ref.get_init_inputs() if hasattr(ref, "get_init_inputs") else []
args, kwargs = (init[0], init[1]) if KERNELBOOK and len(init) == 2 and isinstance(init[1], dict) else (init, {})
inputs = [x.to(device) if torch.is_tensor(x) else x for x in ref.get_inputs()]
with torch.no_grad():
    for i, x in enumerate(inputs):
        fill(x, f"in{i}")
    models = [getattr(ref, REF_CLASS)(*args, **kwargs).to(device),
              getattr(cand, CAND_CLASS)(*args, **kwargs).to(device)]
    for m in models:
        for j, p in enumerate(m.parameters()):
            fill(p.data, f"p{j}")
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
