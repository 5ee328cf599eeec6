// Normal forms for real semantics: exponential polynomials over atoms.
//
// A normal form (NF) is a sum of terms c * m * exp(E): c an exact rational, m a monomial (atoms
// to integer powers, negative only for atoms known nonzero), and E itself an NF (the exponent;
// zero means no exp factor). exp(a) * exp(b) = exp(a + b) is built in, so the rescaling of online
// softmax is algebra here, and sums are flat, so every bracketing of a tiled reduction has one
// form. Atoms are e-classes that are not + - * / neg exp or constants (a variable, a log, an
// rsqrt), the inverse of a sum (1 / sum of exps), and flattened max and min sets.
//
// These identities hold over the reals, not over the extended reals (inf - inf is NaN). So an
// NF is only built from atoms and constants proven finite; the caller checks that. NFs are
// hash-consed: equal NFs have equal ids, which is how the e-graph finds classes to merge.
//
// Size guards keep the cost near the size of the terms. A product of two sums past the budget
// multiplies its wide factors (over wide_terms, 32 by default) as atoms W(P), P the form scaled
// to a first coefficient of 1; a sum that only changes coefficients of a wide form, the other
// side a 33rd of its size or less (x_i - mean over a wide group), takes the form as W(P) too
// when that side is an element minus its group's mean (its coefficients outweigh the form's)
// of at most element_terms terms (kElementTerms by default), and has
// no form otherwise (its class is an atom);
// and a sum of terms that hold W(P) once, whose cofactors make up k P, folds them to k W(P)^2.
// So sum_i (x_i - m)^2 and E[x^2] - E[x]^2 meet over any group width without the n^2 terms.
// A W(P) stands for P's value: forms stay exact, only less complete (the same value written
// with and without W has two forms). A form over 64 terms times its 17th distinct one-term
// factor gets no form; its class is an atom, which congruence matches when both programs build
// it alike.
//
// A form is stored as exp(G) * body: G (the shift) is the part every term's exponent holds
// alike, and the body's exponents are the rest. Online softmax rescales a running sum by
// exp(m - m_new) once per block; expanded, each of its j terms got a new exponent (x_i - m_new)
// per block, n^2 / BLOCK forms for a row of n, and now the rescale changes G alone. The shift is
// a function of the expanded form (common_exponent), so forms stay canonical.
#pragma once

#include <absl/container/flat_hash_map.h>
#include <gmpxx.h>

#include <functional>
#include <optional>
#include <span>
#include <string>
#include <tuple>
#include <vector>

namespace keq::rules {

using NfId = uint32_t;
inline constexpr NfId kNoNf = 0;    // no normal form (unknown, too large, or not finite)
inline constexpr NfId kZeroNf = 1;  // the zero polynomial
// NormalForms::element_terms by default: a loaded value, an activation of one (x * sigmoid(x)).
inline constexpr size_t kElementTerms = 4;
// NormalForms::wide_terms by default.
inline constexpr size_t kWideTerms = 32;

class NormalForms {
 public:
  // `wide_terms`: a form over this many terms is wide. A product of two sums past its square
  // (the budget) has no form, or, where both factors are wide, is their atoms' product, and a
  // sum that edits a wide form takes it as its atom (edits_wide): the two agree, so a group's
  // E[x]^2 and its deviations x_i - E[x] go the same way. Below it a group of n elements costs
  // n^3/2 terms (n squared deviations of n^2/2 each): 125,000 at 63, which took a conv +
  // InstanceNorm over 63 outputs 7 s, and 15,000 at 31. An element of the prover's second pass
  // (element_terms raised to 64) needs wide_terms as large, so its deviation's square expands.
  // `element_terms`: the most terms an element may have for its deviation from a wide group's
  // mean to get a form (small_edit).
  explicit NormalForms(size_t wide_terms = kWideTerms, size_t element_terms = kElementTerms);

  NfId constant(const mpq_class& c);
  NfId class_atom(uint32_t cls);  // the class as an atom; it must be finite
  NfId add(NfId a, NfId b);
  NfId sum(std::span<const NfId> parts);  // one normalization for an n-ary sum
  NfId scale(NfId a, const mpq_class& c);
  NfId neg(NfId a) { return scale(a, -1); }
  NfId sub(NfId a, NfId b);
  NfId mul(NfId a, NfId b);  // kNoNf when two sums would multiply past the budget
  NfId recip(NfId a);        // a must be nonzero everywhere; kNoNf for zero
  NfId exp(NfId a);
  // max or min of members (flattened, deduplicated); -inf members are dropped by the caller.
  NfId extremum(std::span<const NfId> members, bool is_max);

  // The value of a constant form (no atoms, no exp), else nothing.
  std::optional<mpq_class> constant_value(NfId a) const;
  // The form of a comparison `diff <op> 0` (kind: 0 for >, 1 for >=, 2 for ==, 3 for !=), equal
  // for every positive multiple of diff (and, for == and !=, every nonzero one): diff divided by
  // its first term's coefficient, taken absolute for the orders, times a marker of the kind.
  // a < b and 2a + 1 < 2b + 1 then share it. diff must not be constant (the caller decides it).
  NfId comparison(NfId diff, uint32_t kind);
  // The 0/1 value of a comparison, as an atom named by its comparison form.
  NfId indicator(NfId comparison_form);
  // a tagged with a type (an integer class's value): no float form and no other type's equals it.
  NfId typed(NfId a, uint32_t type);

