#include "verify/terms_key.h"

#include <absl/container/flat_hash_map.h>

#include <algorithm>
#include <cstring>
#include <optional>
#include <string>
#include <utility>

#include "ir/budget.h"

namespace keq::verify::internal {

namespace {

using ir::TermId;

constexpr uint64_t kUninitialized = ~uint64_t{0};

void put_string(std::vector<uint64_t>& key, const std::string& s) {
  key.push_back(s.size());
  for (size_t i = 0; i < s.size(); i += 8) {
    uint64_t word = 0;
    std::memcpy(&word, s.data() + i, std::min<size_t>(8, s.size() - i));
    key.push_back(word);
  }
}

// A node after its children: its op and type, what it holds, its children's records.
void put_node(std::vector<uint64_t>& key, const ir::TermStore& s, TermId t,
              const std::vector<uint64_t>& kids) {
  key.push_back(static_cast<uint64_t>(s.op(t)) << 8 | static_cast<uint64_t>(s.type(t)));
  if (s.op(t) == ir::Op::Var) {
    put_string(key, s.variable_of(t).name);
  } else if (s.op(t) == ir::Op::Const) {
    key.push_back(s.constant_of(t).key_bits());
  } else {
    key.push_back(s.payload(t));
  }
  key.push_back(kids.size());
  key.insert(key.end(), kids.begin(), kids.end());
}

// Real semantics: +0 of a type, and what reads as it, is one number no record takes, the same
// whichever term made it first.
uint64_t zero_of(ir::Type t) {
  return uint64_t{1} << 63 | static_cast<uint64_t>(t);
}

bool is_positive_zero(const ir::TermStore& s, TermId t) {
  if (s.op(t) != ir::Op::Const) return false;
  ir::Constant zero;
  zero.type = s.type(t);
  return s.constant_of(t) == zero;
}

}  // namespace

std::vector<uint64_t> terms_key(const ir::TermStore& store,
                                const std::vector<const torch::Program*>& programs, bool real) {
  std::vector<uint64_t> key;
  absl::flat_hash_map<TermId, uint64_t> number;  // a term's record, or what it reads as
  uint64_t records = 0;
  auto write = [&](TermId t, const std::vector<uint64_t>& kids) {
    put_node(key, store, t, kids);
    return records++;
  };
  // Real semantics (x + 0 = x, inf and NaN too): a + or sum without its zero operands, one left
  // reading as that operand, none as zero; a product of zeros is zero.
  auto record = [&](TermId t) {
    const ir::Type type = store.type(t);
    std::vector<uint64_t> kids;
    for (TermId c : store.children(t)) kids.push_back(number.at(c));
    if (!real) return write(t, kids);
    if (is_positive_zero(store, t)) return zero_of(type);
    const ir::Op op = store.op(t);
    if (op == ir::Op::Mul &&
        std::ranges::all_of(kids, [&](uint64_t k) { return k == zero_of(type); }))
      return zero_of(type);
    if (op != ir::Op::Add && op != ir::Op::Sum) return write(t, kids);
    std::erase(kids, zero_of(type));
    if (kids.empty()) return zero_of(type);
    auto typed_alike = [&](TermId c) { return store.type(c) == type; };
    if (kids.size() == 1 && std::ranges::all_of(store.children(t), typed_alike)) return kids[0];
    return write(t, kids);
  };
  // Post-order with an explicit stack: a loop accumulator's chain is as deep as it is long.
  auto visit = [&](TermId root) {
    std::vector<std::pair<TermId, bool>> stack{{root, false}};
    while (!stack.empty()) {
      auto [t, expanded] = stack.back();
      stack.pop_back();
      if (number.contains(t)) continue;
      ir::Budget::tick();
      if (!expanded) {
        stack.push_back({t, true});
        for (TermId c : store.children(t))
          if (!number.contains(c)) stack.push_back({c, false});
        continue;
      }
      number.emplace(t, record(t));
    }
    return number.at(root);
  };
  for (const torch::Program* p : programs) {
    key.push_back(p->outputs.size());
    for (const auto& out : p->outputs) {
      key.push_back(out->shape.size());
      key.insert(key.end(), out->shape.begin(), out->shape.end());
      key.push_back(static_cast<uint64_t>(out->dtype));
      key.push_back(out->elems.size());
      for (TermId e : out->elems)
        key.push_back(e == torch::Tensor::kUninit ? kUninitialized : visit(e));
    }
  }
  return key;
}

}  // namespace keq::verify::internal
