// Code generation: one struct per check (its inputs and its evaluation, statements in
// topological order, each op through its op-table `cuda` function), and a main() that sweeps
// them. The runtime (runtime.cuh) supplies the functions and the sweep.
#include <absl/container/flat_hash_map.h>

#include <cinttypes>
#include <cmath>
#include <cstring>
#include <sstream>

#include "runner/runner.h"

namespace keq::runner {

namespace {

using ir::Op;
using ir::TermId;
using ir::Type;

struct FormatRow {
  InputFormat format;
  std::string_view name;
  int bits;
  std::string_view decode;  // runtime function from bit pattern to value, "" for identity
};
constexpr FormatRow kFormats[] = {
    {InputFormat::F32, "f32", 32, "keq_float"},
    {InputFormat::F16, "f16", 16, "keq_from_f16_bits"},
    {InputFormat::BF16, "bf16", 16, "keq_from_bf16_bits"},
    {InputFormat::E4M3, "e4m3", 8, "keq_from_e4m3_bits"},
    {InputFormat::E5M2, "e5m2", 8, "keq_from_e5m2_bits"},
    {InputFormat::I32, "i32", 32, "static_cast<int32_t>"},
    {InputFormat::I64, "i64", 64, "static_cast<int64_t>"},
    {InputFormat::Bool, "bool", 1, ""},
};
const FormatRow& row(InputFormat f) {
  return kFormats[static_cast<int>(f)];
}

std::string hex32(uint32_t b) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%08" PRIx32 "u", b);
  return buf;
}
std::string hex64(uint64_t b) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%016" PRIx64 "ull", b);
  return buf;
}
uint32_t float_bits(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}
uint64_t double_bits(double d) {
  uint64_t b;
  std::memcpy(&b, &d, 8);
  return b;
}

// The special fp32 inputs every sampled check starts from, then each constant of the check and
// its fp32 neighbours (with their negations): where rules break.
std::vector<uint32_t> specials(const ir::TermStore& s, const Check& c) {
  std::vector<float> v = {0.0f,    -0.0f,           1.0f,          -1.0f,          0.5f,    2.0f,
                          3.0f,    -3.0f,           INFINITY,      -INFINITY,      NAN,     1e-45f,
                          -1e-45f, 1.17549435e-38f, 3.4028235e38f, -3.4028235e38f, 1e-30f,  1e30f,
                          0.1f,    448.0f,          57344.0f,      65504.0f,       65520.0f};
  std::vector<TermId> stack = {c.lhs, c.rhs};
  if (c.assume) stack.push_back(*c.assume);
  absl::flat_hash_map<TermId, bool> seen;
  while (!stack.empty()) {
    TermId t = stack.back();
    stack.pop_back();
    if (!seen.emplace(t, true).second) continue;
    if (s.op(t) == Op::Const && s.type(t) == Type::F32) {
      float k = static_cast<float>(s.constant_of(t).f);
      for (float x : {k, std::nextafter(k, INFINITY), std::nextafter(k, -INFINITY)})
        v.insert(v.end(), {x, -x});
    }
    for (TermId k : s.children(t)) stack.push_back(k);
  }
  std::vector<uint32_t> out;
  for (float x : v) {
    uint32_t b = float_bits(x);
    if (std::find(out.begin(), out.end(), b) == out.end()) out.push_back(b);
  }
  return out;
}

// How many combinations of special values a sampled check enumerates first: all of them when
// that leaves most of the samples random.
uint64_t special_combinations(size_t n_specials, const Check& c, uint64_t count) {
  uint64_t combos = 1;
  for (const Input& in : c.inputs) {
    uint64_t n = in.format == InputFormat::F32 ? n_specials : 1;
    if (combos > count / 2 / n) return 0;
    combos *= n;
  }
  return combos;
}

class Writer {
 public:
  Writer(const ir::TermStore& s, const Check& c, std::ostringstream& out)
      : s_(s), c_(c), out_(out), real_(c.semantics == ir::Semantics::Real) {}

  void check_struct(int id, const Plan& plan) {
    out_ << "struct Check" << id << " {  // " << c_.name << "\n";
    out_ << "  static constexpr int kVars = " << c_.inputs.size() << ";\n";
    out_ << "  static constexpr bool kReal = " << (real_ ? "true" : "false") << ";\n";
    out_ << "  using Result = " << type_name(s_.type(c_.lhs)) << ";\n";
    inputs(plan);
    eval();
    out_ << "};\n\n";
  }

 private:
  std::string type_name(Type t) const {
    switch (t) {
      case Type::F32:
        return real_ ? "double" : "float";
      case Type::I32:
        return "int32_t";
      case Type::I64:
        return "int64_t";
      case Type::Bool:
        return "bool";
    }
    return "?";
  }