  // Exactly 1 * A for a class atom A: the weakest form, which any other form should replace.
  bool is_class_atom(NfId a) const;
  size_t num_terms(NfId a) const { return terms(a).size(); }
  // Whether a term of a is a product of atoms (degree 2 or more): a dot product's form, not a
  // plain sum. Memoized: a row's mean is asked once per element.
  bool has_products(NfId a);
  size_t budget_exceeded() const { return budget_exceeded_; }
  // Deviations left without a form for their element's size (small_edit).
  size_t wide_edits() const { return wide_edits_; }
  size_t element_terms() const { return element_terms_; }
  // Products left to congruence (scales_wide_too_often).
  size_t wide_products() const { return wide_products_; }
  size_t budget() const { return budget_; }
  size_t size() const { return forms_.size(); }
  // Renders an NF; `class_name` names class atoms.
  std::string str(NfId a, const std::function<std::string(uint32_t)>& class_name) const;

 private:
  struct Term {
    uint32_t coeff;  // index into coeffs_
    uint32_t mono;   // index into monos_ (0: the empty monomial)
    NfId expo;       // kZeroNf: no exp factor
  };
  // A form's terms are sorted by monomial, then exponent: like terms are neighbours.
  static bool term_order(const Term& x, const Term& y) {
    return std::tie(x.mono, x.expo) < std::tie(y.mono, y.expo);
  }
  enum class AtomKind : uint32_t { Class, Inverse, Max, Min, Comparison, Indicator, Type, Wide };
  struct Atom {
    AtomKind kind;
    uint32_t payload;  // class id; NF id; member list id
  };
  using Mono = std::vector<std::pair<uint32_t, int32_t>>;  // (atom, power), sorted by atom
  // Powers are bounded so that their sums never wrap; a product past the bound has no form.
  // Kernels raise an atom to a few powers (a variance's square, pow(x, 3), a polynomial erf);
  // what climbs past 64 is a class fed its own products (0 * 0 = 0) as its form is remade, whose
  // powers (to 24,320) and coefficients (to 4096 bits) grew while the e-graph of a bf16 GEMM +
  // hardtanh + GELU of 8 outputs (KernelAgent's L2 53) spent 42 s, its top entries in perf GMP's
  // mpq_equal and mul_basecase and coefficient interning; 11 s with this bound.
  static constexpr int64_t kMaxPower = 64;
  static constexpr uint32_t kNoMono = UINT32_MAX;
  // Bits of a coefficient's numerator and denominator together; a product past it has no form.
  static constexpr size_t kMaxCoeffBits = 4096;
  bool coefficients_fit(NfId a) const;
  static bool powers_in_bounds(Mono m);

