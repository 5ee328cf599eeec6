// libFuzzer target: the host interpreter, torch semantics and the Triton executor on small
// programs. An input is a Python file; it runs as a reference (Model) and, when it defines
// ModelNew, as a candidate against a fixed reference. Every outcome must be a program, or a
// clean UNSUPPORTED, program error, syntax error or budget stop: never a crash or a hang (each
// input gets a one-second budget).
#include <unistd.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <fstream>
#include <string>

#include "frontends/triton/program.h"
#include "tests/fuzz/line_mutator.h"
#include "ir/budget.h"
#include "ir/sexp.h"

namespace {

const std::string& scratch_file() {
  static const std::string path = "/tmp/keq_fuzz_interp_" + std::to_string(getpid()) + ".py";
  return path;
}

const std::string& reference() {  // a one-input reference: relu over [batch_size, dim]
  static const std::string path = [] {
    std::string p = "/tmp/keq_fuzz_ref_" + std::to_string(getpid()) + ".py";
    std::ofstream(p) << "import torch\nimport torch.nn as nn\n\n\nclass Model(nn.Module):\n"
                        "    def forward(self, x):\n        return torch.relu(x)\n\n\n"
                        "batch_size = 2\ndim = 3\n\n\ndef get_inputs():\n"
                        "    return [torch.randn(batch_size, dim)]\n\n\n"
                        "def get_init_inputs():\n    return []\n";
    return p;
  }();
  return path;
}

template <class F>
void guarded(F&& run) {
  keq::ir::BudgetScope budget(std::chrono::steady_clock::now() + std::chrono::seconds(1),
                              size_t{1} << 30);
  try {
    run();
  } catch (const keq::ir::SyntaxError&) {
  } catch (const keq::python::Unsupported&) {
  } catch (const keq::python::ProgramError&) {
  } catch (const keq::python::FileUnreadable&) {
  } catch (const keq::python::MissingDefinition&) {  // no Model or ModelNew: ERROR in verify
  } catch (const keq::ir::BudgetExceeded&) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 4096) return 0;  // small programs: depth, not bulk
  std::string src(reinterpret_cast<const char*>(data), size);
  std::ofstream(scratch_file(), std::ios::binary | std::ios::trunc) << src;
  keq::ir::TermStore store;
  if (src.find("class Model") != std::string::npos)
    guarded([&] { keq::torch::run_program(scratch_file(), store, "Model", {}); });
  if (src.find("ModelNew") != std::string::npos)
    guarded([&] { keq::torch::run_candidate(scratch_file(), reference(), store, {}); });
  return 0;
}
