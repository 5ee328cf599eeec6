// Tensors as keq's torch frontend models them: a concrete shape, a dtype, and one term per
// element. The host interpreter holds them opaquely (python::Value::tensor).
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "frontends/python/value.h"
#include "ir/term.h"

namespace keq::torch {

// An element type of a tensor, as torch names it.
enum class DType : uint8_t { F32, F16, BF16, E4M3, E5M2, I32, I64, Bool };
std::string_view dtype_name(DType d);
bool is_float(DType d);

// A tensor: concrete shape, a dtype, one term per element (row-major). Views copy their
// elements' ids, which costs an id each, never a term.
struct Tensor;

// Tensors that are one storage (view, reshape, flatten, squeeze or contiguous() of a contiguous
// tensor, and a basic index that picks one contiguous run of it, such as a row): a write into one
// is a write into all, as torch shares their storage (a kernel given y.view(-1) or y[0] fills
// y). `offset` is where this tensor's first element lies in the storage. Copying a Tensor makes a
// new storage, so a copy leaves the group.
struct SameStorage {
  std::shared_ptr<std::vector<std::weak_ptr<Tensor>>> members;
  int64_t offset = 0;
  SameStorage() = default;
  SameStorage(const SameStorage&) {}
  SameStorage& operator=(const SameStorage&) {
    members.reset();
    offset = 0;
    return *this;
  }
};

struct Tensor {
  std::vector<int64_t> shape;
  DType dtype = DType::F32;
  std::vector<ir::TermId> elems;  // kUninit where nothing was written (torch.empty)
  static constexpr ir::TermId kUninit = UINT32_MAX;
  // torch's layout would not be contiguous (a permute, transpose, expand or slice view, or an
  // op on one, which keeps its strides): the elements here are still in logical order, but a
  // kernel given this tensor would read torch's strides. Launches and stride() refuse it.
  bool strided = false;
  SameStorage storage;
  // elems[off] = e here and in every tensor of the same storage that holds that element.
  void write(int64_t off, ir::TermId e) {
    elems[off] = e;
    if (!storage.members) return;
    int64_t at = storage.offset + off;
    for (const auto& m : *storage.members) {
      auto t = m.lock();
      if (!t || t.get() == this) continue;
      int64_t local = at - t->storage.offset;
      if (local >= 0 && local < static_cast<int64_t>(t->elems.size())) t->elems[local] = e;
    }
  }
  int64_t numel() const {
    int64_t n = 1;
    for (int64_t d : shape) n *= d;
    return n;
  }
  std::vector<int64_t> strides() const {
    std::vector<int64_t> s(shape.size(), 1);
    for (int k = static_cast<int>(shape.size()) - 2; k >= 0; --k) s[k] = s[k + 1] * shape[k + 1];
    return s;
  }
};

int64_t element_size(DType d);                        // bytes per element
python::Ref tensor_value(std::shared_ptr<Tensor> t);  // a Python value holding t
python::Ref dtype_value(DType d);                     // torch.float32 & co.

}  // namespace keq::torch