  uint32_t intern_coeff(const mpq_class& c);
  uint32_t intern_mono(Mono m);
  uint32_t mono_product(uint32_t a, uint32_t b);  // memoized
  NfId mul_uncached(NfId a, NfId b);
  // `subtract`: the sum is a - b (else a + b), which says which shared terms cancel.
  bool edits_wide(NfId a, NfId b, bool subtract);
  bool small_edit(NfId a, NfId b, bool subtract);
  bool outweighs(NfId few, NfId wide, bool subtract);
  bool cancels(const Term& x, const Term& y, bool subtract) const;
  NfId wide(NfId a);  // c * W(a / c), c the first term's coefficient: one term for n
  // An atom all but a 33rd of a's terms hold (at least wide_terms of them), the one most hold.
  std::optional<std::pair<uint32_t, int32_t>> shared_atom(NfId a) const;  // (atom, +-1)
  static constexpr size_t kMaxFactorDepth = 8;  // factors taken out of one wide form
  // A sum edits a wide form when the terms it changes are at most a 33rd of it (edits_wide); a
  // wide form takes out an atom all but a 33rd of its terms share (shared_atom).
  static constexpr size_t kEditRatio = 33;
  size_t factor_depth_ = 0;
  NfId fold_wide(NfId a);
  static constexpr size_t kKeptSumTerms = 4096;  // sum_unfolded keeps halves past it
  NfId sum_unfolded(std::span<const NfId> parts, bool keep);
  bool proportional(std::vector<Term> terms, NfId p);
  // The monomial every one of ts's monomials holds (each atom at its least power of one sign).
  Mono shared_monomial(const std::vector<Term>& ts) const;
  bool scales_wide_too_often(NfId single, NfId form);
  NfId recip_uncached(NfId a);
  mpq_class common_scale(std::span<const NfId> members);  // extremum's factor
  uint32_t intern_atom(Atom a);
  // exp(shift) * body; the body's exponents are relative to the shift.
  struct Form {
    NfId shift;
    uint32_t body;
  };
  const std::vector<Term>& terms(NfId a) const { return bodies_[forms_[a].body]; }
  NfId shift(NfId a) const { return forms_[a].shift; }
  // Sorts (unless `sorted`: in term_order already) and combines like terms, with exponents as
  // written (no shift).
  NfId intern_poly(std::vector<Term> terms, bool sorted = false) {
    return intern_form(std::move(terms), kZeroNf, sorted);
  }
  // exp(g) * terms, put in canonical form: the shift becomes the common part of the expanded
  // exponents, whatever g was given. kNoNf when an exponent has no form.
  NfId intern_form(std::vector<Term> terms, NfId g, bool sorted = false);
  uint32_t intern_body(std::vector<Term> terms);
  // The part every exponent of terms holds alike (terms in one form, two or more), or zero.
  NfId common_exponent(const std::vector<Term>& terms);
  bool holds_key_of(NfId exponent, NfId g) const;  // shares a (monomial, exponent) with g
  // a + sign * b exactly, without the size guards of add: for exponents and shifts.
  NfId linear(NfId a, NfId b, int sign);
  // The sum of parts, each one's terms rebased to a shift they share (a hint; intern_form
  // makes it canonical).
  NfId gather(std::span<const NfId> parts);
  NfId shared_shift(NfId a, NfId b);               // the terms two exponent-free shifts hold alike
  bool rebase(std::vector<Term>& terms, NfId by);  // each exponent += by; false: no form
  // few's terms with exponents as `wide` writes its own (relative to its shift), so the two
  // compare term by term (edits_wide, outweighs); in `scratch` when they had to be rebased.
  // nullptr when that has no form.
  const std::vector<Term>* comparable_terms(NfId few, NfId wide, std::vector<Term>& scratch);
  bool exponent_free(NfId a) const { return exponent_free_[a]; }
  NfId single(uint32_t coeff, uint32_t mono, NfId expo) {
    return intern_poly({{coeff, mono, expo}});
  }
  NfId atom_poly(uint32_t atom) { return single(one_, intern_mono({{atom, 1}}), kZeroNf); }
  std::string term_str(const Term& t, const std::function<std::string(uint32_t)>& name) const;

  size_t wide_terms_;
  size_t budget_;  // wide_terms_ squared
  size_t element_terms_;
  size_t budget_exceeded_ = 0;
  size_t wide_edits_ = 0;
  size_t wide_products_ = 0;
  mpq_class last_ratio_;  // proportional()'s k
  uint32_t one_ = 0;
  struct CoeffHash {
    size_t operator()(const mpq_class& q) const;
  };
  struct CoeffEq {
    bool operator()(const mpq_class& a, const mpq_class& b) const {
      return mpq_equal(a.get_mpq_t(), b.get_mpq_t());
    }
  };
  uint32_t zero_ = 0;
  std::vector<mpq_class> coeffs_;
  absl::flat_hash_map<mpq_class, uint32_t, CoeffHash, CoeffEq> coeff_index_;
  std::vector<Mono> monos_;
  absl::flat_hash_map<std::vector<int64_t>, uint32_t> mono_index_;
  std::vector<Atom> atoms_;
  absl::flat_hash_map<uint64_t, uint32_t> atom_index_;
  std::vector<std::vector<NfId>> lists_;  // max/min member lists
  absl::flat_hash_map<std::vector<NfId>, uint32_t> list_index_;
  // Memos of binary operations, keyed by both operand ids: products of sums repeat the same
  // monomial and exponent sums over and over.
  absl::flat_hash_map<uint64_t, uint32_t> mono_product_memo_;
  absl::flat_hash_map<uint64_t, NfId> add_memo_, mul_memo_;
  // (form, interned coefficient) -> the form scaled: max and min take a common factor out of
  // their members, scaling each (a LayerNorm'd element of thousands of terms under a clamp) once
  // per class that holds it, and again for each congruent node.
  absl::flat_hash_map<uint64_t, NfId> scale_memo_;
  absl::flat_hash_map<std::vector<NfId>, NfId> sum_memo_;  // sum_unfolded's halves
  absl::flat_hash_map<NfId, NfId> recip_memo_;             // a row's n quotients share one divisor
  absl::flat_hash_map<NfId, NfId> wide_memo_;              // and its n deviations one mean
  absl::flat_hash_map<NfId, uint32_t> wide_factors_;       // one-term factors each wide form took
  absl::flat_hash_map<uint64_t, NfId> plus_memo_, minus_memo_;  // linear's
  std::vector<Form> forms_;
  absl::flat_hash_map<uint64_t, NfId> form_index_;  // (shift, body)
  std::vector<std::vector<Term>> bodies_;
  absl::flat_hash_map<std::vector<uint32_t>, uint32_t> body_index_;
  std::vector<bool> exponent_free_;   // per form: no shift and no term with an exponent
  std::vector<int8_t> has_products_;  // per form: -1 not yet known, else has_products
  // Per body and per monomial: whether one holds a Wide atom to the first power (fold_wide's
  // candidates), so sums without one are not scanned.
  std::vector<bool> body_folds_, mono_folds_;
};

}  // namespace keq::rules
