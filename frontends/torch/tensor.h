// Tensors as keq's torch frontend models them: a concrete shape, a dtype, and one term per
// element. The host interpreter holds them opaquely (python::Value::tensor).
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "frontends/python/value.h"
#include "ir/term.h"

namespace keq::torch {

// An element type of a tensor, as torch names it.
enum class DType : uint8_t { F32, F16, BF16, E4M3, E5M2, I32, I64, Bool, I8, U8 };
// I8 and U8 values are i32 terms in the byte's range; arithmetic in them wraps (round_to).
std::string_view dtype_name(DType d);
// As torch's C++ errors name it (c10::ScalarType: "Float", "BFloat16", "Long").
std::string_view scalar_type_name(DType d);
bool is_float(DType d);

// A tensor: concrete shape, a dtype, one term per element (row-major). Views copy their
// elements' ids, which costs an id each, never a term.
struct Tensor;

// Tensors that are one storage (view, reshape, flatten, squeeze or contiguous() of a contiguous
// tensor, and a basic index that picks one contiguous run of it, such as a row): a write into one
// is a write into all, as torch shares their storage (a kernel given y.view(-1) or y[0] fills
// y). `offset` is where this tensor's first element lies in the storage. Copying a Tensor makes a
// new storage, so a copy leaves the group.
// A permuted view (a transpose, .T, permute) of a contiguous tensor is one storage with it too:
// `strides` are its torch strides there (empty: contiguous), a permutation of the base's.
struct SameStorage {
  std::shared_ptr<std::vector<std::weak_ptr<Tensor>>> members;
  int64_t offset = 0;
  std::vector<int64_t> strides;
  // torch's version counter (Tensor._version), shared by views: in-place torch writes bump it.
  std::shared_ptr<int64_t> version;
  // A layout where several elements share a place (expand's stride 0, an as_strided overlap):
  // each position's logical indices. Null for nested strides, which logical_index divides out.
  std::shared_ptr<const absl::flat_hash_map<int64_t, std::vector<int64_t>>> aliases;
  SameStorage() = default;
  SameStorage(const SameStorage&) {}
  SameStorage& operator=(const SameStorage&) {
    members.reset();
    offset = 0;
    strides.clear();
    version.reset();
    aliases.reset();
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
  // Where it lives, as far as keq knows: the CPU for a torch factory's tensor made without a
  // CUDA device (torch.empty(n)) and what .cpu() moved; the GPU for get_inputs()'s tensors and
  // the model's parameters and buffers (KernelBench moves them) and what .cuda() moved; results
  // follow their operands where keq tracks an op, and are unknown elsewhere. Only a known CPU
  // tensor is refused (a kernel given it raises, as Triton's launcher does; a torch op mixing it
  // with a known GPU one raises): tests/fixtures/gpu/cpu_tensors.txt.
  enum class Device : uint8_t { Unknown, Cpu, Gpu };
  Device device = Device::Unknown;
  bool on_cpu() const { return device == Device::Cpu; }
  SameStorage storage;
  // elems[off] = e here and in every tensor of the same storage that holds that element. `off`
  // is a position in the storage's order from this tensor's start: for a permuted view, the
  // pointer a kernel is given (memory.cc), never its own logical index.
  void write(int64_t off, ir::TermId e) {
    if (storage.strides.empty()) elems[off] = e;
    if (!storage.members) return;
    int64_t at = storage.offset + off;
    for (const auto& m : *storage.members) {
      auto t = m.lock();
      if (!t || (t.get() == this && storage.strides.empty())) continue;
      if (t->storage.aliases) {  // every element at that place
        auto it = t->storage.aliases->find(at - t->storage.offset);
        if (it != t->storage.aliases->end())
          for (int64_t k : it->second) t->elems[k] = e;
      } else if (auto local = t->logical_index(at - t->storage.offset)) {
        t->elems[*local] = e;
      }
    }
  }
  // The element of this tensor at position `rel` of its storage from its start, if it holds one.
  // Tracked strides are nested (a permutation of a dense layout, or a slice of one: each stride
  // at least the span of the smaller ones), so the largest divides first; a position between
  // the view's elements (the other half of a chunk) holds none.
  std::optional<int64_t> logical_index(int64_t rel) const {
    if (rel < 0) return std::nullopt;
    if (storage.strides.empty()) return rel < numel() ? std::optional(rel) : std::nullopt;
    if (storage.aliases) {  // any of them: they hold one value
      auto it = storage.aliases->find(rel);
      return it == storage.aliases->end() ? std::nullopt : std::optional(it->second[0]);
    }
    std::vector<size_t> order(shape.size());
    for (size_t d = 0; d < order.size(); ++d) order[d] = d;
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
      if ((shape[a] == 1) != (shape[b] == 1)) return shape[b] == 1;
      return storage.strides[a] > storage.strides[b];
    });
    std::vector<int64_t> logical = strides();
    int64_t flat = 0;
    for (size_t d : order) {
      if (shape[d] == 1) continue;
      int64_t i = rel / storage.strides[d];
      if (i >= shape[d]) return std::nullopt;
      flat += i * logical[d];
      rel -= i * storage.strides[d];
    }
    if (rel != 0) return std::nullopt;
    return flat;
  }
  // The position in the storage, from this tensor's start, of its element at logical index k.
  int64_t storage_position(int64_t k) const {
    if (storage.strides.empty()) return k;
    int64_t pos = 0;
    for (size_t d = shape.size(); d-- > 0;) {
      pos += k % shape[d] * storage.strides[d];
      k /= shape[d];
    }
    return pos;
  }
  // Positions of the storage this tensor's elements span from its start (its largest offset + 1).
  int64_t storage_extent() const {
    if (storage.strides.empty() || numel() == 0) return numel();
    int64_t last = 0;
    for (size_t d = 0; d < shape.size(); ++d) last += (shape[d] - 1) * storage.strides[d];
    return last + 1;
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

int64_t element_size(DType d);                              // bytes per element
python::Ref tensor_value(std::shared_ptr<Tensor> t);        // a Python value holding t
python::Ref size_value(const std::vector<int64_t>& shape);  // a torch.Size of shape
std::string shape_str(const std::vector<int64_t>& shape);   // as torch prints it: [4, 5]
// A Python value holding t as an nn.Parameter: Module.parameters() lists it, requires_grad is
// True. Another value may hold the same tensor (nn.Parameter(w) shares w's storage).
python::Ref parameter_value(std::shared_ptr<Tensor> t);
python::Ref dtype_value(DType d);  // torch.float32 & co.
// torch dtypes keq has no tensors of (torch.int8, torch.float64, ...): values that compare and
// print as torch's, flagged (`b`), so that host code may test `x.dtype in (torch.int8, ...)`;
// making a tensor of one is UNSUPPORTED (require_modelled_dtype).
python::Ref unmodelled_dtype_value(const std::string& name);
bool is_unmodelled_dtype(const python::Ref& v);
// Python's bool, int, float and complex where torch takes a dtype (dtype=bool, x.to(float)):
// torch.bool, int64, float64 and complex128; any other value unchanged.
python::Ref python_type_as_dtype(const python::Ref& v);
// torch.dtype's is_floating_point, is_complex and is_signed (`query` names which), from the
// dtype's name, so that unmodelled dtypes answer too.
bool dtype_kind_is(const python::Ref& dtype, std::string_view query);
void require_modelled_dtype(python::Interp& in, const python::Ref& v, python::Span at);

}  // namespace keq::torch
