#include "verify/terms_key.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <utility>

#include "ir/post_order.h"

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

// A map from the store's terms, dense by id: a conv's outputs reach millions of terms, where a
// hash map's lookups were most of the key's time. Terms made after it grew are added as met.
class TermMap {
 public:
  explicit TermMap(const ir::TermStore& s) : s_(s) {}
  bool contains(TermId t) const { return t < slots_.size() && slots_[t] != kNone; }
  TermId at(TermId t) const { return slots_.at(t); }
  void emplace(TermId t, TermId v) {
    if (t >= slots_.size()) slots_.resize(std::max<size_t>(s_.size(), t + 1), kNone);
    slots_[t] = v;
    ++size_;
  }
  size_t size() const { return size_; }

 private:
  static constexpr TermId kNone = ~TermId{0};
  const ir::TermStore& s_;
  std::vector<TermId> slots_;
  size_t size_ = 0;
};

}  // namespace

std::vector<uint64_t> terms_key(ir::TermStore& store,
                                const std::vector<const torch::Program*>& programs, bool real) {
  // Real semantics: the terms keyed are the outputs without their zero addends, made first, so
  // that a zero left out takes no record.
  TermMap normal(store);
  auto keyed = [&](TermId e) {
    if (!real) return e;
    ir::post_order(store, e, normal, [&](TermId t) {
      return without_zero_addends(store, t, [&](TermId k) { return normal.at(k); });
    });
    return normal.at(e);
  };
  std::vector<uint64_t> key;
  TermMap number(store);  // a term's record
  auto record = [&](TermId t) {
    std::vector<uint64_t> kids;
    for (TermId c : store.children(t)) kids.push_back(number.at(c));
    put_node(key, store, t, kids);
    return static_cast<TermId>(number.size());
  };
  for (const torch::Program* p : programs) {
    key.push_back(p->outputs.size());
    for (const auto& out : p->outputs) {
      key.push_back(out->shape.size());
      key.insert(key.end(), out->shape.begin(), out->shape.end());
      key.push_back(static_cast<uint64_t>(out->dtype));
      key.push_back(out->elems.size());
      for (TermId e : out->elems) {
        if (e == torch::Tensor::kUninit) {
          key.push_back(kUninitialized);
          continue;
        }
        TermId k = keyed(e);
        ir::post_order(store, k, number, record);
        key.push_back(number.at(k));
      }
    }
  }
  return key;
}

}  // namespace keq::verify::internal
