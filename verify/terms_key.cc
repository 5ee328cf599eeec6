#include "verify/terms_key.h"

#include <absl/container/flat_hash_map.h>

#include <cstring>
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

// A node after its children: its op and type, what it holds, its children's numbers.
void put_node(std::vector<uint64_t>& key, const ir::TermStore& s, TermId t,
              const absl::flat_hash_map<TermId, uint64_t>& number) {
  key.push_back(static_cast<uint64_t>(s.op(t)) << 8 | static_cast<uint64_t>(s.type(t)));
  if (s.op(t) == ir::Op::Var) {
    put_string(key, s.variable_of(t).name);
  } else if (s.op(t) == ir::Op::Const) {
    key.push_back(s.constant_of(t).key_bits());
  } else {
    key.push_back(s.payload(t));
  }
  auto kids = s.children(t);
  key.push_back(kids.size());
  for (TermId c : kids) key.push_back(number.at(c));
}

}  // namespace

std::vector<uint64_t> terms_key(const ir::TermStore& store,
                                const std::vector<const torch::Program*>& programs) {
  std::vector<uint64_t> key;
  absl::flat_hash_map<TermId, uint64_t> number;
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
      put_node(key, store, t, number);
      number.emplace(t, number.size());
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