  void inputs(const Plan& plan) {
    out_ << "  KEQ_HD static void inputs(uint64_t i, uint64_t seed, uint64_t* v) {\n";
    out_ << "    (void)i; (void)seed; (void)v;\n";
    if (plan.exhaustive) {
      out_ << "    uint64_t r = i;\n";
      for (size_t k = 0; k < c_.inputs.size(); ++k) {
        const FormatRow& f = row(c_.inputs[k].format);
        std::string digit = "static_cast<uint32_t>(r & " + hex64((1ull << f.bits) - 1) + ")";
        if (f.bits == 64) digit = "r";
        out_ << "    v[" << k << "] = " << decode(f, digit) << ";\n";
        if (f.bits < 64) out_ << "    r >>= " << f.bits << ";\n";
      }
    } else {
      std::vector<uint32_t> sp = specials(s_, c_);
      uint64_t combos = special_combinations(sp.size(), c_, plan.count);
      out_ << "    const uint32_t kSpecial[" << sp.size() << "] = {";
      for (size_t k = 0; k < sp.size(); ++k) out_ << (k ? ", " : "") << hex32(sp[k]);
      out_ << "};\n";
      out_ << "    uint64_t r = i;\n";
      for (size_t k = 0; k < c_.inputs.size(); ++k) {
        const FormatRow& f = row(c_.inputs[k].format);
        out_ << "    {\n      uint64_t h = keq_mix(seed * 0x2545f4914f6cdd1dull + i * "
             << c_.inputs.size() << " + " << k << ");\n";
        if (c_.inputs[k].format == InputFormat::F32) {
          out_ << "      if (i < " << combos << "ull) { v[" << k << "] = kSpecial[r % " << sp.size()
               << "]; r /= " << sp.size() << "; }\n";
          out_ << "      else if ((h >> 8) % 5 == 0) v[" << k << "] = kSpecial[(h >> 16) % "
               << sp.size() << "];\n";
          out_ << "      else v[" << k << "] = keq_bits(keq_random_f32(h));\n";
        } else if (f.format == InputFormat::I32 || f.format == InputFormat::I64) {
          // Small values half the time: shift amounts, divisors, indices.
          std::string small = "static_cast<int64_t>((h >> 16) % 81) - 40";
          out_ << "      v[" << k << "] = (h >> 8) % 2 ? static_cast<uint64_t>(" << small
               << ") : " << decode(f, f.bits == 64 ? "h" : "static_cast<uint32_t>(h >> 32)")
               << ";\n";
        } else {
          std::string digit =
              f.bits == 64 ? "h" : "static_cast<uint32_t>(h & " + hex64((1ull << f.bits) - 1) + ")";
          out_ << "      v[" << k << "] = " << decode(f, digit) << ";\n";
        }
        out_ << "    }\n";
      }
    }
    out_ << "  }\n";
  }

  // An input's bits (fp32 bits of a float, the two's complement of an integer) from a digit.
  static std::string decode(const FormatRow& f, const std::string& digit) {
    switch (f.format) {
      case InputFormat::Bool:
        return "static_cast<uint64_t>(" + digit + " & 1)";
      case InputFormat::I32:
        return "static_cast<uint64_t>(static_cast<int64_t>(static_cast<int32_t>(" + digit + ")))";
      case InputFormat::I64:
        return "static_cast<uint64_t>(" + digit + ")";
      default:
        return "static_cast<uint64_t>(keq_bits(" + std::string(f.decode) + "(" + digit + ")))";
    }
  }

  void eval() {
    out_ << "  KEQ_HD static int eval(const uint64_t* v, Result& lhs, Result& rhs) {\n";
    out_ << "    bool u = false;\n    (void)u;\n";
    for (size_t k = 0; k < c_.inputs.size(); ++k) {
      TermId x = c_.inputs[k].var;
      std::string name = "t" + std::to_string(x);
      Type t = s_.type(x);
      std::string vk = "v[" + std::to_string(k) + "]";
      std::string init = t == Type::Bool  ? vk + " != 0"
                         : t == Type::F32 ? "static_cast<" + type_name(t) +
                                                ">(keq_float(static_cast<uint32_t>(" + vk + ")))"
                                          : "static_cast<" + type_name(t) + ">(" + vk + ")";
      out_ << "    const " << type_name(t) << " " << name << " = " << init << ";\n";
      emitted_.emplace(x, name);
    }
    if (c_.assume) {
      std::string cond = emit(*c_.assume);
      out_ << "    if (!" << cond << ") return kKeqSkipped;\n";
    }
    std::string l = emit(c_.lhs), r = emit(c_.rhs);
    out_ << "    lhs = keq_opaque(" << l << ");\n    rhs = keq_opaque(" << r << ");\n";
    out_ << "    if (u) return kKeqUndefined;\n";
    out_ << "    return keq_compare(lhs, rhs);\n  }\n";
  }

