// Cross-check against PyTorch itself. tests/crosscheck/torch_outputs.py ran every example
// reference and one snippet per op with torch 2.11 on the CPU and recorded inputs, parameters
// and outputs; here keq runs the same files, evaluates its output terms at those inputs, and
// compares, in IEEE semantics (fp32, what torch computes) and in real semantics (exact values,
// rounded only where a narrow dtype is materialized). A semantics bug fails here.
//
// The CPU run goes through tests/crosscheck/run.sh, which sets KEQ_CROSSCHECK_DIR; the GPU
// fixtures in tests/fixtures/gpu/ are checked in every build.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "frontends/triton/program.h"
#include "verify/verify.h"

namespace keq::torch {
namespace {

namespace fs = std::filesystem;

struct Record {
  std::string dtype;
  std::vector<int64_t> shape;
  std::vector<double> values;
};
struct Case {
  std::string file, ref;   // ref: for a candidate, the reference that supplies its inputs
  std::string skip;        // why the framework could not run it
  std::string class_name;  // the model class torch_outputs.py built (Model, ModelNew, KernelBook's)
  bool bits = false;       // its bits count even off the GPU (torch_outputs.py's CPU_BITS)
  Dims dims;
  std::vector<Record> inputs, params, outputs;
};

Record parse_record(std::istringstream& in, bool with_dtype) {
  Record r;
  if (with_dtype) in >> r.dtype;
  std::string shape, colon;
  in >> shape >> colon;
  if (shape != "scalar") {
    std::stringstream ss(shape);
    for (std::string d; std::getline(ss, d, 'x');) r.shape.push_back(std::stoll(d));
  }
  for (std::string v; in >> v;) r.values.push_back(std::strtod(v.c_str(), nullptr));
  return r;
}

Case read_case(const fs::path& p) {
  Case c;
  std::ifstream in(p);
  for (std::string line; std::getline(in, line);) {
    std::istringstream ls(line);
    std::string kind;
    ls >> kind;
    if (kind == "file") {
      ls >> c.file;
    } else if (kind == "ref") {
      ls >> c.ref;
    } else if (kind == "class") {
      ls >> c.class_name;
    } else if (kind == "bits") {
      c.bits = true;
    } else if (kind == "skip") {
      std::getline(ls, c.skip);
    } else if (kind == "dims") {
      std::string spec;
      ls >> spec;
      std::stringstream ss(spec);
      for (std::string kv; std::getline(ss, kv, ',');)
        if (!kv.empty())
          c.dims.push_back({kv.substr(0, kv.find('=')), {std::stoll(kv.substr(kv.find('=') + 1))}});
    } else if (kind == "input") {
      c.inputs.push_back(parse_record(ls, false));
    } else if (kind == "param") {
      c.params.push_back(parse_record(ls, false));
    } else if (kind == "output") {
      c.outputs.push_back(parse_record(ls, true));
    }
  }
  return c;
}

// A variable in3[1,2] or p0[4]: its value in the recorded tensors. The records are torch's
// Parameters; `record_of` gives the one holding each of keq's parameters, which may also number
// tensors that are no Parameter (TorchState::parameter_objects).
// A Parameter that holds keq's parameter in another shape (nn.Parameter(randn(c, 1, 1).squeeze()))
// has its elements in the same order: keq's index is flattened by keq's shape, the parameter's.
double lookup(const Case& c, const std::string& name, const std::vector<size_t>& record_of,
              const std::vector<torch::SymbolicTensor>& params) {
  bool input = name.rfind("in", 0) == 0;
  size_t open = name.find('[');
  size_t k = std::stoul(name.substr(input ? 2 : 1, open - (input ? 2 : 1)));
  if (!input) k = k < record_of.size() ? record_of[k] : SIZE_MAX;
  const auto& list = input ? c.inputs : c.params;
  if (k >= list.size()) throw std::runtime_error("no recorded tensor for " + name);
  const Record& r = list[k];
  std::vector<int64_t> idx;
  std::stringstream ss(name.substr(open + 1, name.size() - open - 2));
  for (std::string d; std::getline(ss, d, ',');) idx.push_back(std::stoll(d));
  int64_t flat = 0;
  const std::vector<int64_t>& shape =
      input ? r.shape : params.at(std::stoul(name.substr(1, open - 1))).shape;
  for (size_t d = 0; d < idx.size(); ++d) flat = flat * shape[d] + idx[d];
  return r.values.at(flat);
}

// One step of the output's format, relative: narrow formats may round to the other side of a
// tie when torch's fp32 intermediate differs from keq's in the last bit.
double tolerance(const std::string& dtype) {
  if (dtype == "float16") return 1e-3;
  if (dtype == "bfloat16") return 8e-3;
  if (dtype == "float8_e4m3fn") return 0.13;
  if (dtype == "float8_e5m2") return 0.26;
  return 1e-4;
}

bool close(double keq, double torch, double rtol) {
  if (std::isnan(keq) || std::isnan(torch)) return std::isnan(keq) && std::isnan(torch);
  if (std::isinf(keq) || std::isinf(torch)) return keq == torch;
  return std::fabs(keq - torch) <= 1e-5 + rtol * std::fabs(torch);
}

// The recorded value is an fp32 printed in full, so its bits are recoverable; NaNs of any
// payload count as one.
bool same_bits(float keq, double torch) {
  float t = static_cast<float>(torch);
  if (std::isnan(keq) || std::isnan(t)) return std::isnan(keq) && std::isnan(t);
  return std::bit_cast<uint32_t>(keq) == std::bit_cast<uint32_t>(t);
}

// Candidates Triton 3.6's interpreter (TRITON_INTERPRET=1) cannot run on the CPU; the GPU
// fixtures cover them. Anything else the framework could not run fails the test.
// Triton's interpreter does not convert fp32 to fp8 as the GPU does. Measured with
// TRITON_INTERPRET=1 (Triton 3.6): 125 -> 64, 100 -> 104, 0.0039 -> 2^-9, 464 -> NaN, 500 -> 256,
// NaN -> 384, where the H200's cvt.rn.satfinite (and torch) round to nearest even and saturate
// (SEMANTICS-FACTS.md). keq models the GPU, so against the interpreter an element whose term has
// a Triton fp8 cast is not compared; tests/fixtures/gpu/ checks those against the H200.
bool has_triton_fp8_cast(const ir::TermStore& s, ir::TermId t,
                         absl::flat_hash_map<ir::TermId, bool>& memo) {
  if (auto it = memo.find(t); it != memo.end()) return it->second;
  bool r = s.op(t) == ir::Op::CastE4M3Sat || s.op(t) == ir::Op::CastE5M2Sat;
  for (ir::TermId k : s.children(t)) r = r || has_triton_fp8_cast(s, k, memo);
  memo[t] = r;
  return r;
}

// Cases Triton's interpreter runs though Triton 3.6 compiling for the H200 refuses them: keq
// raises as the compiler does, and the interpreter's outputs are no check of it.
const std::set<std::string> kCompilerRefusesWhatInterpreterRuns = {
    // its global LOG2E is annotated tl.constexpr but is not one (Interp::check_kernel_global)
    "cand_softmax_rows_exp2.case",
};

// Cases whose types the interpreter gives otherwise than the compiled kernel: it passes a float
// argument as a Python float, which promotes weakly (an fp16 block times it stays fp16), where
// the compiled kernel has an fp32 scalar (its prototype's typed arguments); and it passes an int
// argument equal to 1 as an int32 scalar, where the compiler specializes it into the constexpr 1,
// weak (an int8 block plus it stays int8). keq models the GPU, whose recordings of these cases
// (tests/fixtures/gpu/) check them.
const std::set<std::string> kInterpreterTypesArgumentsOtherwise = {
    "cand_fp16_block_times_float_argument.case",
    "cand_int8_block_plus_int_argument_one.case",
};

// (Loops over a runtime int and scalar running maxima ran here only once scripts/test-venv.sh
// pinned numpy below 2.4, whose int() of a 1-element array the interpreter relies on.)
const std::set<std::string> kInterpreterCannotRun = {
    // torch.cuda.Event timings need a GPU: "Found no NVIDIA driver" on the CPU
    "cand_timed_autotune_seven_configs.case",
    // @triton.autotune benchmarks on a GPU: "0 active drivers" under the interpreter
    "cand_relu_autotune.case",
    "cand_row_sum_autotune_block_too_small.case",
    "cand_autotune_atomic_reset_to_zero.case",
    "cand_autotune_config_pre_hook_zero.case",
    "cand_autotuner_subclass_rms_scale.case",
    // (these two are measured on the GPU instead: tests/fixtures/gpu/autotune_bench_skips.txt)
    "cand_autotune_config_out_of_resources_skipped.case",
    "cand_autotune_config_arange_not_power_of_two.case",
    // libdevice calls are extern: the interpreter returns None for them
    "cand_gelu_tanh_libdevice.case",
    "cand_softplus_log1p.case",
    "cand_int8_per_token_quant.case",
    "cand_int8_per_token_quant_scale_128.case",
    "cand_int8_per_token_quant_round_away.case",
    // the interpreter passes scalar kernel arguments as Python numbers, which have no .to; on the
    // GPU they are 0-d blocks (tests/fixtures/gpu/ has this candidate's CUDA run)
    "cand_tl_clamp_cast_scalar_to.case",
    // the candidate raises: the autotuner refuses BLOCK at launch (ValueError), as keq says
    "cand_autotune_constexpr_also_at_launch.case",
    // the candidate raises: its host-chosen block of 192 channels is no power of two for
    // tl.arange ("arange's range must be a power of 2"), as keq says
    "cand_softmax_channel_block_from_host.case",
    // its asserts say where torch puts tensors on a GPU machine; on the CPU all are there
    "cand_relu_device_moves.case",
};

std::vector<int64_t> without_ones(std::vector<int64_t> shape) {
  std::erase(shape, 1);
  return shape;
}

// Where keq's terms for the recorded inputs miss the recorded outputs, one message each
// (inputs, parameters and outputs matched by creation order and shape first).
std::vector<std::string> mismatches(const Case& c, const Program& p, ir::TermStore& store,
                                    bool bit_exact, bool interpreter, size_t& elements) {
  absl::flat_hash_map<ir::TermId, bool> fp8_memo;
  std::vector<std::string> bad;
  auto expect = [&](bool ok, const std::string& what) {
    if (!ok) bad.push_back(what);
    return ok;
  };
  std::vector<size_t> record_of(p.state.parameters.size(), SIZE_MAX);
  const auto& objects = p.state.parameter_objects;
  for (size_t k = 0; k < record_of.size(); ++k) record_of[k] = k;
  if (objects.size() == c.params.size() && objects.size() != record_of.size()) {
    std::fill(record_of.begin(), record_of.end(), SIZE_MAX);
    for (size_t j = 0; j < objects.size(); ++j)
      if (objects[j].parameter >= 0) record_of.at(static_cast<size_t>(objects[j].parameter)) = j;
  }
  if (!expect(p.state.inputs.size() == c.inputs.size(), "inputs: count differs") ||
      !expect(objects.size() == c.params.size() || p.state.parameters.size() == c.params.size(),
              "parameters (matched by creation order): count differs"))
    return bad;
  for (size_t k = 0; k < c.inputs.size(); ++k)
    expect(p.state.inputs[k].shape == c.inputs[k].shape, "input " + std::to_string(k) + " shape");
  for (size_t k = 0; k < record_of.size(); ++k)
    if (record_of[k] != SIZE_MAX)
      expect(
          without_ones(p.state.parameters[k].shape) == without_ones(c.params[record_of[k]].shape),
          "param " + std::to_string(k) + " shape");
  expect(p.outputs.size() == c.outputs.size(), "outputs: count differs");
  auto value = [&](const ir::Variable& v) {
    return v.type == ir::Type::F32
               ? ir::Constant::of_float(lookup(c, v.name, record_of, p.state.parameters))
               : ir::Constant::of_int(v.type, static_cast<int64_t>(lookup(c, v.name, record_of,
                                                                          p.state.parameters)));
  };
  // A zero's sign that is the kernel's (ieee_zero_sign) is not compared bit for bit either.
  std::map<ir::TermId, std::string> unfixed = p.state.ieee_unfixed;
  unfixed.insert(p.state.ieee_zero_sign.begin(), p.state.ieee_zero_sign.end());
  absl::flat_hash_map<ir::TermId, std::string> memo;
  for (size_t o = 0; o < std::min(p.outputs.size(), c.outputs.size()); ++o) {
    const Record& want = c.outputs[o];
    const Tensor& got = *p.outputs[o];
    expect(std::string(torch::dtype_name(got.dtype)) == want.dtype,
           "output " + std::to_string(o) + " dtype");
    if (!expect(got.shape == want.shape, "output " + std::to_string(o) + " shape")) continue;
    for (size_t e = 0; e < got.elems.size(); ++e, ++elements) {
      ir::TermId t = got.elems[e];
      ir::IeeeValue iv = ir::evaluate_ieee(store, t, [&](const ir::Variable& v) {
        return std::optional(ir::IeeeValue::of(value(v)));
      });
      double ieee = iv.type == ir::Type::F32 ? iv.f : static_cast<double>(iv.i);
      // A real value past the evaluator's exponents (e^-1e30 from a finite sentinel, in
      // examples/logsumexp_finite_sentinel) has no double to compare: the IEEE value is checked.
      std::optional<double> real;
      try {
        ir::RealValue rv = ir::evaluate_real(store, t, [&](const ir::Variable& v) {
          return std::optional(ir::RealValue::of(value(v)));
        });
        real = rv.type == ir::Type::F32 ? rv.f.approx_double() : static_cast<double>(rv.i);
      } catch (const ir::EvalError&) {
      }
      // --semantics ieee reports a difference as NOT_EQUIVALENT on the strength of this
      // evaluation, so where it claims bit-exactness (no approximation in the term) it must
      // match the framework's fp32 bits, not merely come close.
      bool exact = bit_exact && want.dtype == "float32" && iv.type == ir::Type::F32 &&
                   verify::ieee_approximation(store, t, unfixed, memo).empty();
      double rtol = tolerance(want.dtype);
      // cuDNN's recurrent kernels run in TF32 on the GPU (torch.backends.cudnn.allow_tf32 is
      // True by default): a GRU's outputs on an H100 differ from the exact fp32 math by up to
      // 7.5e-3 relative (tests/fixtures/gpu/op_gru*.case, recorded 2026-12-08).
      if (auto u = unfixed.find(t);
          u != unfixed.end() && u->second.find("TF32") != std::string::npos)
        rtol = std::max(rtol, 2e-2);
      if (interpreter && has_triton_fp8_cast(store, t, fp8_memo)) continue;
      for (auto [got_v, sem] : {std::pair{ieee, "ieee"}, {real.value_or(ieee), "real"}}) {
        if (!real && sem == std::string("real")) continue;
        bool ok = exact && sem == std::string("ieee") ? same_bits(iv.f, want.values[e])
                                                      : close(got_v, want.values[e], rtol);
        if (!ok) {
          std::ostringstream m;
          m.precision(17);
          m << "output " << o << " element " << e << ": keq (" << sem << (exact ? ", exact" : "")
            << ") " << got_v << ", torch " << want.values[e] << "\n  term: " << store.str(t, 300);
          bad.push_back(m.str());
        }
      }
    }
  }
  return bad;
}

// Checks every .case of a folder (recorded in Triton's interpreter, or on the GPU), bit for bit
// where bit_exact says the IEEE evaluation must be
// exact; returns the number of cases.
size_t check_folder(const fs::path& dir, bool bit_exact, bool interpreter) {
  size_t cases = 0, elements = 0;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().extension() != ".case") continue;
    ++cases;
    Case c = read_case(entry.path());
    if (!c.skip.empty()) {
      // (On the GPU, Triton's compiler refuses what the interpreter runs: a skip there too.)
      EXPECT_TRUE(kInterpreterCannotRun.count(entry.path().filename().string()) ||
                  kCompilerRefusesWhatInterpreterRuns.count(entry.path().filename().string()))
          << entry.path().filename() << ": the framework could not run it:" << c.skip;
      continue;
    }
    if (interpreter && kInterpreterTypesArgumentsOtherwise.count(entry.path().filename().string()))
      continue;
    c.file = (c.file.rfind("examples/", 0) == 0 ? fs::path(KEQ_SOURCE_DIR) : dir) / c.file;
    if (!c.ref.empty()) c.ref = fs::path(KEQ_SOURCE_DIR) / c.ref;
    SCOPED_TRACE(entry.path().filename().string() + " (" + c.file + ")");
    const bool refused =
        kCompilerRefusesWhatInterpreterRuns.count(entry.path().filename().string());
    // The GPU's autotuner benchmarks every config and keeps the fastest: the recorded outputs
    // are those of some config, so the case holds when one config's terms compute them all.
    std::vector<std::string> bad;
    for (size_t config = 0;; ++config) {
      ir::TermStore store;
      Program p;
      try {
        std::string cls = !c.class_name.empty() ? c.class_name
                          : c.ref.empty()       ? "Model"
                                                : "ModelNew";
        p = c.ref.empty() ? run_program(c.file, store, cls, c.dims)
                          : run_candidate(c.file, c.ref, store, c.dims, false, cls, config);
      } catch (const std::exception& e) {
        bad = {e.what()};
        if (refused) bad.clear();
        break;
      }
      if (refused) {
        ADD_FAILURE() << "keq ran what Triton's compiler refuses";
        break;
      }
      bad = mismatches(c, p, store, bit_exact || c.bits, interpreter, elements);
      if (bad.empty() || config + 1 >= p.state.autotune_configs) break;
    }
    for (const auto& m : bad) ADD_FAILURE() << m;
  }
  std::printf("cross-checked %zu cases, %zu output elements in %s\n", cases, elements,
              dir.string().c_str());
  return cases;
}

