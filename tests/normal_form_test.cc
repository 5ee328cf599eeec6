// Real-semantics normal forms: the acceptance identities of issue 6 at the e-graph level, built
// as the frontends will build them, and the buggy variants that must not be proved.
#include <gtest/gtest.h>

#include <chrono>
#include <random>

#include "bench/nf_workloads.h"
#include "ir/budget.h"
#include "rules/rules.h"

namespace keq::rules {
namespace {

using bench::Pair;
using Graph = KeqLanguage::Graph;

struct Outcome {
  bool proved = false;
  size_t iterations = 0;
};

Outcome check(ir::TermStore& store, const bench::NfFamilies& fam, const Pair& p,
              bool normal_forms = true, size_t iters = 12, bool finite_inputs = true) {
  Graph g(KeqLanguage(&store, ir::Semantics::Real));
  g.lang().set_normal_forms(normal_forms);
  if (finite_inputs)
    for (const auto& [name, bound] : fam.domains())
      g.lang().set_domain(store.payload(store.variable(name)), {-bound, bound, false});
  auto rws = rewrites_for(load_rules(g.lang(), default_rule_files()), ir::Semantics::Real);
  egraph::EClassId a = add_term(g, p.cand), b = add_term(g, p.ref);
  auto rep = egraph::Runner<KeqLanguage>({iters, 200000, 20.0}).run(g, rws, [&](Graph& eg) {
    return eg.find(a) == eg.find(b);
  });
  EXPECT_TRUE(rep.canary.empty()) << rep.canary;
  return {g.find(a) == g.find(b), rep.iterations.size()};
}

TEST(NormalForm, TiledDotProductsWithMaskedTails) {
  for (auto [k, bk] : {std::pair{64, 16}, {50, 16}, {17, 16}, {15, 16}, {1, 16}}) {
    SCOPED_TRACE("K=" + std::to_string(k));
    ir::TermStore s;
    bench::NfFamilies fam(s);
    EXPECT_TRUE(check(s, fam, fam.tiled_dot(k, bk)).proved);
  }
}

TEST(NormalForm, MissingKTailMaskIsNotProved) {
  ir::TermStore s;
  bench::NfFamilies fam(s);
  EXPECT_FALSE(check(s, fam, fam.tiled_dot(50, 16, /*tail_mask=*/false)).proved);
}

TEST(NormalForm, OnlineSoftmaxWithScalarRunningMax) {
  for (auto [n, block] : {std::pair{8, 4}, {10, 4}, {3, 4}, {64, 16}}) {
    SCOPED_TRACE("n=" + std::to_string(n));
    ir::TermStore s;
    bench::NfFamilies fam(s);
    Outcome o = check(s, fam, fam.online_softmax(n, block, n - 1));
    EXPECT_TRUE(o.proved);
  }
}

TEST(NormalForm, SoftmaxWhoseMaskedLanesLoadZeroIsNotProved) {
  ir::TermStore s;
  bench::NfFamilies fam(s);  // 10 wide, blocks of 4: two lanes of the last block load 0.0
  EXPECT_FALSE(check(s, fam, fam.online_softmax(10, 4, 0, /*masked_zero=*/true)).proved);
}

TEST(NormalForm, PerLaneOnlineSoftmaxBelowBlockWidthIsNotProved) {
  ir::TermStore s;
  bench::NfFamilies fam(
      s);  // lanes 3..7 never see data: their max stays -inf, exp(-inf - -inf) is NaN
  EXPECT_FALSE(check(s, fam, fam.per_lane_online_softmax(3, 8)).proved);
}

TEST(NormalForm, LogSoftmax) {
  ir::TermStore s;
  bench::NfFamilies fam(s);
  EXPECT_TRUE(check(s, fam, fam.log_softmax(10, 4, 3)).proved);
}

TEST(NormalForm, TwoPassLayerNorm) {
  for (auto [n, block] : {std::pair{5, 4}, {9, 4}, {40, 16}}) {
    SCOPED_TRACE("n=" + std::to_string(n));
    ir::TermStore s;
    bench::NfFamilies fam(s);
    EXPECT_TRUE(check(s, fam, fam.layernorm(n, block, 1)).proved);
  }
}

// E[g^2] - E[g]^2 against sum (g - mean)^2 / n, where the two sides spell g differently
// (x / sqrt 2 against x * rsqrt 2 inside an erf): the group's forms change once for each of the
// n activations whose classes merge. Facts are re-made children first (egraph_core.h), so each
// form follows all n merges; re-made in the order they were queued, a form stopped following
// them after its 8 changes (KeqLanguage::kMaxNfChanges) and n = 8 was not proved.
TEST(NormalForm, AFormFollowsEveryOperandThatMerges) {
  for (int n : {4, 8, 16}) {
    SCOPED_TRACE("n=" + std::to_string(n));
    ir::TermStore s;
    std::string ref_sum, ref_sq, cand_sum, cand_sq;
    for (int i = 0; i < n; ++i) {
      std::string x = "x" + std::to_string(i);
      std::string g = "(* " + x + " (erf (* " + x + " (rsqrt 2))))";
      std::string h = "(* " + x + " (erf (/ " + x + " (sqrt 2))))";
      ref_sum += " " + g, cand_sum += " " + h, cand_sq += " (* " + h + " " + h + ")";
    }
    std::string ref_mean = "(/ (sum" + ref_sum + ") " + std::to_string(n) + ")";
    for (int i = 0; i < n; ++i) {
      std::string x = "x" + std::to_string(i);
      std::string d = "(- (* " + x + " (erf (* " + x + " (rsqrt 2)))) " + ref_mean + ")";
      ref_sq += " (* " + d + " " + d + ")";
    }
    std::string cand_mean = "(/ (sum" + cand_sum + ") " + std::to_string(n) + ")";
    std::string ref = "(rsqrt (+ (/ (sum" + ref_sq + ") " + std::to_string(n) + ") 0.00001))";
    std::string cand = "(rsqrt (+ (maxnum (- (/ (sum" + cand_sq + ") " + std::to_string(n) +
                       ") (* " + cand_mean + " " + cand_mean + ")) 0) 0.00001))";
    Graph g(KeqLanguage(&s, ir::Semantics::Real));
    for (int i = 0; i < n; ++i)
      g.lang().set_domain(s.payload(s.variable("x" + std::to_string(i))),
                          ir::Interval::any_finite());
    auto rws = rewrites_for(load_rules(g.lang(), default_rule_files()), ir::Semantics::Real);
    egraph::EClassId a = add_term(g, ir::read_term(s, ir::parse_sexprs(ref, "ref").at(0)));
    egraph::EClassId b = add_term(g, ir::read_term(s, ir::parse_sexprs(cand, "cand").at(0)));
    egraph::Runner<KeqLanguage>({12, 200000, 20.0}).run(g, rws, [&](Graph& eg) {
      return eg.find(a) == eg.find(b);
    });
    EXPECT_EQ(g.find(a), g.find(b));
  }
}

// A conv output is a sum of many products: a group of n such elements squared in full passes the
// product budget (the l2 kernels' conv + InstanceNorm: 27 products each). Their abstract forms
// take each element as its class, so E[y^2] - E[y]^2 and mean((y - E[y])^2) meet as
// polynomials in n atoms; with a different eps they do not.
// With `bias`, every element adds one shared term (a conv's bias), which its group's mean holds
// with the same coefficient.
std::pair<std::string, std::string> variance_of_sums(int n, int terms, const std::string& eps,
                                                     bool bias = false) {
  std::vector<std::string> ys;
  for (int i = 0; i < n; ++i) {
    std::string y = "(sum";
    for (int k = 0; k < terms; ++k)
      y += " (* a" + std::to_string(i + k) + " w" + std::to_string(k) + ")";
    ys.push_back(bias ? "(+ " + y + ") b)" : y + ")");
  }
  std::string sum, sq, n_str = std::to_string(n);
  for (const std::string& y : ys) sum += " " + y, sq += " (* " + y + " " + y + ")";
  std::string mean = "(/ (sum" + sum + ") " + n_str + ")", dev_sq;
  for (const std::string& y : ys) {
    std::string d = "(- " + y + " " + mean + ")";
    dev_sq += " (* " + d + " " + d + ")";
  }
  return {"(rsqrt (+ (/ (sum" + dev_sq + ") " + n_str + ") 0.00001))",
          "(rsqrt (+ (- (/ (sum" + sq + ") " + n_str + ") (* " + mean + " " + mean + ")) " + eps +
              "))"};
}

bool variance_forms_meet(int n, int terms, const std::string& eps, bool bias = false) {
  auto [ref, cand] = variance_of_sums(n, terms, eps, bias);
  ir::TermStore s;
  Graph g(KeqLanguage(&s, ir::Semantics::Real));
  g.lang().set_domain(s.payload(s.variable("b")), ir::Interval::any_finite());
  for (int k = 0; k < n + terms; ++k) {
    g.lang().set_domain(s.payload(s.variable("a" + std::to_string(k))), ir::Interval::any_finite());
    g.lang().set_domain(s.payload(s.variable("w" + std::to_string(k))), ir::Interval::any_finite());
  }
  auto rws = rewrites_for(load_rules(g.lang(), default_rule_files()), ir::Semantics::Real);
  egraph::EClassId a = add_term(g, ir::read_term(s, ir::parse_sexprs(ref, "ref").at(0)));
  egraph::EClassId b = add_term(g, ir::read_term(s, ir::parse_sexprs(cand, "cand").at(0)));
  egraph::Runner<KeqLanguage>({12, 200000, 20.0}).run(g, rws, [&](Graph& eg) {
    return eg.find(a) == eg.find(b);
  });
  return g.find(a) == g.find(b);
}

TEST(NormalForm, TheVarianceOfManyTermElementsMeetsOverTheirClasses) {
  EXPECT_TRUE(variance_forms_meet(8, 30, "0.00001"));
  EXPECT_FALSE(variance_forms_meet(8, 30, "0.000001"));
}

// A conv output with its bias is a wide sum plus a term every element of the group shares: its
// deviation from a group mean over 64 terms cancels that term, and is still a deviation (a
// conv + InstanceNorm over 64 outputs or more was UNKNOWN: the mean's 65th term, the bias, made
// E[y]^2 pass the product budget while mean((y - E[y])^2) had no form).
TEST(NormalForm, TheVarianceOfElementsWithASharedBiasMeetsPastTheBudget) {
  for (int n : {62, 64, 100}) {
    SCOPED_TRACE(n);
    EXPECT_TRUE(variance_forms_meet(n, 18, "0.00001", /*bias=*/true));
  }
  EXPECT_FALSE(variance_forms_meet(64, 18, "0.000001", /*bias=*/true));
}

TEST(NormalForm, UnbiasedVarianceIsNotProved) {
  ir::TermStore s;
  bench::NfFamilies fam(s);
  EXPECT_FALSE(check(s, fam, fam.layernorm(9, 4, 1, /*unbiased=*/true)).proved);
}

TEST(NormalForm, RmsNorm) {
  ir::TermStore s;
  bench::NfFamilies fam(s);
  EXPECT_TRUE(check(s, fam, fam.rmsnorm(9, 4, 2)).proved);
}

TEST(NormalForm, AtomicPartialSums) {
  ir::TermStore s;
  bench::NfFamilies fam(s);
  EXPECT_TRUE(check(s, fam, fam.atomic_row_sum(50, 16)).proved);
}

TEST(NormalForm, NothingIsProvedFromPossiblyInfiniteInputs) {
  // x - x is not 0 when x may be inf: without finite domains there are no atoms to normalize.
  ir::TermStore s;
  bench::NfFamilies fam(s);
  bench::Pair p = fam.tiled_dot(4, 2);
  Outcome o = check(s, fam, p, true, 3, /*finite_inputs=*/false);
  // The sums here are still equal over extended reals (a sum is order-free there), so only
  // assert that the normal form did not do it alone: no proof in the first iteration.
  EXPECT_TRUE(!o.proved || o.iterations > 1);
}

TEST(NormalForm, WithoutNormalFormsTheTiledSumIsOutOfReach) {
  ir::TermStore s;
  bench::NfFamilies fam(s);
  Outcome o = check(s, fam, fam.tiled_dot(64, 16), /*normal_forms=*/false, 6);
  EXPECT_FALSE(o.proved);
}

TEST(NormalFormStore, FormsAreCanonical) {
  NormalForms nf;
  NfId x = nf.class_atom(1), y = nf.class_atom(2);
  EXPECT_EQ(nf.add(x, y), nf.add(y, x));
  EXPECT_EQ(nf.sub(nf.add(x, y), y), x);
  EXPECT_EQ(nf.mul(nf.add(x, y), nf.add(x, y)),
            nf.add(nf.add(nf.mul(x, x), nf.scale(nf.mul(x, y), 2)), nf.mul(y, y)));
  EXPECT_EQ(nf.mul(nf.exp(x), nf.exp(y)), nf.exp(nf.add(x, y)));
  EXPECT_EQ(nf.mul(nf.exp(x), nf.recip(nf.exp(x))), nf.constant(1));
  EXPECT_EQ(nf.recip(nf.scale(nf.add(nf.exp(x), nf.exp(y)), 2)),
            nf.scale(nf.recip(nf.add(nf.exp(x), nf.exp(y))), mpq_class(1, 2)));
  NfId a[] = {x, y}, b[] = {y, x};
  EXPECT_EQ(nf.extremum(a, true), nf.extremum(b, true));
  NfId nested[] = {nf.extremum(a, true), x};
  EXPECT_EQ(nf.extremum(nested, true), nf.extremum(a, true));
  EXPECT_NE(nf.extremum(a, true), nf.extremum(a, false));
  EXPECT_TRUE(nf.is_class_atom(x));
  EXPECT_FALSE(nf.is_class_atom(nf.scale(x, 2)));
}

// A max's constant members meet in the largest, a min's in the smallest: a max-pool written as a
// running max from the finite sentinel -1e30, then clamped at 0, is the pool's max clamped
// (LLMKernel L2 85 was UNKNOWN for it). A member that is no constant stays.
TEST(NormalFormStore, AnExtremumKeepsOneConstantMember) {
  NormalForms nf;
  NfId x = nf.class_atom(1), y = nf.class_atom(2);
  NfId pool[] = {x, y};
  NfId running[] = {nf.constant(mpq_class(-1000000)), x, y};
  NfId clamped[] = {nf.extremum(running, true), nf.constant(0)};
  NfId reference[] = {nf.extremum(pool, true), nf.constant(0)};
  EXPECT_EQ(nf.extremum(clamped, true), nf.extremum(reference, true));
  EXPECT_NE(nf.extremum(running, true), nf.extremum(pool, true));  // no clamp: they differ
  NfId lows[] = {x, nf.constant(3), nf.constant(-2)}, low[] = {x, nf.constant(-2)};
  EXPECT_EQ(nf.extremum(lows, false), nf.extremum(low, false));
  NfId highs[] = {x, nf.constant(3)};
  EXPECT_EQ(nf.extremum(lows, true), nf.extremum(highs, true));
  NfId constants[] = {nf.constant(3), nf.constant(-2)};  // alone, they keep their form
  EXPECT_FALSE(nf.constant_value(nf.extremum(constants, true)));
}

// max(c a, c b) = c max(a, b) for c > 0: a per-tensor scale that atomic_max combines from each
// block's max(|x|, eps) / 448 meets max(|x|..., eps) / 448 over the whole tensor. Negative
// multiples and different factors stay apart.
TEST(NormalFormStore, APositiveFactorComesOutOfAMaximum) {
  NormalForms nf;
  NfId x = nf.class_atom(1), y = nf.class_atom(2), z = nf.class_atom(3), eps = nf.constant(1);
  const mpq_class c(1, 448);
  auto max_of = [&](std::vector<NfId> m) { return nf.extremum(m, true); };
  NfId whole = nf.scale(max_of({x, y, z, eps}), c);
  NfId blocks = max_of({nf.scale(max_of({x, y, eps}), c), nf.scale(max_of({z, eps}), c)});
  EXPECT_EQ(blocks, whole);
  EXPECT_EQ(max_of({nf.scale(x, c), nf.scale(y, c)}), nf.scale(max_of({x, y}), c));
  EXPECT_EQ(max_of({nf.scale(x, 3), nf.scale(y, 3)}), nf.scale(max_of({y, x}), 3));
  EXPECT_NE(max_of({nf.scale(x, -1), nf.scale(y, -1)}), nf.scale(max_of({x, y}), -1));
  EXPECT_NE(max_of({nf.scale(x, 2), nf.scale(y, 3)}), nf.scale(max_of({x, y}), 2));
  EXPECT_NE(nf.extremum(std::vector<NfId>{nf.scale(x, 2), nf.scale(y, 2)}, false),
            nf.scale(max_of({x, y}), 2));
}

// Coefficients are bounded as powers are: a form multiplied by a small constant again and again
// reaches no form past kMaxCoeffBits (Liger's kl_div spent 50 s on million-bit ones).
TEST(NormalFormStore, CoefficientsPastTheBoundGiveNoForm) {
  NormalForms nf;
  NfId eps = nf.constant(mpq_class(1, 1 << 30)), form = nf.class_atom(5);
  int products = 0;
  while (form != kNoNf && products < 1000) form = nf.mul(form, eps), ++products;
  EXPECT_EQ(form, kNoNf);
  EXPECT_GT(products, 100);  // 30 bits each: about 136 products fit
}

// A class that is its own square (0 * 0 = 0 puts (* c c) in c's class) doubles its power each
// time its form is made again. Powers are bounded: past 64 a product has no form. Before, 32
// squarings wrapped int32 to c^0 = 1, and a class that was 0 met the constant 1 (the canary
// stopped an LLM-written logsumexp + Mish kernel, level-2 #22, on it).
TEST(NormalFormStore, PowersPastTheBoundGiveNoFormInsteadOfWrapping) {
  NormalForms nf;
  NfId c = nf.class_atom(7);
  NfId power = c;
  int squarings = 0;
  while (power != kNoNf && squarings < 40) {
    EXPECT_FALSE(nf.constant_value(power)) << "c^(2^" << squarings << ") became a constant";
    power = nf.mul(power, power);
    ++squarings;
  }
  EXPECT_EQ(power, kNoNf);
  EXPECT_EQ(squarings, 7);                   // c^(2^6) is the last form
  EXPECT_NE(nf.mul(nf.recip(c), c), kNoNf);  // small powers still cancel: c^-1 c = 1
}

// A product past the budget multiplies its wide factors as atoms W(P), P scaled to a first
// coefficient of 1: (2 s) * s is 2 W(s)^2, one term, and equals 2 (s * s).
TEST(NormalFormStore, BudgetTurnsWideFactorsIntoAtoms) {
  NormalForms nf(4);  // a budget of 16 terms
  NfId s = kZeroNf;
  for (uint32_t k = 0; k < 5; ++k) s = nf.add(s, nf.class_atom(k));
  NfId square = nf.mul(s, s);  // 25 terms > 16
  ASSERT_NE(square, kNoNf);
  EXPECT_EQ(nf.num_terms(square), 1u);
  EXPECT_EQ(nf.budget_exceeded(), 1u);
  EXPECT_EQ(nf.mul(nf.scale(s, 2), s), nf.scale(square, 2));
  EXPECT_NE(nf.mul(nf.add(s, nf.class_atom(5)), s), nf.mul(s, s));  // another form, another atom
  EXPECT_EQ(nf.num_terms(nf.mul(s, nf.class_atom(9))), 5u);  // one-term factors never grow a sum
}

// exp(a) * exp(b) with a + b left without a form (a wide exponent edited by a term that does
// not outweigh its own: no deviation from a mean) has no form. The product once took kNoNf as its
// exponent, so two such products of different exponents were one form, and their classes merged
// (4 = 0 in an e-graph of constants whose exponents had wide forms).
TEST(NormalFormStore, AProductWhoseExponentSumHasNoFormHasNone) {
  NormalForms nf;
  auto exp_of_wide = [&](uint32_t first) {
    NfId s = kZeroNf;
    for (uint32_t k = first; k < first + 70; ++k) s = nf.add(s, nf.class_atom(k));
    return s;
  };
  NfId a = exp_of_wide(0), b = exp_of_wide(100);
  ASSERT_EQ(nf.add(a, nf.class_atom(3)), kNoNf);  // the edit that has no form
  NfId p = nf.mul(nf.exp(a), nf.exp(nf.class_atom(3)));
  NfId q = nf.mul(nf.exp(b), nf.exp(nf.class_atom(103)));
  EXPECT_EQ(p, kNoNf);
  EXPECT_EQ(q, kNoNf);
}

// A group's variance both ways a program computes it, over its elements' forms: the mean of
// the squared deviations from the mean, and E[x^2] - E[x]^2.
struct VarianceForms {
  NfId two_pass, one_pass, squares, mean;
  std::vector<NfId> deviations, deviations_squared;
};
VarianceForms variance_forms(NormalForms& nf, const std::vector<NfId>& elements) {
  VarianceForms v;
  const mpq_class n(static_cast<unsigned long>(elements.size()));
  NfId row = kZeroNf;
  v.squares = kZeroNf;
  for (NfId x : elements) {
    row = nf.add(row, x);
    v.squares = nf.add(v.squares, nf.mul(x, x));
  }
  v.mean = nf.scale(row, 1 / n);
  for (NfId x : elements) {
    v.deviations.push_back(nf.sub(x, v.mean));
    v.deviations_squared.push_back(nf.mul(v.deviations.back(), v.deviations.back()));
  }
  v.two_pass = nf.scale(nf.sum(v.deviations_squared), 1 / n);
  v.one_pass = nf.sub(nf.scale(v.squares, 1 / n), nf.mul(v.mean, v.mean));
  return v;
}

std::vector<NfId> atoms(NormalForms& nf, uint32_t n) {
  std::vector<NfId> out;
  for (uint32_t k = 0; k < n; ++k) out.push_back(nf.class_atom(k));
  return out;
}

// Online softmax rescales its running sum once per block: l = l * exp(m - m_new) + exp(x - m_new).
// Expanded, each rescale wrote every term's exponent anew (x_i - m_new for each i), so a lane of
// J blocks made J^2 / 2 forms; with exp(G) kept outside the body, a rescale changes G alone and
// the forms grow linearly. The running sum still meets the reference's sum of exp(x_i - max).
TEST(NormalFormStore, ARescaledRunningSumCostsFormsLinearInItsBlocks) {
  NormalForms nf;
  constexpr uint32_t kBlocks = 400;
  std::vector<NfId> x = atoms(nf, kBlocks);
  size_t before = nf.size();
  NfId m = x[0], l = nf.constant(1);
  for (uint32_t j = 1; j < kBlocks; ++j) {
    NfId members[] = {m, x[j]};
    NfId m_new = nf.extremum(members, true);
    l = nf.add(nf.mul(l, nf.exp(nf.sub(m, m_new))), nf.exp(nf.sub(x[j], m_new)));
    m = m_new;
  }
  EXPECT_LT(nf.size() - before, 16 * kBlocks);  // expanded: over 80,000
  std::vector<NfId> terms;
  for (NfId xi : x) terms.push_back(nf.exp(nf.sub(xi, nf.extremum(x, true))));
  EXPECT_EQ(l, nf.sum(terms));
  EXPECT_EQ(nf.num_terms(l), kBlocks);
  // Each quotient exp(x_i - max) / l is exp(x_i) / S for the sum S without its shift.
  NfId q = nf.mul(terms[7], nf.recip(l));
  EXPECT_EQ(nf.num_terms(q), 1u);
  EXPECT_EQ(q, nf.mul(nf.exp(x[7]), nf.recip(nf.mul(l, nf.exp(nf.extremum(x, true))))));
}

// sum_i (x_i - m)^2 over a group of 200 (m its mean) is sum x_i^2 - n m^2, which E[x^2] - E[x]^2
// computes: the deviations are x_i - W/n and m^2 is W^2/n^2, and the sum folds sum_i x_i W back
// into W^2. Dropping one element of the sum, or another multiple of m^2, is another form.
TEST(NormalFormStore, TheTwoVarianceFormsMeetOverAWideGroup) {
  NormalForms nf;
  constexpr uint32_t kWidth = 200;
  VarianceForms v = variance_forms(nf, atoms(nf, kWidth));
  for (NfId d : v.deviations) ASSERT_EQ(nf.num_terms(d), 2u);
  EXPECT_EQ(v.two_pass, v.one_pass)
      << nf.str(v.two_pass, [](uint32_t c) { return std::to_string(c); });
  EXPECT_EQ(nf.num_terms(v.two_pass), kWidth + 1);
  std::span<const NfId> all_but_one(v.deviations_squared.data(), kWidth - 1);
  EXPECT_NE(nf.scale(nf.sum(all_but_one), mpq_class(1, kWidth)), v.one_pass);
  EXPECT_NE(nf.sub(nf.scale(v.squares, mpq_class(1, kWidth)), nf.scale(nf.mul(v.mean, v.mean), 2)),
            v.two_pass);
  EXPECT_NE(nf.sub(nf.scale(v.squares, mpq_class(1, kWidth - 1)), nf.mul(v.mean, v.mean)),
            v.two_pass);
}

// A group whose elements share a factor (InstanceNorm of x * s: every element s x_i) has
// deviations s x_i - s W/n, whose squares sum to s^2 x_i W terms: the fold keeps the s^2 beside
// W^2. It left them unfolded, and an instance norm of a scaled input over more than 32 elements
// was UNKNOWN (30 iterations), where the unscaled one was proved at once.
TEST(NormalFormStore, TheTwoVarianceFormsMeetOverAScaledGroup) {
  for (uint32_t width : {33u, 64u, 200u}) {
    NormalForms nf;
    NfId s = nf.class_atom(1000);
    std::vector<NfId> scaled;
    for (NfId x : atoms(nf, width)) scaled.push_back(nf.mul(x, s));
    VarianceForms v = variance_forms(nf, scaled);
    EXPECT_NE(v.one_pass, kNoNf) << width;
    EXPECT_EQ(v.two_pass, v.one_pass) << width;
  }
}

// At the wide threshold (32 terms by default, 64 in the prover's second pass) E[x^2] (n terms)
// minus E[x]^2 expanded (n(n+1)/2) is no edit of a wide form: a ratio of 32 took it for one at
// 64, leaving it without a form where sum (x_i - m)^2 has one.
TEST(NormalFormStore, TheTwoVarianceFormsMeetAtTheEditThreshold) {
  for (uint32_t width : {31u, 32u, 33u, 63u, 64u, 65u}) {
    NormalForms nf;
    VarianceForms v = variance_forms(nf, atoms(nf, width));
    EXPECT_NE(v.one_pass, kNoNf) << width;
    EXPECT_EQ(v.two_pass, v.one_pass) << width;
  }
  for (uint32_t width : {63u, 64u, 65u}) {
    NormalForms nf(64, 64);
    VarianceForms v = variance_forms(nf, atoms(nf, width));
    EXPECT_NE(v.one_pass, kNoNf) << width;
    EXPECT_EQ(v.two_pass, v.one_pass) << width;
  }
}

// A group of 32 or fewer elements of 2 to 4 terms (Mish written through exp before it meets
// tanh: c e R - c R) has a wide mean once n k > 32: its square is W^2, so its deviations must
// be edits (x_i - W/n) for the two forms to meet. At 17 elements of 2 terms they were expanded
// (34 terms, whose square passed the budget: a distinct atom each) and an LLM-written
// GEMM + Mish + GroupNorm (level-2 #94) was UNKNOWN.
TEST(NormalFormStore, TheTwoVarianceFormsMeetForFewTermElementsOfASmallGroup) {
  for (uint32_t terms : {2u, 3u, 4u})
    for (uint32_t width : {9u, 17u, 24u, 32u}) {
      NormalForms nf;
      std::vector<NfId> elements;
      for (uint32_t i = 0; i < width; ++i) {
        std::vector<NfId> parts;
        for (uint32_t t = 0; t < terms; ++t) parts.push_back(nf.class_atom(i * terms + t));
        elements.push_back(nf.sum(parts));
      }
      VarianceForms v = variance_forms(nf, elements);
      EXPECT_NE(v.one_pass, kNoNf) << width << " x " << terms;
      EXPECT_EQ(v.two_pass, v.one_pass) << width << " x " << terms;
    }
}

// x_i - mean over a row of 200: the mean's terms with one coefficient changed is x_i - W/200 (a
// row's 200 outputs would each expand it); adding terms the form lacks (accumulating the row)
// and an edit by a side over a 33rd of the form (a group's E[x^2] - E[x]^2) are expanded.
TEST(NormalFormStore, SumsThatEditAWideFormSeeItAsAnAtom) {
  NormalForms nf;
  constexpr uint32_t kWidth = 200;
  NfId row = kZeroNf;
  for (uint32_t k = 0; k < kWidth; ++k) row = nf.add(row, nf.class_atom(k));
  NfId mean = nf.scale(row, mpq_class(1, kWidth));
  EXPECT_EQ(nf.wide_edits(), 0u);  // accumulating: every add brought a new term
  EXPECT_EQ(nf.num_terms(nf.sub(nf.class_atom(7), mean)), 2u);
  EXPECT_EQ(nf.add(mean, nf.constant(1)), nf.add(nf.constant(1), mean));     // constants: not edits
  EXPECT_EQ(nf.num_terms(nf.sub(nf.class_atom(kWidth), mean)), kWidth + 1);  // a term it lacks
  NfId few = kZeroNf;
  for (uint32_t k = 0; k < 8; ++k) few = nf.add(few, nf.class_atom(k));
  EXPECT_EQ(nf.num_terms(nf.sub(few, mean)), kWidth);  // 8 of 200: more than a 33rd
  EXPECT_EQ(nf.wide_edits(), 0u);
  // Elements that are products (an activation x * sigmoid(x)): x_7 y_7 - mean is a deviation;
  // the running sum plus a product it holds already (a bias added once more) is not one.
  NfId products = kZeroNf;
  for (uint32_t k = 0; k < kWidth; ++k)
    products = nf.add(products, nf.mul(nf.class_atom(k), nf.class_atom(1000 + k)));
  NfId product_7 = nf.mul(nf.class_atom(7), nf.class_atom(1007));
  EXPECT_EQ(nf.num_terms(nf.sub(product_7, nf.scale(products, mpq_class(1, kWidth)))), 2u);
  EXPECT_EQ(nf.add(products, product_7), kNoNf);
  EXPECT_EQ(nf.wide_edits(), 0u);  // refused as no deviation, not for its size
}

// A group of convolution outputs (each a sum of 9 products): an output's deviation from the
// group's mean has no form by default (its square has 55 terms, the group's sum of them n times
// that: congruence matches programs that both build deviations); with element_terms raised (the
// prover's second pass) it is x_i - W/n expanded, and the two variance forms meet.
// A normalization folded into a shift, b - mean * s (s = w / sqrt(var), an atom and the inverse
// of one): the element's x_7 * s added to it is an edit of the shift, whose W takes s out, so it
// meets the reference's (x_7 - mean) * s + b, whose deviation's W is the group's sum's. Before,
// the shift was one atom of its own and only rules (distribute, ...) joined the two.
TEST(NormalFormStore, AWideFormWhoseTermsShareAnAtomTakesItOut) {
  NormalForms nf;
  constexpr uint32_t kWidth = 200;
  NfId row = kZeroNf;
  for (uint32_t k = 0; k < kWidth; ++k) row = nf.add(row, nf.class_atom(k));
  NfId mean = nf.scale(row, mpq_class(1, kWidth));
  NfId s = nf.mul(nf.class_atom(5000), nf.recip(nf.class_atom(5001)));
  NfId b = nf.class_atom(5002), x7 = nf.class_atom(7);
  NfId folded = nf.add(nf.mul(x7, s), nf.sub(b, nf.mul(mean, s)));
  NfId reference = nf.add(nf.mul(nf.sub(x7, mean), s), b);
  ASSERT_NE(folded, kNoNf);
  EXPECT_EQ(folded, reference);
  EXPECT_EQ(nf.num_terms(folded), 3u);  // x_7 s, b and s W(sum x) / 200
  // A shift with the wrong sign keeps a form of its own.
  EXPECT_NE(nf.add(nf.mul(x7, s), nf.add(b, nf.mul(mean, s))), reference);
}

TEST(NormalFormStore, DeviationsOfManyTermElementsGetFormsWhenAsked) {
  constexpr uint32_t kWidth = 100, kTaps = 9;
  auto outputs = [&](NormalForms& nf) {
    std::vector<NfId> out(kWidth, kZeroNf);
    for (uint32_t i = 0; i < kWidth; ++i)
      for (uint32_t k = 0; k < kTaps; ++k)  // weights shared by every output, inputs overlapping
        out[i] = nf.add(out[i], nf.mul(nf.class_atom(k), nf.class_atom(1000 + i + k)));
    return out;
  };
  NormalForms by_default;
  VarianceForms v = variance_forms(by_default, outputs(by_default));
  EXPECT_EQ(v.two_pass, kNoNf);
  EXPECT_NE(v.one_pass, kNoNf);
  EXPECT_EQ(by_default.wide_edits(), kWidth);
  NormalForms asked(64, 64);
  VarianceForms w = variance_forms(asked, outputs(asked));
  EXPECT_NE(w.two_pass, kNoNf);
  EXPECT_EQ(w.two_pass, w.one_pass);
  EXPECT_EQ(asked.wide_edits(), 0u);
}

// Each deviation of a wide group times the group's mean (rules distributing d_i * (x_i - mean))
// would cost n each, n^2 in all: a wide form gets products with 16 distinct one-term factors,
// then none; constants always scale it, and a narrow form takes any number of factors.
TEST(NormalFormStore, AWideFormTimesManyDistinctFactorsIsLeftToCongruence) {
  NormalForms nf;
  NfId row = kZeroNf, narrow = kZeroNf;
  for (uint32_t k = 0; k < 100; ++k) row = nf.add(row, nf.class_atom(k));
  for (uint32_t k = 0; k < 8; ++k) narrow = nf.add(narrow, nf.class_atom(k));
  for (uint32_t k = 0; k < 16; ++k) {
    NfId product = nf.mul(nf.class_atom(1000 + k), row);
    ASSERT_NE(product, kNoNf) << k;
    EXPECT_EQ(nf.num_terms(product), 100u);
  }
  EXPECT_EQ(nf.mul(nf.class_atom(1000), row), nf.mul(row, nf.class_atom(1000)));  // memoized
  EXPECT_EQ(nf.mul(nf.class_atom(2000), row), kNoNf);
  EXPECT_EQ(nf.wide_products(), 1u);
  for (int c = 2; c < 40; ++c) EXPECT_NE(nf.mul(nf.constant(c), row), kNoNf) << c;
  for (uint32_t k = 0; k < 40; ++k) EXPECT_NE(nf.mul(nf.class_atom(3000 + k), narrow), kNoNf);
}

}  // namespace
}  // namespace keq::rules

