// keq verify: the pipeline of verify/ for each --dims configuration, combined.
#include <sched.h>
#include <sys/resource.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <string>
#include <thread>

#include "cli/commands.h"
#include "cli/options.h"
#include "cli/watchdog.h"
#include "ir/sexp.h"
#include "verify/verify.h"

namespace keq::cli {

namespace {

// The last guard behind the cooperative budget: an address-space cap well above it, so a
// runaway allocation fails (std::bad_alloc: UNKNOWN) instead of the machine killing keq.
void limit_address_space(size_t budget) {
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
  return;  // ASan reserves terabytes of shadow address space: a cap would break it
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
  return;
#endif
  if (budget == 0) return;
  size_t cap = std::max(2 * budget, budget + (size_t{4} << 30));
  struct rlimit rl;
  if (getrlimit(RLIMIT_AS, &rl) == 0 && (rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur > cap)) {
    rl.rlim_cur = cap;
    setrlimit(RLIMIT_AS, &rl);
  }
}

// The CPUs this process may run on: its affinity mask, capped by a cgroup CPU quota (v2's
// cpu.max, v1's cfs quota). hardware_concurrency() counts the host's, which in a container
// limited to 2 CPUs of 64 ran 34 Z3 queries at once, each with a 34th of a share.
size_t usable_cpus() {
  cpu_set_t set;
  size_t n = sched_getaffinity(0, sizeof set, &set) == 0
                 ? static_cast<size_t>(CPU_COUNT(&set))
                 : std::max(1u, std::thread::hardware_concurrency());
  auto quota = [](const char* path, const char* period_path) -> std::optional<double> {
    std::ifstream in(path);
    std::string q, p;
    if (!(in >> q) || q == "max" || q == "-1") return std::nullopt;
    if (!(in >> p)) {  // v1: the period is its own file
      std::ifstream pin(period_path);
      if (!(pin >> p)) return std::nullopt;
    }
    double quota = std::atof(q.c_str()), period = std::atof(p.c_str());
    if (quota <= 0 || period <= 0) return std::nullopt;
    return quota / period;
  };
  for (auto cpus :
       {quota("/sys/fs/cgroup/cpu.max", ""),
        quota("/sys/fs/cgroup/cpu/cpu.cfs_quota_us", "/sys/fs/cgroup/cpu/cpu.cfs_period_us")})
    if (cpus) n = std::min(n, static_cast<size_t>(std::max(1.0, std::ceil(*cpus))));
  return std::max<size_t>(1, n);
}

// The watchdog's report: the run overran --timeout in `stage` (cli/watchdog.h).
int report_overrun(const std::vector<std::string>& files, const std::string& json_path,
                   const std::string& provenance, const char* stage, double over_s) {
  verify::Report r;
  r.verdict = verify::Verdict::Unknown;
  r.bound = "the configuration running at the deadline";
  char what[200];
  std::snprintf(what, sizeof what,
                "keq overran --timeout by %.1f s in its %s stage (one that did not poll the "
                "deadline) and was stopped",
                over_s, stage);
  r.reason = what;
  std::fputs(verify::to_text({r}, r.verdict, provenance).c_str(), stdout);
  if (!json_path.empty()) {
    std::ofstream out(json_path);
    out << verify::to_json(files[0], files[1], {r}, r.verdict, provenance);
  }
  return verify::exit_code(r.verdict);
}

const char* const kHelp =
    R"(usage: keq verify REF.py CAND.py [--dims name=value,...]... [--timeout SECONDS]
                  [--params initial|symbolic] [--no-egraph] [--no-smt] [--seed N] [--json FILE]
                  [--autotune-config K] [--jobs N] [--explain OUTPUT:I,J,...]
                  [--nonfinite-inputs] [--any-inputs] [--round-once] [--semantics real|ieee] [--eval]
                  [--exhaustive] [--device cpu|cuda] [--cuda-arch ARCH]
                  [--max-memory SIZE] [--repro FILE] [--python-path DIR]... [--venv DIR]
                  [--ref-class NAME] [--cand-class NAME]

Checks that CAND.py's ModelNew (with its @triton.jit kernels) computes what REF.py's Model
computes, for every input get_inputs() can produce, at the sizes --dims gives. KernelBook's files
(no Model) pair the reference's class X with the candidate's XNew (or a candidate's ModelNew
with the reference's one nn.Module class, or of several the one no other class names), and
their get_init_inputs() returns [args, kwargs]. --ref-class and --cand-class name the classes
where that choice is not the one meant (or there is none: two modules no other class names).
Neither file is run: both are executed symbolically. Stages: output shapes and dtypes, the kernels' memory
findings, pair dedup, inert clamps (a logsumexp's sum clamped at most at 1 before its log is
the sum: one of its terms is exp(0)), argmax/argmin chains (a running argmax over blocks against torch's, read as
the same first-extreme entries), the e-graph (real-semantics rules and normal forms; first, for
pairs whose sides share most of their terms, as where a kernel replaces one activation inside
torch layers, each place where they differ proved alone with the shared subterms as variables),
a witness search, a case
split of pairs whose branches compare one value with constants (each piece proved by the e-graph
or by both sides enclosing one point there, as where a clamp saturates; pairs that differ only by
exp of arguments below -1e4, a finite sentinel such as -1e30 where -inf belongs, are UNKNOWN with
that reason: positive over the reals, tinier than any float; a finite sentinel in a min or max
that another operand always passes, as -1e30 before a max-pool of hardswish values, is read as
absent), then Z3 on what is left (an exact encoding of a fragment: arithmetic, comparisons, select,
max/min, exp/log/sqrt/tanh/sigmoid/erf through uninterpreted functions with true facts; division,
log and sqrt only where Z3 proves their arguments in range; integers wrapping at their width,
casts, rounding to integers, bitcasts; infinite constants as extended reals; frexp, ldexp and
NaN constants stay outside, UNKNOWN with that reason). Every counterexample is replayed
in interval arithmetic (outward rounding, 256 bits, raised to 8192) and reported only when the
two sides' enclosures are disjoint. A Z3 model that leans on values of exp, exp2, log2 or
erf the real functions do not take is refined (the true values at its points are added) and Z3
is asked again, up to 8 times. Of the points that refute a pair, the search keeps the one
whose sides differ most relative to their size, so that a bug beside a rounding (a missing
factor that is 1 where a 1/6 rounded to float32 shows) is shown plainly; where both sides of
the counterexample round to the same float32, a note says the difference is past float32's
resolution there.

Parameters are paired in creation order (KernelBench seeds both models alike); a candidate's
float32 parameter held in float16 or bfloat16 is the reference's, rounded. Where creation order
does not pair them (shapes differ, or counts differ and shapes allow several pairings), every
pairing by shape of the reference's parameters with those the candidate's outputs use is
checked, those that keep creation order first, up to 24 (shapes may differ in sizes of 1, and a
2-D weight may be held transposed): EQUIVALENT where one proves, NOT_EQUIVALENT where every one
has a counterexample (no such loading of the reference's weights makes the candidate agree); a
parameter paired with nothing is a variable of its own, and a counterexample that sets one of
the candidate's is no evidence. The notes name the pairing.

Semantics (DESIGN.md; every report names the one used):
  real (default)  fp32 arithmetic exact over the extended reals, rounding only into narrow
                  dtypes; transcendentals are the exact functions.
  ieee            bit-exact fp32 (equal: the same bits, any NaN matching any NaN). The e-graph
                  uses only rules that hold bit for bit, the witness search evaluates and
                  replays bit-exactly, Z3 uses its floating-point theory. Output elements whose
                  bits depend on what keq does not model bit for bit are UNKNOWN with the
                  reason: approximations (exp, tanh, erf, sigmoid, log, rsqrt, Triton's / and
                  tl.sqrt, ...), sums of three or more terms (no fixed order), and a*b+c inside
                  a kernel (Triton fuses it into one fma, measured on the H200).

options:
  --dims a=1,b=2    one configuration (module-level integer constants of REF.py; a tuple or
                    list takes 4x5); repeat for several; --dims '' checks the sizes as written.
                    Default: two configurations in which every constant get_inputs() names
                    gets a distinct small size (2, 3, 4, ... then 5, 6, 7, ...; where an
                    assert rejects those: one size (or every one) a multiple of a small
                    constant the file keeps, if the reference's assert rejected them
                    (n_embd % n_head == 0 with 12 heads: n_embd 12), then a power of two
                    (a candidate's rows % 128 == 0); where the model still rejects them,
                    they flatten a GroupNorm or a pooling window to one group or one
                    element, or they multiply past 262144: the file's own sizes scaled
                    down; the
                    second configuration within a quarter of --timeout,
                    named in the notes and not run when it does not finish there), then, for
                    each size that feeds a masked index (offs < n, traced from the first run
                    whose sizes are all distinct, in every autotune config; for a flattened
                    index the innermost size of the product), that size at
                    BLOCK + 1, BLOCK - 1 and 2 * BLOCK + 1 for each block it was masked with,
                    the others small: mask tails, partial tiles, second and third loop trips;
                    each such size runs the autotune configs whose blocks made that limit,
                    and the first (the notes count the runs left out).
                    A kernel loop stepping over several blocks (range(0, n, 4 * BLOCK)) adds
                    n at STEP + 1, STEP - 1 and 2 * STEP + 1.
                    A limit computed from a size (a pooling's output length) is found by
                    rerunning the programs with that size grown, and the size searched for
                    the limit at those three values. Where no mask is traced, each constant
                    at the largest BLOCK + 1. A kernel's dynamic if that went one way
                    everywhere adds each size past the product of the others, where the
                    programs take it the other way; an if decided on concrete values (host
                    Python picking a block by size) or a host loop's trip count (none, one,
                    several) adds each size doubled until the candidate goes another way
                    there (up to 65536 elements). A size the reference or an assert rejects
                    (channels that must divide into groups) gives way to the nearest that
                    leaves the same partial block (12 for BLOCK 8 + 1 over 4 groups), or to
                    another size rounded up to a multiple of it (a sequence that must divide
                    into chunks of 33).
                    Where it took only the file's proportions (sizes it couples, as a
                    LayerNorm over a conv's output width) and a mask never went false, those
                    proportions at three quarters of a halving (64 and 32 as 12 and 6) run too,
                    unless they flatten the structure (a GroupNorm to one group), then the
                    next larger such sizes. Last, a kernel loop that never ran a second trip
                    adds each size multiplied by 2, 4, ..., 64 (the others halved under
                    262144) where such a loop runs several trips (a loop over the C / G
                    channels of a group, where C at BLOCK + 1 does not divide into groups).
                    These run smallest first, each within an eighth of --timeout (at least
                    2 s); one that does not finish there runs once more with the other sizes
                    halved to an eighth of its elements; one that still does not (and the
                    larger sizes of its dimension) and sizes multiplying past 262144 (after halving the sizes
                    that do not make the limit) are named in the notes, not run: the
                    verdict covers the configurations it lists.
                    Constants only get_init_inputs() names stay as written.
  --timeout S       seconds for the whole run (default 60): every configuration, autotune
                    config and stage ends by then, the symbolic execution of the two files
                    and the e-graph included (Z3 queries share what is left; under the
                    default bound a sixth of S in one configuration, and a configuration
                    whose queries need longer runs again after the others); what is still
                    open is UNKNOWN "before the timeout". A watchdog stops a run still going
                    max(5 s, a quarter of S) past it with UNKNOWN "overran", naming the stage
  --max-memory SZ   resident memory the run may use (default 8G; 0: none), e.g. 2G or 512M:
                    past it the configuration is UNKNOWN "memory budget" (an address-space
                    cap of twice that, at least 4G more, is the last guard)
  --params initial  parameters with a deterministic initialization take that value (the
                    norm layers' ones and zeros, nn.Parameter(torch.ones(...))); the default,
                    symbolic, leaves paired ones symbolic (trained weights can be anything),
                    while a candidate's parameter that pairs with none of the reference's
                    holds a deterministic initialization under either
  --eval            run both models after .eval() (BatchNorm on running statistics, Dropout
                    off); the default is training mode, as KernelBench runs them
  --ref-class NAME  compare REF.py's class NAME (default: Model, or KernelBook's choice above)
  --cand-class NAME with CAND.py's class NAME (default: ModelNew, or XNew for REF.py's X). A
                    class a file does not define is what a missing Model or ModelNew is: the
                    reference's an ERROR, the candidate's a candidate that cannot run
  --repro FILE      with a counterexample: write a Python script that rebuilds its inputs and
                    parameters at its configuration and runs both models (for your machine;
                    keq never runs it)
  --no-egraph       skip the e-graph stage (to measure its value)
  --nonfinite-inputs
                    float inputs from get_inputs() may also be +-inf and NaN (parameters stay
                    finite): the witness search tries them, the e-graph assumes nothing about
                    them, and Z3 (whose encoding is finite) is not asked. Without it, inputs
                    are finite: an fp32 input get_inputs() casts whole to fp16, bf16 or fp8
                    (randn(m, k).to(torch.float8_e4m3fn)) takes that format's finite values.
                    It applies to inputs of unbounded range (randn; with --any-inputs, all)
  --any-inputs      float inputs range over every finite value of their dtype, not only what
                    get_inputs() draws (by default torch.rand's inputs are in [0, 1), and the
                    report names each input so narrowed). Integer inputs keep get_inputs()'s
                    range: they are indices and labels, whose range is the model's contract
  --round-once      fp16, bf16 and fp8 values round only where a program converts explicitly
                    (.to(), .half(), tl.cast, x.to(tl.bfloat16)), writes a tensor of that format
                    (a kernel's store, copy_) and at forward's outputs, not after each torch op
                    or kernel operation: for kernels that compute in fp32 and round once where
                    torch rounds after each op (silu(x) * y in bf16). Without it, both round as
                    the frameworks do, and that difference alone is NOT_EQUIVALENT; such a
                    NOT_EQUIVALENT is then checked again at its configuration under
                    --round-once, and its first line says what that gave (EQUIVALENT: only
                    where values round differs). The report's first lines say which was used
  --exhaustive      (with --semantics ieee) output pairs that are functions of one float input
                    element are evaluated, by generated code, at every value of the input's
                    format within its get_inputs() range (2^32 for fp32, 2^16 for fp16): none
                    differing is EQUIVALENT "by exhaustion", the first differing value is a
                    counterexample (confirmed by keq's evaluator, or "replayed on the GPU" where
                    the bits depend on a lowering keq pins: Triton's / and tl.sqrt, log, log2).
                    Other pairs go through the stages as usual; so do all of them when the
                    sweep (compiling included) does not finish within --timeout. An fp32 sweep
                    takes 7 to 40 s per distinct pair on a 2-core CPU, milliseconds on an H200
  --device cpu|cuda where --exhaustive runs (default cpu: the host C++ compiler, $KEQ_CXX or
                    $CXX or c++; cuda: nvcc, $KEQ_NVCC or /usr/local/cuda/bin/nvcc, and a GPU).
                    Without a GPU the sweep does not run and the pairs stay with the other
                    stages. With cuda and --semantics ieee, output pairs set aside because
                    their bits depend only on lowerings keq pins (Triton's / and tl.sqrt, log,
                    log2) are also evaluated on the GPU at 2^22 sampled inputs each: a
                    difference is NOT_EQUIVALENT "replayed on the GPU"; none leaves them
                    UNKNOWN (a sample proves nothing). Other approximations (exp, tanh, ...:
                    torch and Triton differ) and torch's division by a constant stay UNKNOWN
  --cuda-arch ARCH  nvcc -arch for --device cuda (default native)
  --no-smt          answer from the e-graph and the witness search alone (the fast pre-filter
                    for generation loops): what they leave is UNKNOWN
  --autotune-config K
                    check only config K (from 1) of each @triton.autotune kernel; by default
                    every config is checked, each as a configuration of its own (a kernel with
                    fewer configs runs its last). A first launch per autotuning key that reads
                    memory it writes (atomics) runs after each config once, as Triton's
                    benchmarking does (reset_to_zero, restore_value and Config pre_hooks applied).
                    Every first launch per key compiles each config's first program, as Triton's
                    benchmarking does: a config that raises OutOfResources or fails a
                    tl.static_assert is skipped (the first config kept runs in its place, named
                    in a note), and any other error raises from the launch
  --explain O:I,J   print how element [I,J] of output O (O: and default 0; O: alone for a 0-d
                    output) was settled: the
                    e-graph's rewrite chain when it proved it (rules, congruence, constant
                    folds, normal forms), or what settled it otherwise
  --jobs N          Z3 queries run at once, each in its own Z3 context (default: the CPUs this
                    process may use: its affinity and cgroup CPU quota); the verdict does not depend on N
  --seed N          the witness search's random seed (default 1)
  --json FILE       also write the report as JSON (schema: message VerifyRun in verify/keq.proto)
)" KEQ_IMPORT_PATH_HELP R"(

exit codes: 0 EQUIVALENT, 1 NOT_EQUIVALENT (a replayed counterexample, a memory finding, or a
candidate that cannot run: Python rejects it, it raises, or it defines no ModelNew), 2 UNKNOWN
(with the reason), 3 UNSUPPORTED (construct and file:line), 4 ERROR (a file unreadable, a
reference that cannot run, or the reference passed as the candidate).
Memory findings past the first 4096 are counted, not listed. Where the findings are reads out
of bounds or of undefined lanes, the outputs whose values are all defined are probed too, and
a counterexample among them is shown beside the findings.
)";

// --explain OUTPUT:I,J,... or I,J,... (output 0).
std::pair<size_t, std::vector<int64_t>> parse_explain(ArgReader& in) {
  std::string v = in.value();
  size_t colon = v.find(':');
  std::optional<std::vector<int64_t>> output = std::vector<int64_t>{0};
  if (colon != std::string::npos) output = parse_ints(v.substr(0, colon), '\0');
  std::string rest = colon == std::string::npos ? v : v.substr(colon + 1);
  // "O:" (nothing after the colon) is the one element of a 0-d output.
  auto index =
      colon != std::string::npos && rest.empty() ? std::vector<int64_t>{} : parse_ints(rest, ',');
  if (!output || output->front() < 0 || !index)
    in.fail("takes OUTPUT:I,J,... or I,J,... (e.g. 0:1,2; 0: for a 0-d output)");
  return {static_cast<size_t>(output->front()), *index};
}

}  // namespace

int verify_command(const std::vector<std::string>& args) {
  std::vector<std::string> files;
  std::vector<torch::Dims> configs;
  std::string json_path;
  std::string repro_path;
  verify::Options opt;
  opt.jobs = usable_cpus();
  ArgReader in(args);
  ImportPath imports;
  while (!in.done()) {
    const std::string& a = in.next();
    if (a == "--help" || a == "-h") {
      std::fputs(kHelp, stdout);
      return 0;
    } else if (!in.option()) {
      files.push_back(a);
    } else if (a == "--dims") {
      configs.push_back(parse_dims(in.value()));
    } else if (a == "--timeout") {
      opt.timeout_s = in.number(0, false);
    } else if (a == "--params") {
      opt.params_initial = in.word({"initial", "symbolic"}) == "initial";
    } else if (a == "--autotune-config") {
      opt.autotune_config = static_cast<size_t>(in.integer(1) - 1);
      opt.every_autotune_config = false;
    } else if (a == "--explain") {
      opt.explain = parse_explain(in);
    } else if (a == "--jobs") {
      opt.jobs = static_cast<size_t>(in.integer(1));
    } else if (a == "--max-memory") {
      auto bytes = parse_size(in.value());
      if (!bytes) in.fail("takes a size such as 2G, 512M or 0 (none)");
      opt.max_memory_bytes = *bytes;
    } else if (a == "--seed") {
      opt.seed = in.unsigned_integer();
    } else if (a == "--json") {
      json_path = in.value();
    } else if (a == "--repro") {
      repro_path = in.value();
    } else if (a == "--no-egraph") {
      opt.use_egraph = false;
    } else if (a == "--semantics") {
      opt.semantics =
          in.word({"real", "ieee"}) == "ieee" ? ir::Semantics::Ieee : ir::Semantics::Real;
    } else if (a == "--eval") {
      opt.eval_mode = true;
    } else if (a == "--ref-class") {
      opt.ref_class = in.value();
    } else if (a == "--cand-class") {
      opt.cand_class = in.value();
    } else if (a == "--nonfinite-inputs") {
      opt.nonfinite_inputs = true;
    } else if (a == "--any-inputs") {
      opt.any_inputs = true;
    } else if (a == "--round-once") {
      opt.round_once = true;
    } else if (a == "--exhaustive") {
      opt.exhaustive = true;
    } else if (a == "--device") {
      opt.device = in.word({"cpu", "cuda"}) == "cuda" ? runner::Device::Cuda : runner::Device::Cpu;
    } else if (a == "--cuda-arch") {
      opt.cuda_arch = in.value();
    } else if (imports.option(in, a)) {
    } else if (a == "--no-smt") {
      opt.use_smt = false;
    } else {
      in.unknown();
    }
  }
  imports.apply();
  if (opt.exhaustive && opt.semantics != ir::Semantics::Ieee) {
    std::fprintf(stderr, "keq verify: --exhaustive compares bits: it needs --semantics ieee\n");
    return kExitError;
  }
  if (files.size() != 2) {
    std::fputs(kHelp, stderr);
    return kExitError;
  }
  limit_address_space(opt.max_memory_bytes);
  // --timeout bounds the whole run: every configuration ends by the same deadline.
  opt.deadline = std::chrono::steady_clock::now() +
                 std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                     std::chrono::duration<double>(opt.timeout_s));
  std::string provenance = verify::provenance(opt);
  Watchdog watchdog(opt.timeout_s, [&, provenance](const char* stage, double over_s) {
    return report_overrun(files, json_path, provenance, stage, over_s);
  });
  opt.stage = &watchdog.stage();
  verify::Verdict all = verify::Verdict::Equivalent;
  std::vector<verify::Report> reports;
  auto print = [&](const std::vector<verify::Report>& rs) {
    for (const verify::Report& r : rs) {
      all = verify::combine(all, r.verdict);
      reports.push_back(r);
    }
  };
  if (!configs.empty()) {
    for (const auto& d : configs) {
      opt.dims = d;
      print(verify::verify_every_autotune_config(files[0], files[1], opt));
    }
  } else {
    try {
      print(verify::verify_default_bound(files[0], files[1], opt));
    } catch (const Error& e) {  // reading the reference's sizes for the bound
      auto printing = watchdog.finish();
      bool unsupported = e.kind() == ErrorKind::Unsupported;
      std::printf("%s: %s\n", unsupported ? "UNSUPPORTED" : "ERROR", e.what());
      return verify::exit_code(unsupported ? verify::Verdict::Unsupported : verify::Verdict::Error);
    }
  }
  verify::check_under_round_once(files[0], files[1], reports, all, opt);
  auto printing = watchdog.finish();
  std::fputs(verify::to_text(reports, all, provenance).c_str(), stdout);
  for (const auto& w : verify::coverage_warnings(reports)) std::printf("coverage: %s\n", w.c_str());
  if (!repro_path.empty()) {
    const verify::Report& d = reports.at(verify::deciding_report(reports, all));
    std::string script = verify::repro_script(files[0], files[1], d);
    if (script.empty()) {
      std::fprintf(stderr, "keq verify: --repro: no counterexample to write\n");
    } else {
      std::ofstream out(repro_path);
      out << script;
      if (!out) {
        std::fprintf(stderr, "keq verify: cannot write %s\n", repro_path.c_str());
        return kExitError;
      }
      std::printf("repro: %s (run it with python; keq never runs it)\n", repro_path.c_str());
    }
  }
  if (!json_path.empty()) {
    std::ofstream out(json_path);
    out << verify::to_json(files[0], files[1], reports, all, provenance);
    if (!out) {
      std::fprintf(stderr, "keq verify: cannot write %s\n", json_path.c_str());
      return kExitError;
    }
  }
  return verify::exit_code(all);
}

}  // namespace keq::cli
