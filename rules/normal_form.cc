#include "rules/normal_form.h"

#include <absl/hash/hash.h>

#include <algorithm>
#include <iterator>
#include <map>

#include "ir/budget.h"

namespace keq::rules {

size_t NormalForms::CoeffHash::operator()(const mpq_class& q) const {
  auto limbs = [](mpz_srcptr z) {
    size_t h = static_cast<size_t>(z->_mp_size);
    for (int k = 0; k < std::abs(z->_mp_size); ++k) h = h * 0x9E3779B97F4A7C15ull ^ z->_mp_d[k];
    return h;
  };
  return absl::HashOf(limbs(mpq_numref(q.get_mpq_t())), limbs(mpq_denref(q.get_mpq_t())));
}

NormalForms::NormalForms(size_t wide_terms, size_t element_terms)
    : wide_terms_(wide_terms), budget_(wide_terms * wide_terms), element_terms_(element_terms) {
  bodies_.emplace_back();  // body 0: no terms
  body_folds_.push_back(false);
  body_index_[{}] = 0;
  forms_.push_back({kZeroNf, 0});  // kNoNf: never used as a polynomial
  exponent_free_.push_back(true);
  monos_.emplace_back();  // monomial 0: empty
  mono_folds_.push_back(false);
  mono_index_[{}] = 0;
  zero_ = intern_coeff(0);
  one_ = intern_coeff(1);
  NfId zero = intern_poly({});
  (void)zero;  // == kZeroNf
}

uint32_t NormalForms::intern_coeff(const mpq_class& c) {
  auto [it, inserted] = coeff_index_.try_emplace(c, static_cast<uint32_t>(coeffs_.size()));
  if (inserted) coeffs_.push_back(c);
  return it->second;
}

uint32_t NormalForms::intern_mono(Mono m) {
  std::sort(m.begin(), m.end());
  Mono merged;
  for (auto [atom, pow] : m) {
    if (!merged.empty() && merged.back().first == atom)
      merged.back().second += pow;
    else
      merged.push_back({atom, pow});
  }
  std::erase_if(merged, [](const auto& p) { return p.second == 0; });  // x^-1 * x = 1: x nonzero
  std::vector<int64_t> key;
  for (auto [atom, pow] : merged) key.push_back(int64_t{atom} << 32 | static_cast<uint32_t>(pow));
  auto [it, inserted] = mono_index_.try_emplace(key, static_cast<uint32_t>(monos_.size()));
  if (inserted) {
    mono_folds_.push_back(std::any_of(merged.begin(), merged.end(), [&](const auto& p) {
      return p.second == 1 && atoms_[p.first].kind == AtomKind::Wide;
    }));
    monos_.push_back(std::move(merged));
  }
  return it->second;
}

// Whether every atom's power in m (atoms may repeat) stays within kMaxPower. A class that is its
// own square (0 * 0 = 0 puts (* c c) in c's class) doubles its power each time its form is made
// again: 32 changes took one to 2^32, whose int32 wrap made c^0 = 1 of a class that was 0.
bool NormalForms::powers_in_bounds(Mono m) {
  std::sort(m.begin(), m.end());
  int64_t run = 0;
  for (size_t k = 0; k < m.size(); ++k) {
    run = (k > 0 && m[k - 1].first == m[k].first ? run : 0) + m[k].second;
    if (run > kMaxPower || run < -kMaxPower) return false;
  }
  return true;
}

uint32_t NormalForms::mono_product(uint32_t a, uint32_t b) {
  if (a == 0) return b;
  if (b == 0) return a;
  if (a > b) std::swap(a, b);
  auto [it, inserted] = mono_product_memo_.try_emplace(uint64_t{a} << 32 | b, 0);
  if (inserted) {
    ir::Budget::tick();  // products of forms make millions of these: the budget reaches here
    Mono m = monos_[a];
    m.insert(m.end(), monos_[b].begin(), monos_[b].end());
    uint32_t r = powers_in_bounds(m) ? intern_mono(std::move(m)) : kNoMono;
    it = mono_product_memo_.find(uint64_t{a} << 32 | b);  // interning may have rehashed
    it->second = r;
  }
  return it->second;
}

uint32_t NormalForms::intern_atom(Atom a) {
  uint64_t key = uint64_t{static_cast<uint32_t>(a.kind)} << 32 | a.payload;
  auto [it, inserted] = atom_index_.try_emplace(key, static_cast<uint32_t>(atoms_.size()));
  if (inserted) atoms_.push_back(a);
  return it->second;
}

NfId NormalForms::intern_form(std::vector<Term> terms, NfId g, bool sorted) {
  ir::Budget::tick();  // a form can be as large as a row is wide: the budget reaches here
  if (g == kNoNf) return kNoNf;
  if (!sorted) std::sort(terms.begin(), terms.end(), term_order);
  std::vector<Term> out;
  out.reserve(terms.size());
  for (const Term& t : terms) {
    if (!out.empty() && out.back().mono == t.mono && out.back().expo == t.expo)
      out.back().coeff = intern_coeff(coeffs_[out.back().coeff] + coeffs_[t.coeff]);
    else
      out.push_back(t);
  }
  std::erase_if(out, [&](const Term& t) { return t.coeff == zero_; });
  if (out.empty()) {
    g = kZeroNf;
  } else if (out.size() == 1) {  // one term: its whole exponent is the shift
    g = linear(g, out[0].expo, 1);
    out[0].expo = kZeroNf;
  } else {
    // G + common(e_i) is the expanded exponents' common part when G's keys are in no e_i (the
    // case of a running sum: G = -m, e_i = x_i); otherwise G goes back into every exponent.
    bool apart = g == kZeroNf ||
                 (exponent_free(g) && std::none_of(out.begin(), out.end(), [&](const Term& t) {
                    return holds_key_of(t.expo, g);
                  }));
    if (!apart) {
      if (!rebase(out, g)) return kNoNf;
      g = kZeroNf;
      std::sort(out.begin(), out.end(), term_order);  // distinct exponents stay distinct
    }
    if (NfId c = common_exponent(out); c != kZeroNf) {
      if (!rebase(out, scale(c, -1))) return kNoNf;
      g = linear(g, c, 1);
      std::sort(out.begin(), out.end(), term_order);
    }
  }
  if (g == kNoNf) return kNoNf;
  uint32_t body = intern_body(std::move(out));
  auto [it, inserted] =
      form_index_.try_emplace(uint64_t{g} << 32 | body, static_cast<NfId>(forms_.size()));
  if (inserted) {
    forms_.push_back({g, body});
    const auto& b = bodies_[body];
    exponent_free_.push_back(g == kZeroNf && std::all_of(b.begin(), b.end(), [](const Term& t) {
                               return t.expo == kZeroNf;
                             }));
  }
  return it->second;
}

uint32_t NormalForms::intern_body(std::vector<Term> terms) {
  std::vector<uint32_t> key;
  key.reserve(3 * terms.size());
  for (const Term& t : terms) key.insert(key.end(), {t.coeff, t.mono, t.expo});
  auto [it, inserted] =
      body_index_.try_emplace(std::move(key), static_cast<uint32_t>(bodies_.size()));
  if (inserted) {
    body_folds_.push_back(std::any_of(terms.begin(), terms.end(),
                                      [&](const Term& t) { return mono_folds_[t.mono]; }));
    bodies_.push_back(std::move(terms));
  }
  return it->second;
}

// The terms every exponent holds with the same coefficient, when all are free of exp (a
// nested exponential leaves the shift zero: rare, and still canonical). One exponent of zero
// makes it zero, so forms without exp factors pay one comparison.
NfId NormalForms::common_exponent(const std::vector<Term>& terms) {
  for (const Term& t : terms)
    if (t.expo == kZeroNf || !exponent_free(t.expo)) return kZeroNf;
  std::vector<Term> common = this->terms(terms[0].expo);
  for (size_t k = 1; k < terms.size() && !common.empty(); ++k) {
    const std::vector<Term>& e = this->terms(terms[k].expo);
    std::erase_if(common, [&](const Term& c) {
      auto it = std::lower_bound(e.begin(), e.end(), c, term_order);
      return it == e.end() || it->mono != c.mono || it->coeff != c.coeff;
    });
  }
  return intern_poly(std::move(common), /*sorted=*/true);
}

bool NormalForms::holds_key_of(NfId exponent, NfId g) const {
  const std::vector<Term>& e = terms(exponent);
  if (e.empty()) return false;
  for (const Term& t : terms(g)) {
    auto it = std::lower_bound(e.begin(), e.end(), t, term_order);
    if (it != e.end() && it->mono == t.mono && it->expo == t.expo) return true;
  }
  return !exponent_free(exponent);  // a nested exponential: treat it as holding g
}

NfId NormalForms::linear(NfId a, NfId b, int sign) {
  if (a == kNoNf || b == kNoNf) return kNoNf;
  if (b == kZeroNf) return a;
  if (a == kZeroNf) return sign > 0 ? b : scale(b, -1);
  if (sign < 0 && a == b) return kZeroNf;
  if (sign > 0 && a > b) std::swap(a, b);
  auto& memo = sign > 0 ? plus_memo_ : minus_memo_;
  uint64_t key = uint64_t{a} << 32 | b;
  if (auto it = memo.find(key); it != memo.end()) return it->second;
  NfId parts[] = {a, sign > 0 ? b : scale(b, -1)};
  NfId r = gather(parts);
  memo[key] = r;
  return r;
}

NfId NormalForms::shared_shift(NfId a, NfId b) {
  if (a == kZeroNf || b == kZeroNf || a == b) return a == b ? a : kZeroNf;
  if (!exponent_free(a) || !exponent_free(b)) return kZeroNf;
  std::vector<Term> common;
  const std::vector<Term>& tb = terms(b);
  for (const Term& t : terms(a)) {
    auto it = std::lower_bound(tb.begin(), tb.end(), t, term_order);
    if (it != tb.end() && it->mono == t.mono && it->coeff == t.coeff) common.push_back(t);
  }
  // A row's parts exp(x_i - m) share -m: found as a itself after the first, without interning.
  if (common.size() == num_terms(a)) return a;
  return intern_poly(std::move(common), /*sorted=*/true);
}

bool NormalForms::rebase(std::vector<Term>& terms, NfId by) {
  if (by == kZeroNf) return true;
  for (Term& t : terms)
    if ((t.expo = linear(t.expo, by, 1)) == kNoNf) return false;
  return true;
}

const std::vector<NormalForms::Term>* NormalForms::comparable_terms(NfId few, NfId wide,
                                                                    std::vector<Term>& scratch) {
  if (shift(few) == shift(wide)) return &terms(few);
  scratch = terms(few);
  if (!rebase(scratch, linear(shift(few), shift(wide), -1))) return nullptr;
  return &scratch;
}

NfId NormalForms::gather(std::span<const NfId> parts) {
  NfId g = shift(parts[0]);
  for (NfId p : parts.subspan(1)) g = shared_shift(g, shift(p));
  std::vector<Term> t;
  for (NfId p : parts) {
    if (shift(p) == g) {
      t.insert(t.end(), terms(p).begin(), terms(p).end());
      continue;
    }
    std::vector<Term> mine = terms(p);  // a copy: rebasing interns, which may move bodies
    if (!rebase(mine, linear(shift(p), g, -1))) return kNoNf;
    t.insert(t.end(), mine.begin(), mine.end());
  }
  return intern_form(std::move(t), g);
}

NfId NormalForms::constant(const mpq_class& c) {
  if (c == 0) return kZeroNf;
  return single(intern_coeff(c), 0, kZeroNf);
}

std::optional<mpq_class> NormalForms::constant_value(NfId a) const {
  if (a == kNoNf) return std::nullopt;
  const auto& p = terms(a);
  if (p.empty()) return mpq_class(0);
  if (p.size() == 1 && p[0].mono == 0 && shift(a) == kZeroNf) return coeffs_[p[0].coeff];
  return std::nullopt;
}

NfId NormalForms::comparison(NfId diff, uint32_t kind) {
  if (diff == kNoNf || terms(diff).empty()) return kNoNf;
  mpq_class lead = coeffs_[terms(diff)[0].coeff];
  if (kind < 2) lead = abs(lead);  // an order keeps its direction only under positive scaling
  NfId monic = scale(diff, 1 / lead);
  return mul(atom_poly(intern_atom({AtomKind::Comparison, kind})), monic);
}

NfId NormalForms::indicator(NfId comparison_form) {
  return atom_poly(intern_atom({AtomKind::Indicator, comparison_form}));
}

NfId NormalForms::typed(NfId a, uint32_t type) {
  // a + T, not a * T: zero times a marker would be the zero of every type.
  return add(atom_poly(intern_atom({AtomKind::Type, type})), a);
}

NfId NormalForms::class_atom(uint32_t cls) {
  return atom_poly(intern_atom({AtomKind::Class, cls}));
}

bool NormalForms::has_products(NfId a) {
  if (has_products_.size() <= a) has_products_.resize(forms_.size(), -1);
  if (has_products_[a] < 0) {
    has_products_[a] = 0;
    for (const Term& t : terms(a)) {
      int degree = 0;
      for (auto [atom, power] : monos_[t.mono]) degree += power > 0 ? power : 0;
      if (degree >= 2) {
        has_products_[a] = 1;
        break;
      }
    }
  }
  return has_products_[a] == 1;
}

bool NormalForms::is_class_atom(NfId a) const {
  const auto& p = terms(a);
  if (p.size() != 1 || p[0].coeff != one_ || shift(a) != kZeroNf) return false;
  const Mono& m = monos_[p[0].mono];
  return m.size() == 1 && m[0].second == 1 && atoms_[m[0].first].kind == AtomKind::Class;
}

// A sum that only changes coefficients of a wide form: every term of the smaller side is one
// of the wide form's (x_i - mean over a row: the mean's n terms, one coefficient changed; a
// convolution output minus its group's mean). Expanded, each of a row's n outputs costs n, so
// n^2 in all; the wide side is an atom W instead (add, sub), the same atom the mean's
// square past the budget is (mul_uncached), so sum_i (x_i - m)^2 folds to what E[x^2] - E[x]^2
// gives (fold_wide). Accumulating a row adds terms the form does not have yet, so it is always
// expanded: that is where the programs' orders differ and forms are needed. Constant terms do
// not count either way.
bool NormalForms::edits_wide(NfId a, NfId b, bool subtract) {
  // A sum is an edit when the wide form has over wide_terms_ terms (past them, the mean's
  // square is past the budget: the two decisions agree) and the terms the smaller side changes
  // are at most a 33rd of it: one element minus its group's mean over more than wide_terms_
  // elements, a convolution output (17 terms) minus its group's (900). Two statistics of a group
  // of n <= wide_terms_ elements are not (E[x^2], n terms, minus E[x]^2, expanded to n(n+1)/2: a
  // ratio of at most 32.5, at n = 64 when element_terms is raised to 64), as the reference's sum
  // of (x_i - m)^2 is expanded there too. A term that cancels changes nothing: a conv output
  // P_i + b minus its group's mean P/n + b changes one term of the mean's n + 1, so a group of
  // outputs with a bias, whose mean squared is past the budget, has deviations that are edits.
  if (num_terms(a) < num_terms(b)) std::swap(a, b);
  if (num_terms(a) <= wide_terms_) return false;
  std::vector<Term> scratch;
  const std::vector<Term>* few = comparable_terms(b, a, scratch);
  if (!few) return false;
  const std::vector<Term>* wide = &terms(a);
  const bool constants = shift(a) == kZeroNf;  // a term of mono 0 and exponent 0 is one
  size_t changed = 0;
  for (const Term& t : *few) {
    if (constants && t.mono == 0 && t.expo == kZeroNf) continue;
    auto it = std::lower_bound(wide->begin(), wide->end(), t, term_order);
    if (it == wide->end() || it->mono != t.mono || it->expo != t.expo) return false;
    changed += !cancels(t, *it, subtract);
  }
  // A few-term element (up to kElementTerms) minus the mean of a group of 32 or fewer is an
  // edit too once the group's form is wide: 17 elements of 2 terms (a Mish output) have a mean
  // of 34 terms, whose square passes the budget, so its deviations must take it as W as well.
  // E[x^2] has n > kElementTerms terms where E[x]^2 is wide, so it stays out.
  return changed > 0 && (changed * kEditRatio <= wide->size() || changed <= kElementTerms);
}

// Whether a sum's terms x and y (one monomial and exponent) cancel: equal coefficients in a - b,
// opposite ones in a + b.
bool NormalForms::cancels(const Term& x, const Term& y, bool subtract) const {
  const mpq_class &cx = coeffs_[x.coeff], &cy = coeffs_[y.coeff];
  return subtract ? cx == cy : cx == -cy;
}

// An edit that is an element minus its group's mean (outweighs) takes the form as W when the
// element has at most element_terms() terms: x_i - W/n, whose square has about k^2/2 terms. Past
// that (a convolution output of k terms, a group's sum of squares n k^2/2: 100,000 for 512
// elements of 19) it has no form by default, as both programs usually build the same deviations,
// which congruence matches at n terms; those refused for size are counted in wide_edits(), and
// the prover's second pass (verify) raises element_terms where a goal is left. Other edits
// (an element added to a running sum that holds it already) have no form either.
bool NormalForms::small_edit(NfId a, NfId b, bool subtract) {
  if (num_terms(a) < num_terms(b)) std::swap(a, b);
  if (!outweighs(b, a, subtract)) return false;
  if (num_terms(b) <= element_terms_) return true;
  ++wide_edits_;
  return false;
}

// Whether each of few's terms, other than a constant and one that cancels, has a larger
// coefficient (in magnitude) than the same term in wide, and one such term exists: x_i - P/n and
// n x_i - P do, and so does a conv output P_i + b minus its group's mean P/n + b (the bias,
// shared by the group, cancels); an element added to a running sum that holds it already (a
// bias added once per element) does not.
bool NormalForms::outweighs(NfId few, NfId wide, bool subtract) {
  std::vector<Term> scratch;
  const std::vector<Term>* f = comparable_terms(few, wide, scratch);
  if (!f) return false;
  const std::vector<Term>& w = terms(wide);
  const bool constants = shift(wide) == kZeroNf;
  bool larger = false;
  for (const Term& t : *f) {
    if (constants && t.mono == 0 && t.expo == kZeroNf) continue;
    auto it = std::lower_bound(w.begin(), w.end(), t, term_order);
    if (it == w.end() || it->mono != t.mono || it->expo != t.expo) return false;
    if (cancels(t, *it, subtract)) continue;
    if (abs(coeffs_[t.coeff]) <= abs(coeffs_[it->coeff])) return false;
    larger = true;
  }
  return larger;
}

// The n^2 of edits_wide, by another road: once rules distribute a deviation's square (d_i * (x_i
// - mean), d_i left without a form), each of a group's n elements multiplies the group's mean
// (n terms) by its own atom. A form over 64 terms times a one-term factor that is not a constant
// gets a form for its first 16 factors only; a running sum rescaled once per block (online
// softmax), or a row's sum times a few weights, stays far below that.
bool NormalForms::scales_wide_too_often(NfId single, NfId form) {
  constexpr size_t kWide = 64, kFactors = 16;
  if (num_terms(single) != 1 || num_terms(form) <= kWide) return false;
  if (constant_value(single)) return false;  // a constant: a scaling
  return ++wide_factors_[form] > kFactors;
}

NfId NormalForms::sub(NfId a, NfId b) {
  if (a == kNoNf || b == kNoNf) return kNoNf;
  if (edits_wide(a, b, true)) {  // the wide side as W first: negating it costs its n terms
    if (!small_edit(a, b, true)) return kNoNf;
    if (num_terms(a) >= num_terms(b)) return add(wide(a), neg(b));
    return add(a, neg(wide(b)));
  }
  return add(a, neg(b));
}

// A wide form as one atom, W(P) for P the form scaled so its first coefficient is 1 (a mean and
// a sum share it). Edits of a wide form and products past the budget see it instead of the n
// terms: x_i - mean is 2 terms, mean^2 one. fold_wide gives the sums back their meeting point.
NfId NormalForms::wide(NfId a) {
  if (auto it = wide_memo_.find(a); it != wide_memo_.end()) return it->second;  // a row's n edits
  // A form whose terms share an atom but for a few is rest + f W(P): the shift a folded
  // BatchNorm computes, b - mean * w * rsqrt(var), then stands on the group's W(sum x) as the
  // reference's (x - mean) * w * rsqrt(var) + b does, not on an atom of its own.
  if (auto f = factor_depth_ < kMaxFactorDepth ? shared_atom(a) : std::nullopt) {
    struct Level {  // each level removes a factor's power; the bound only guards that
      size_t& depth;
      ~Level() { --depth; }
    } level{++factor_depth_};
    const uint32_t atom = f->first;  // not a structured binding: clang 14's lambdas cannot
    const int32_t sign = f->second;  // capture those (the fuzz build)
    std::vector<Term> held, rest;
    const std::vector<Term> all = terms(a);  // a copy: interning monomials may move bodies
    for (const Term& t : all) {
      const Mono& m = monos_[t.mono];
      auto it = std::find_if(m.begin(), m.end(), [&](const auto& p) {
        return p.first == atom && (p.second > 0) == (sign > 0);
      });
      if (it == m.end()) {
        rest.push_back(t);
        continue;
      }
      Mono less = m;
      less[static_cast<size_t>(it - m.begin())].second -= sign;
      held.push_back({t.coeff, intern_mono(std::move(less)), t.expo});
    }
    NfId factor = single(one_, intern_mono({{atom, sign}}), kZeroNf);
    NfId r = add(intern_form(std::move(rest), shift(a)),
                 mul(factor, wide(intern_form(std::move(held), shift(a)))));
    wide_memo_[a] = r;
    return r;
  }
  mpq_class c = coeffs_[terms(a)[0].coeff];
  uint32_t atom = intern_atom({AtomKind::Wide, scale(a, 1 / c)});
  NfId r = scale(atom_poly(atom), c);
  wide_memo_[a] = r;
  return r;
}

std::optional<std::pair<uint32_t, int32_t>> NormalForms::shared_atom(NfId a) const {
  const std::vector<Term>& terms = this->terms(a);
  absl::flat_hash_map<std::pair<uint32_t, int32_t>, size_t> holding;  // (atom, 1 or -1)
  // Only an e-class taken as an atom is a factor, a value whose power each division lowers:
  // comparison and type atoms mark forms rather than multiply them, and factoring an indicator
  // out of a KL divergence's terms did not end.
  for (const Term& t : terms)
    for (auto [atom, pow] : monos_[t.mono])
      if (atoms_[atom].kind == AtomKind::Class) ++holding[{atom, pow > 0 ? 1 : -1}];
  std::optional<std::pair<uint32_t, int32_t>> best;
  size_t most = 0;
  for (auto [factor, n] : holding)
    if (n > most || (n == most && best && factor < *best)) best = factor, most = n;
  if (!best || most <= wide_terms_ || (terms.size() - most) * kEditRatio > terms.size())
    return std::nullopt;
  return best;
}

// Whether terms (distinct monomial-exponent pairs) are k P for some k, found in last_ratio_: the
// same monomials in the same order, coefficients in one ratio. No interning: a wide form's
// terms are compared where they differ, at their first term most often.
bool NormalForms::proportional(std::vector<Term> terms, NfId p) {
  const std::vector<Term>& form = this->terms(p);
  std::sort(terms.begin(), terms.end(), term_order);
  for (size_t k = 0; k < terms.size(); ++k)
    if (terms[k].mono != form[k].mono || terms[k].expo != form[k].expo) return false;
  last_ratio_ = coeffs_[terms[0].coeff] / coeffs_[form[0].coeff];
  for (size_t k = 1; k < terms.size(); ++k)
    if (coeffs_[terms[k].coeff] != last_ratio_ * coeffs_[form[k].coeff]) return false;
  return true;
}

// Sum_i x_i * W(P) where the x_i (times what else the terms share) make up k P is k W(P)^2:
// sum_i (x_i - m)^2 = sum x_i^2 - 2 m sum x_i + n m^2 meets E[x^2] - E[x]^2 this way, with
// m = W(P)/n from edits and m * m = W(P)^2/n^2 from the product, where the expansion costs n^2
// (a group of n elements, each minus the group's mean).
NfId NormalForms::fold_wide(NfId a) {
  // A sum holding W(P) and another term has no exp factor every term shares (W has none).
  if (a == kNoNf || !body_folds_[forms_[a].body] || num_terms(a) < 2 || shift(a) != kZeroNf)
    return a;
  const std::vector<Term> terms = this->terms(a);
  std::map<uint32_t, std::vector<size_t>> by_atom;  // ordered: the same folds every run
  for (size_t k = 0; k < terms.size(); ++k)
    for (auto [atom, pow] : monos_[terms[k].mono])
      if (pow == 1 && atoms_[atom].kind == AtomKind::Wide) by_atom[atom].push_back(k);
  std::vector<bool> folded(terms.size(), false);
  std::vector<Term> squares;
  for (const auto& [atom, members] : by_atom) {
    NfId p = atoms_[atom].payload;
    if (members.size() != num_terms(p) ||
        std::any_of(members.begin(), members.end(), [&](size_t k) { return folded[k]; }))
      continue;
    std::vector<Term> cofactor;
    for (size_t k : members) {
      Mono m = monos_[terms[k].mono];
      std::erase_if(m, [atom = atom](const auto& x) { return x.first == atom; });
      cofactor.push_back({terms[k].coeff, intern_mono(std::move(m)), terms[k].expo});
    }
    if (!rebase(cofactor, scale(shift(p), -1))) continue;  // as P's body writes them
    // Else a factor every cofactor holds beyond P's elements stays with the square: a group
    // scaled by s before its deviations were squared (InstanceNorm of x * s) has s^2 x_i W(P).
    Mono extra;
    if (!proportional(cofactor, p)) {
      extra = shared_monomial(cofactor);
      if (extra.empty()) continue;
      for (Term& t : cofactor) {
        Mono m = monos_[t.mono];
        for (auto [a, pow] : extra) m.push_back({a, -pow});
        t.mono = intern_mono(std::move(m));
      }
      if (!proportional(std::move(cofactor), p)) continue;
    }
    for (size_t k : members) folded[k] = true;
    extra.push_back({atom, 2});
    squares.push_back({intern_coeff(last_ratio_), intern_mono(std::move(extra)), kZeroNf});
  }
  if (squares.empty()) return a;
  for (size_t k = 0; k < terms.size(); ++k)
    if (!folded[k]) squares.push_back(terms[k]);
  return intern_poly(std::move(squares));
}

NormalForms::Mono NormalForms::shared_monomial(const std::vector<Term>& ts) const {
  Mono common = ts.empty() ? Mono{} : monos_[ts[0].mono];
  for (size_t k = 1; k < ts.size() && !common.empty(); ++k) {
    const Mono& m = monos_[ts[k].mono];
    Mono both;
    for (auto [atom, pow] : common) {
      auto it =
          std::find_if(m.begin(), m.end(), [a = atom](const auto& x) { return x.first == a; });
      if (it == m.end() || (it->second > 0) != (pow > 0)) continue;
      both.push_back({atom, pow > 0 ? std::min(pow, it->second) : std::max(pow, it->second)});
    }
    common = std::move(both);
  }
  return common;
}

NfId NormalForms::add(NfId a, NfId b) {
  if (a == kNoNf || b == kNoNf) return kNoNf;
  if (a == kZeroNf) return b;
  if (b == kZeroNf) return a;
  if (edits_wide(a, b, false)) {
    if (!small_edit(a, b, false)) return kNoNf;
    if (num_terms(a) < num_terms(b)) std::swap(a, b);
    return add(wide(a), b);
  }
  if (a > b) std::swap(a, b);
  uint64_t key = uint64_t{a} << 32 | b;
  if (auto it = add_memo_.find(key); it != add_memo_.end()) return it->second;
  NfId parts[] = {a, b};
  NfId r = fold_wide(gather(parts));
  add_memo_[key] = r;
  return r;
}

NfId NormalForms::sum(std::span<const NfId> parts) {
  size_t terms = 0;
  for (NfId p : parts) {
    if (p == kNoNf) return kNoNf;
    terms += num_terms(p);
  }
  return fold_wide(sum_unfolded(parts, terms > kKeptSumTerms));
}

// A sum's terms combined; with `keep`, as halves whose forms are kept: an n-ary sum is made
// again each time one of its operands' classes changes form (a group's n squared deviations of
// n^2/2 terms each, adopting the candidate's forms one by one), and only the halves on that
// operand's path are combined again. Small sums (a dot product's k products, made once) are
// combined at once, as keeping their halves costs more than it saves. Folding (fold_wide) waits
// for the whole sum, so the form is the one a single pass over every term gives.
NfId NormalForms::sum_unfolded(std::span<const NfId> parts, bool keep) {
  constexpr size_t kLeaf = 8;
  if (!keep || parts.size() <= kLeaf) return gather(parts);
  std::vector<NfId> key(parts.begin(), parts.end());
  if (auto it = sum_memo_.find(key); it != sum_memo_.end()) return it->second;
  size_t half = parts.size() / 2;
  NfId a = sum_unfolded(parts.first(half), true), b = sum_unfolded(parts.subspan(half), true);
  // Both halves are sorted: merged, not sorted again, the tree costs what one sort does.
  NfId r = kNoNf;
  if (a != kNoNf && b != kNoNf && shift(a) == shift(b)) {
    std::vector<Term> t;
    t.reserve(num_terms(a) + num_terms(b));
    std::merge(terms(a).begin(), terms(a).end(), terms(b).begin(), terms(b).end(),
               std::back_inserter(t), term_order);
    r = intern_form(std::move(t), shift(a), /*sorted=*/true);
  } else if (a != kNoNf && b != kNoNf) {
    NfId halves[] = {a, b};
    r = gather(halves);
  }
  sum_memo_.emplace(std::move(key), r);
  return r;
}

NfId NormalForms::scale(NfId a, const mpq_class& c) {
  if (a == kNoNf) return kNoNf;
  if (c == 1) return a;
  uint64_t key = uint64_t{a} << 32 | intern_coeff(c);
  if (auto it = scale_memo_.find(key); it != scale_memo_.end()) return it->second;
  std::vector<Term> t = terms(a);
  for (Term& x : t) x.coeff = intern_coeff(coeffs_[x.coeff] * c);
  NfId r = intern_form(std::move(t), shift(a), /*sorted=*/true);
  scale_memo_.emplace(key, r);
  return r;
}

NfId NormalForms::mul(NfId a, NfId b) {
  if (a == kNoNf || b == kNoNf) return kNoNf;
  if (a == kZeroNf || b == kZeroNf) return kZeroNf;
  if (a > b) std::swap(a, b);
  uint64_t key = uint64_t{a} << 32 | b;
  if (auto it = mul_memo_.find(key); it != mul_memo_.end()) return it->second;
  NfId r = mul_uncached(a, b);
  if (r != kNoNf && !coefficients_fit(r)) r = kNoNf;
  mul_memo_[key] = r;
  return r;
}

// A product's coefficients grow with each factor, and a class its own products keep feeding
// grows them without end: Liger's kl_div spent 50 s of 10 iterations in GMP arithmetic and
// coefficient hashing (perf). Past kMaxCoeffBits a product has no form, as past kMaxPower.
bool NormalForms::coefficients_fit(NfId a) const {
  for (const Term& t : terms(a)) {
    const mpq_class& c = coeffs_[t.coeff];
    if (mpz_sizeinbase(c.get_num_mpz_t(), 2) + mpz_sizeinbase(c.get_den_mpz_t(), 2) > kMaxCoeffBits)
      return false;
  }
  return true;
}

NfId NormalForms::mul_uncached(NfId a, NfId b) {
  // A product with a one-term factor is no larger than the other factor; only sum-by-sum
  // products can grow without bound.
  size_t na = num_terms(a), nb = num_terms(b);
  // Past the budget, a product of two factors that squared would each pass it alone is one of
  // their atoms: m * m is W(P)^2 / n^2 for a group mean m = P / n. Others have no form (a wide
  // form times each of a group's elements would give the group n forms of its size).
  if (na > 1 && nb > 1 && na * nb > budget_) {
    ++budget_exceeded_;
    if (na * na <= budget_ || nb * nb <= budget_) return kNoNf;
    return mul(wide(a), wide(b));
  }
  if (scales_wide_too_often(na == 1 ? a : b, na == 1 ? b : a)) {
    ++wide_products_;
    return kNoNf;
  }
  std::vector<Term> out;
  const std::vector<Term> ta = terms(a), tb = terms(b);  // copies: interning may move bodies
  for (const Term& x : ta)
    for (const Term& y : tb) {
      NfId e = add(x.expo, y.expo);  // exp(a) * exp(b) = exp(a + b)
      // An exponent sum without a form (a wide exponent edited by a term that is no deviation
      // from its mean) leaves the product without one: kNoNf as an exponent would make every
      // such product one term.
      if (e == kNoNf) return kNoNf;
      uint32_t coeff = x.coeff == one_   ? y.coeff
                       : y.coeff == one_ ? x.coeff
                                         : intern_coeff(coeffs_[x.coeff] * coeffs_[y.coeff]);
      uint32_t mono = mono_product(x.mono, y.mono);
      if (mono == kNoMono) return kNoNf;  // a power past kMaxPower
      out.push_back({coeff, mono, e});
    }
  // The shifts add under add's size guards as the exponents do (a wide exponent edited by a
  // term that is no deviation from its mean has no form).
  NfId g = add(shift(a), shift(b));
  return g == kNoNf ? kNoNf : intern_form(std::move(out), g);
}

NfId NormalForms::recip(NfId a) {
  if (a == kNoNf || a == kZeroNf) return kNoNf;
  if (auto it = recip_memo_.find(a); it != recip_memo_.end()) return it->second;
  NfId r = recip_uncached(a);
  recip_memo_[a] = r;
  return r;
}

NfId NormalForms::recip_uncached(NfId a) {
  const std::vector<Term> t = terms(a);
  const NfId g = shift(a);
  if (t.size() == 1) {  // (c m exp(G))^-1 = c^-1 m^-1 exp(-G); every atom of m is nonzero
    Mono m = monos_[t[0].mono];
    for (auto& p : m) p.second = -p.second;
    return single(intern_coeff(1 / coeffs_[t[0].coeff]), intern_mono(std::move(m)), neg(g));
  }
  // A sum: 1 / (exp(G) c S') = exp(-G) c^-1 Inv(S'), with S' scaled so its first term's
  // coefficient is 1 and without the shift, so that x / S, x / (2 S) and a rescaled running
  // sum's quotient share their atom.
  mpq_class c = coeffs_[t[0].coeff];
  NfId normalized = scale(intern_form(t, kZeroNf, /*sorted=*/true), 1 / c);
  NfId inv = atom_poly(intern_atom({AtomKind::Inverse, normalized}));
  return g == kZeroNf ? scale(inv, 1 / c) : mul(scale(inv, 1 / c), exp(neg(g)));
}

NfId NormalForms::exp(NfId a) {
  if (a == kNoNf) return kNoNf;
  if (a == kZeroNf) return constant(1);
  return single(one_, 0, a);
}

NfId NormalForms::extremum(std::span<const NfId> members, bool is_max) {
  AtomKind kind = is_max ? AtomKind::Max : AtomKind::Min;
  std::vector<NfId> flat;
  for (NfId m : members) {
    if (m == kNoNf) return kNoNf;
    const auto& p = terms(m);
    // A member that is itself a max of the same kind, times c > 0, contributes its members
    // times c: max is flat, and max(c a, c b) = c max(a, b).
    if (p.size() == 1 && coeffs_[p[0].coeff] > 0 && shift(m) == kZeroNf &&
        monos_[p[0].mono].size() == 1 && monos_[p[0].mono][0].second == 1 &&
        atoms_[monos_[p[0].mono][0].first].kind == kind) {
      mpq_class c = coeffs_[p[0].coeff];
      for (NfId inner : lists_[atoms_[monos_[p[0].mono][0].first].payload])
        flat.push_back(scale(inner, c));
    } else {
      flat.push_back(m);
    }
  }
  // Constant members meet in one, the largest for a max: a running max from the finite sentinel
  // -1e30, clamped at 0 (max(-1e30, x_1, ..., 0)), is max(x_1, ..., 0), as torch's pool and clamp.
  // Only beside a member that is no constant: a max of constants alone keeps its form (folded
  // to a constant, examples/int8_per_token_quant's clamp was no longer proved; why is open).
  std::optional<mpq_class> bound;
  const bool varying =
      std::any_of(flat.begin(), flat.end(), [&](NfId m) { return !constant_value(m); });
  if (varying)
    std::erase_if(flat, [&](NfId m) {
      std::optional<mpq_class> v = constant_value(m);
      if (!v) return false;
      if (!bound || (is_max ? *v > *bound : *v < *bound)) bound = *v;
      return true;
    });
  if (bound) flat.push_back(constant(*bound));
  std::sort(flat.begin(), flat.end());
  flat.erase(std::unique(flat.begin(), flat.end()), flat.end());
  if (flat.empty()) return kNoNf;
  if (flat.size() == 1) return flat[0];
  mpq_class c = common_scale(flat);
  if (c != 1) {
    for (NfId& m : flat) m = scale(m, 1 / c);
    std::sort(flat.begin(), flat.end());
  }
  auto [it, inserted] = list_index_.try_emplace(flat, static_cast<uint32_t>(lists_.size()));
  if (inserted) lists_.push_back(flat);
  return scale(atom_poly(intern_atom({kind, it->second})), c);
}

// The c > 0 that extremum takes out of its members, the same for every positive multiple of
// them, so a per-block maximum scaled by 1/448 and the maximum of the row scaled by it meet:
// |first coefficient| of the member whose form divided by that is first. 1 when every member's
// first coefficient is +-1 (a row's maximum of elements: nothing to scale).
mpq_class NormalForms::common_scale(std::span<const NfId> members) {
  auto lead = [&](NfId m) { return mpq_class(abs(coeffs_[terms(m)[0].coeff])); };
  bool units = true;
  for (NfId m : members) units = units && (m == kZeroNf || lead(m) == 1);
  if (units) return 1;
  NfId first = kNoNf;
  mpq_class c = 1;
  for (NfId m : members) {
    if (m == kZeroNf) continue;
    NfId unit = scale(m, 1 / lead(m));
    if (first == kNoNf || unit < first) first = unit, c = lead(m);
  }
  return c;
}

std::string NormalForms::term_str(const Term& t,
                                  const std::function<std::string(uint32_t)>& name) const {
  std::string s = coeffs_[t.coeff].get_str();
  for (auto [atom, pow] : monos_[t.mono]) {
    const Atom& a = atoms_[atom];
    std::string an;
    switch (a.kind) {
      case AtomKind::Class:
        an = name(a.payload);
        break;
      case AtomKind::Inverse:
        an = "inv(" + str(a.payload, name) + ")";
        break;
      case AtomKind::Wide:
        an = "W(" + str(a.payload, name) + ")";
        break;
      case AtomKind::Type:
        an = "type" + std::to_string(a.payload);
        break;
      case AtomKind::Indicator:
        an = "[" + str(a.payload, name) + "]";
        break;
      case AtomKind::Comparison:
        an = std::string("cmp") + (a.payload == 0   ? ">0"
                                   : a.payload == 1 ? ">=0"
                                   : a.payload == 2 ? "==0"
                                                    : "!=0");
        break;
      case AtomKind::Max:
      case AtomKind::Min: {
        an = a.kind == AtomKind::Max ? "max{" : "min{";
        for (size_t k = 0; k < lists_[a.payload].size(); ++k)
          an += (k ? ", " : "") + str(lists_[a.payload][k], name);
        an += "}";
        break;
      }
    }
    s += "*" + an + (pow == 1 ? "" : "^" + std::to_string(pow));
  }
  if (t.expo != kZeroNf) s += "*exp(" + str(t.expo, name) + ")";
  return s;
}

std::string NormalForms::str(NfId a, const std::function<std::string(uint32_t)>& name) const {
  if (a == kNoNf) return "<none>";
  if (terms(a).empty()) return "0";
  std::string s;
  for (const Term& t : terms(a)) s += (s.empty() ? "" : " + ") + term_str(t, name);
  if (shift(a) == kZeroNf) return s;
  return "exp(" + str(shift(a), name) + ")*(" + s + ")";
}

}  // namespace keq::rules