namespace keq::rules {
namespace {

// Random small terms over two finite variables; many are equal by algebra (x+y, y+x, ...).
// Every pair the e-graph merges (normal forms and constant folding only, no rules) must agree
// at random points.
ir::TermId random_term(ir::TermStore& s, std::mt19937& rng, int depth) {
  static const char* leaves[] = {"x", "y", "1", "2", "0.5", "-3"};
  if (depth == 0 || rng() % 5 == 0)
    return ir::read_term(s, ir::parse_sexprs(leaves[rng() % 6], "t").at(0));
  switch (rng() % 9) {
    case 0:
      return s.make(ir::Op::Add, {random_term(s, rng, depth - 1), random_term(s, rng, depth - 1)});
    case 1:
      return s.make(ir::Op::Sub, {random_term(s, rng, depth - 1), random_term(s, rng, depth - 1)});
    case 2:
      return s.make(ir::Op::Mul, {random_term(s, rng, depth - 1), random_term(s, rng, depth - 1)});
    case 3:
      return s.make(ir::Op::Div, {random_term(s, rng, depth - 1), random_term(s, rng, depth - 1)});
    case 4:
      return s.make(ir::Op::Exp, {random_term(s, rng, depth - 1)});
    case 5:
      return s.make(ir::Op::Max, {random_term(s, rng, depth - 1), random_term(s, rng, depth - 1)});
    case 6:
      return s.make(ir::Op::MinNum,
                    {random_term(s, rng, depth - 1), random_term(s, rng, depth - 1)});
    case 7:
      return s.make(ir::Op::Neg, {random_term(s, rng, depth - 1)});
    default:
      return s.make(ir::Op::Sum, {random_term(s, rng, depth - 1), random_term(s, rng, depth - 1),
                                  random_term(s, rng, depth - 1)});
  }
}

TEST(NormalForm, MergesAreSoundOnRandomTerms) {
  std::mt19937 rng(5);
  size_t merged_pairs = 0;
  for (int round = 0; round < 20; ++round) {
    ir::TermStore s;
    bench::NfFamilies fam(s);
    Graph g(KeqLanguage(&s, ir::Semantics::Real));
    g.lang().set_domain(s.payload(s.variable("x")), {-2, 2, false});
    g.lang().set_domain(s.payload(s.variable("y")), {-2, 2, false});
    std::vector<std::pair<ir::TermId, egraph::EClassId>> terms;
    for (int k = 0; k < 150; ++k) {
      ir::TermId t = random_term(s, rng, 3);
      terms.push_back({t, add_term(g, t)});
    }
    g.rebuild();
    std::uniform_real_distribution<double> dist(-2, 2);
    for (size_t i = 0; i < terms.size(); ++i)
      for (size_t j = i + 1; j < terms.size(); ++j) {
        if (terms[i].first == terms[j].first || g.find(terms[i].second) != g.find(terms[j].second))
          continue;
        ++merged_pairs;
        for (int trial = 0; trial < 4; ++trial) {
          double xv = static_cast<float>(dist(rng)), yv = static_cast<float>(dist(rng));
          auto env = [&](const ir::Variable& v) {
            return std::optional(
                ir::RealValue::of(ir::Constant::of_float(v.name == "x" ? xv : yv)));
          };
          double a = ir::evaluate_real(s, terms[i].first, env).f.approx_double();
          double b = ir::evaluate_real(s, terms[j].first, env).f.approx_double();
          if (std::isnan(a) || std::isnan(b)) {
            ASSERT_TRUE(std::isnan(a) && std::isnan(b))
                << s.str(terms[i].first) << " vs " << s.str(terms[j].first);
            continue;
          }
          ASSERT_NEAR(a, b, 1e-9 * (1 + std::fabs(a)))
              << s.str(terms[i].first) << " vs " << s.str(terms[j].first) << " at x=" << xv
              << " y=" << yv;
        }
      }
  }
  EXPECT_GT(merged_pairs, 50u) << "too few merges to say anything";
  std::printf("merged pairs checked: %zu\n", merged_pairs);
}

// The product of two sums makes a monomial per pair of terms: --timeout reaches each. A MiniGPT
// block's normal forms ran 15 s past the run's deadline between the checks once per form.
TEST(NormalFormStore, AProductOfSumsStopsAtTheDeadline) {
  NormalForms nf;
  NfId xs = nf.constant(0), ys = nf.constant(0);
  for (uint32_t i = 0; i < 32; ++i) {
    xs = nf.add(xs, nf.class_atom(1 + i));
    ys = nf.add(ys, nf.class_atom(100 + i));
  }
  ir::BudgetScope past(ir::Budget::Clock::now() - std::chrono::seconds(1), 0);
  EXPECT_THROW(nf.mul(xs, ys), ir::BudgetExceeded);
}

// A stage's share as a deadline (the shared-terms pass, verify/stage_prove.cc): inside it the
// budget stops work at the share's end; after it the run's deadline holds again, and whether
// an exception was the run's own is told apart.
TEST(Budget, ATighterDeadlineEndsItsScopeAndRestoresTheRuns) {
  using Clock = ir::Budget::Clock;
  ir::BudgetScope run(Clock::now() + std::chrono::hours(1), 0);
  {
    ir::TighterDeadline share(Clock::now() - std::chrono::seconds(1));
    EXPECT_THROW(ir::Budget::check(), ir::BudgetExceeded);
    EXPECT_FALSE(share.outer_passed());
  }
  EXPECT_NO_THROW(ir::Budget::check());
  {
    ir::TighterDeadline later(Clock::now() + std::chrono::hours(2));  // never past the run's
    EXPECT_NO_THROW(ir::Budget::check());
  }
}

}  // namespace
}  // namespace keq::rules