  std::string constant(TermId t) const {
    const ir::Constant& k = s_.constant_of(t);
    switch (k.type) {
      case Type::F32:
        if (real_) return "keq_double(" + hex64(double_bits(k.f)) + ")";
        return "keq_float(" + hex32(float_bits(static_cast<float>(k.f))) + ")";
      case Type::I32:
        return "static_cast<int32_t>(" + std::to_string(k.i) + ")";
      case Type::I64:
        return "static_cast<int64_t>(" + std::to_string(k.i) + "ll)";
      case Type::Bool:
        return k.i ? "true" : "false";
    }
    return "?";
  }

  // The name holding t's value, emitting statements for it and its operands first (post-order
  // with an explicit stack: a scalar accumulator over a wide row is as deep as the row is long).
  std::string emit(TermId root) {
    std::vector<std::pair<TermId, bool>> stack{{root, false}};
    while (!stack.empty()) {
      auto [t, expanded] = stack.back();
      stack.pop_back();
      if (emitted_.contains(t)) continue;
      Op op = s_.op(t);
      if (op == Op::Var)
        throw ir::TypeError("variable " + s_.variable_of(t).name + " is not an input of the check");
      if (op == Op::Const) {
        emitted_.emplace(t, constant(t));
        continue;
      }
      if (!expanded) {
        stack.push_back({t, true});
        auto kids = s_.children(t);
        for (auto k = kids.rbegin(); k != kids.rend(); ++k) stack.push_back({*k, false});
        continue;
      }
      statement(t);
    }
    return emitted_.at(root);
  }

  // t's statement, its operands emitted.
  void statement(TermId t) {
    const ir::OpInfo& info = ir::op_info(s_.op(t));
    if (info.cuda.empty())
      throw ir::TypeError("op " + std::string(info.name) +
                          " has no CUDA form: " + std::string(info.no_cuda));
    std::vector<std::string> args;
    for (TermId k : s_.children(t)) {
      const std::string& a = emitted_.at(k);
      // An extremum of a multiset is that of its set (NaN aside, whose payload no comparison
      // reads): a masked 1024-lane reduction's padding constants appear once.
      if (info.variadic && info.is_extremum() &&
          std::find(args.begin(), args.end(), a) != args.end())
        continue;
      args.push_back(a);
    }
    std::string tail = info.cuda_may_fail ? ", u)" : ")";
    std::string name = "t" + std::to_string(t), type = type_name(s_.type(t));
    if (info.variadic) {  // a left fold, one statement per operand: a 1024-lane reduction nested
                          // as one expression takes nvcc minutes
      out_ << "    " << type << " " << name << " = " << args[0] << ";\n";
      for (size_t k = 1; k < args.size(); ++k)
        out_ << "    " << name << " = " << info.cuda << "(" << name << ", " << args[k] << tail
             << ";\n";
    } else {
      out_ << "    const " << type << " " << name << " = " << info.cuda << "(";
      for (size_t k = 0; k < args.size(); ++k) out_ << (k ? ", " : "") << args[k];
      out_ << tail << ";\n";
    }
    emitted_.emplace(t, name);
  }

  const ir::TermStore& s_;
  const Check& c_;
  std::ostringstream& out_;
  bool real_;
  absl::flat_hash_map<TermId, std::string> emitted_;
};

}  // namespace

std::string_view format_name(InputFormat f) {
  return row(f).name;
}
std::optional<InputFormat> format_by_name(std::string_view name) {
  for (const FormatRow& f : kFormats)
    if (f.name == name) return f.format;
  return std::nullopt;
}
int format_bits(InputFormat f) {
  return row(f).bits;
}

Plan plan_for(const Check& c, const RunOptions& opt) {
  int bits = 0;
  for (const Input& in : c.inputs) bits += format_bits(in.format);
  uint64_t total = bits >= 64 ? ~0ull : 1ull << bits;
  if (bits < 64 && (total <= opt.samples || (opt.exhaustive && total <= opt.max_exhaustive)))
    return {total, true};
  return {opt.samples, false};
}

std::string generate(const ir::TermStore& s, std::span<const Check> checks,
                     std::span<const Plan> plans) {
  std::ostringstream out;
  out << "// Generated by keq (runner/codegen.cc): " << checks.size() << " checks.\n";
  out << "#include \"runtime.cuh\"\n\n";
  for (size_t k = 0; k < checks.size(); ++k)
    Writer(s, checks[k], out).check_struct(static_cast<int>(k), plans[k]);
  out << "int main(int argc, char** argv) {\n";
  out << "  uint64_t seed = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 1;\n";
  out << "  int points = argc > 2 ? std::atoi(argv[2]) : 32;\n";
  out << "  int only = argc > 3 ? std::atoi(argv[3]) : -1;\n";
  out << "  keq_print_device();\n";
  for (size_t k = 0; k < checks.size(); ++k)
    out << "  if (only < 0 || only == " << k << ") keq_run<Check" << k << ">(" << k << ", "
        << plans[k].count << "ull, seed, points);\n";
  out << "  return 0;\n}\n";
  return out.str();
}

}  // namespace keq::runner
