#include "ir/select_by_value.h"

#include <vector>

#include "absl/container/flat_hash_map.h"
#include "ir/value.h"

namespace keq::ir {
namespace {

class Factoring {
 public:
  Factoring(TermStore& s, TermId index, std::span<const int64_t> values)
      : s_(s), index_(index), values_(values) {}

  // Anti-unification: the cases' common context, with a chain wherever they differ.
  TermId factored(const std::vector<TermId>& cases) {
    bool alike = true;
    for (TermId t : cases) alike = alike && t == cases[0];
    if (alike) return cases[0];
    if (auto it = memo_.find(cases); it != memo_.end()) return it->second;
    TermId r = shares_op(cases) ? with_factored_children(cases) : chain(cases);
    memo_.emplace(cases, r);
    return r;
  }

 private:
  // One op, payload and arity in every case, and every child position of one type.
  bool shares_op(const std::vector<TermId>& cases) const {
    TermId first = cases[0];
    if (s_.op(first) == Op::Const || s_.op(first) == Op::Var) return false;
    for (TermId t : cases) {
      if (s_.op(t) != s_.op(first) || s_.payload(t) != s_.payload(first) ||
          s_.children(t).size() != s_.children(first).size())
        return false;
      for (size_t i = 0; i < s_.children(t).size(); ++i)
        if (s_.type(s_.children(t)[i]) != s_.type(s_.children(first)[i])) return false;
    }
    return true;
  }
  TermId with_factored_children(const std::vector<TermId>& cases) {
    size_t arity = s_.children(cases[0]).size();
    std::vector<TermId> kids(arity), column(cases.size());
    for (size_t i = 0; i < arity; ++i) {
      for (size_t k = 0; k < cases.size(); ++k) column[k] = s_.children(cases[k])[i];
      kids[i] = factored(column);
    }
    return s_.make(s_.op(cases[0]), kids);
  }
  TermId chain(const std::vector<TermId>& cases) {
    TermId r = cases.back();
    for (size_t k = cases.size() - 1; k-- > 0;) {
      TermId v = s_.constant(Constant::of_int(s_.type(index_), values_[k]));
      r = s_.make(Op::Select, {s_.make(Op::Eq, {index_, v}), cases[k], r});
    }
    return r;
  }

  TermStore& s_;
  TermId index_;
  std::span<const int64_t> values_;
  absl::flat_hash_map<std::vector<TermId>, TermId> memo_;
};

}  // namespace

TermId select_by_value(TermStore& s, TermId index, std::span<const int64_t> values,
                       std::span<const TermId> terms) {
  Factoring f(s, index, values);
  return f.factored(std::vector<TermId>(terms.begin(), terms.end()));
}

}  // namespace keq::ir