// Recorded on the GPU machine (tests/fixtures/README.md): CUDA's numerics, where they differ
// from the CPU's, are the ones that count, so --semantics ieee must match them bit for bit.
// (The CPU differs: torch.sqrt is 1 ulp off correct rounding there, softshrink gives -0.)
TEST(TorchCrossCheck, KeqTermsComputeWhatCudaComputes) {
  EXPECT_GE(check_folder(fs::path(KEQ_SOURCE_DIR) / "tests/fixtures/gpu", true, false), 100u);
}

// The same run with a quarter of each float input -0.0 and a quarter +0.0 (torch_outputs.py
// --zeros): every zero's sign in keq's IEEE terms is the H200's.
TEST(TorchCrossCheck, KeqTermsComputeWhatCudaComputesOnSignedZeros) {
  EXPECT_GE(check_folder(fs::path(KEQ_SOURCE_DIR) / "tests/fixtures/gpu/zeros", true, false), 100u);
}

// And with +inf, -inf and NaN among randn's draws (--nonfinite; keq verify --nonfinite-inputs).
TEST(TorchCrossCheck, KeqTermsComputeWhatCudaComputesOnNonfiniteInputs) {
  EXPECT_GE(check_folder(fs::path(KEQ_SOURCE_DIR) / "tests/fixtures/gpu/nonfinite", true, false),
            100u);
}

TEST(TorchCrossCheck, KeqTermsComputeWhatTorchComputesOnTheCpu) {
  const char* dir = std::getenv("KEQ_CROSSCHECK_DIR");
  if (!dir) GTEST_SKIP() << "KEQ_CROSSCHECK_DIR is not set: run tests/crosscheck/run.sh";
  EXPECT_GE(check_folder(dir, false, true), 100u);
}

}  // namespace
}  // namespace keq::torch
