// torch's indexing: basic subscripts (ints, slices, None, Ellipsis), integer-array subscripts,
// and assignment through a selection into a tensor and every view of its storage.
#include <absl/container/flat_hash_map.h>
#include <absl/container/flat_hash_set.h>

#include <numeric>

#include "frontends/torch/torch_impl.h"

namespace keq::torch::impl {

// Basic indexing: ints, slices (any step), None and one Ellipsis. Tensor indices are advanced
// indexing, which is not modelled.
// A view picks one contiguous run of memory when, from the last dimension back, every dimension
// is whole, then one is a step-1 range, and every one before it picks a single position.
static bool contiguous_picks(const std::vector<std::vector<int64_t>>& pick,
                             const std::vector<int64_t>& shape) {
  size_t d = pick.size();
  while (d > 0 && static_cast<int64_t>(pick[d - 1].size()) == shape[d - 1]) --d;
  if (d == 0) return true;
  const auto& p = pick[d - 1];
  for (size_t k = 1; k < p.size(); ++k)
    if (p[k] != p[k - 1] + 1) return false;
  for (size_t q = 0; q + 1 < d; ++q)
    if (pick[q].size() > 1) return false;
  return true;
}

Torch::Selection Torch::selection(const TensorPtr& t, const Ref& index, Span at) {
  std::vector<Ref> idx = index->kind == K::Tuple ? index->items : std::vector<Ref>{index};
  size_t consumed = 0;
  for (const Ref& i : idx)
    if (i->kind != K::None && i->kind != K::Ellipsis) ++consumed;
  if (consumed > t->shape.size())
    in.error(at, "too many indices for a tensor of rank " + std::to_string(t->shape.size()));
  // Per source dimension: the selected positions; per output dimension: where it comes from.
  std::vector<std::vector<int64_t>> pick(t->shape.size());
  std::vector<int64_t> out_shape;
  std::vector<int> out_src;  // source dim, or -1 for a new axis
  size_t d = 0;
  for (const Ref& i : idx) {
    if (i->kind == K::None) {
      out_shape.push_back(1);
      out_src.push_back(-1);
    } else if (i->kind == K::Ellipsis) {
      size_t skip = t->shape.size() - consumed;
      for (size_t k = 0; k < skip; ++k, ++d) {
        for (int64_t p = 0; p < t->shape[d]; ++p) pick[d].push_back(p);
        out_shape.push_back(t->shape[d]);
        out_src.push_back(static_cast<int>(d));
      }
    } else if (i->kind == K::Int || i->kind == K::Bool) {
      int64_t p = i->i < 0 ? i->i + t->shape[d] : i->i;
      if (p < 0 || p >= t->shape[d])
        in.raise(at, "IndexError: index " + std::to_string(i->i) +
                         " is out of bounds for dimension " + std::to_string(d) + " with size " +
                         std::to_string(t->shape[d]));
      pick[d++] = {p};
    } else if (i->kind == K::Slice) {
      int64_t n = t->shape[d];
      auto get = [&](int k) -> std::optional<int64_t> {
        return i->items[k]->kind == K::None ? std::nullopt
                                            : std::optional(in.to_int(i->items[k], at));
      };
      int64_t step = get(2).value_or(1);
      if (step <= 0) in.unsupported(at, "slices with a step that is not positive");
      int64_t lo = get(0).value_or(0), hi = get(1).value_or(n);
      if (lo < 0) lo += n;
      if (hi < 0) hi += n;
      lo = std::clamp<int64_t>(lo, 0, n), hi = std::clamp<int64_t>(hi, 0, n);
      for (int64_t p = lo; p < hi; p += step) pick[d].push_back(p);
      out_shape.push_back(static_cast<int64_t>(pick[d].size()));
      out_src.push_back(static_cast<int>(d));
      ++d;
    } else if (i->kind == K::Tensor) {
      in.unsupported(at, i->tensor->dtype == DType::Bool
                             ? "indexing a tensor with a boolean mask (the result's shape "
                               "depends on the data)"
                             : "indexing a tensor with integer tensors beside slices, None or "
                               "... (advanced indexing keq models only over leading dimensions)");
    } else {
      in.error(at, "a tensor index must be an int, a slice, None or ...");
    }
  }
  for (; d < t->shape.size(); ++d) {
    for (int64_t p = 0; p < t->shape[d]; ++p) pick[d].push_back(p);
    out_shape.push_back(t->shape[d]);
    out_src.push_back(static_cast<int>(d));
  }
  Selection sel;
  sel.shape = out_shape;
  sel.contiguous = contiguous_picks(pick, t->shape);
  std::vector<int64_t> strides = t->strides();
  std::vector<int64_t> layout = t->storage.strides.empty() ? strides : t->storage.strides;
  for (size_t q = 0; q < pick.size(); ++q)
    if (!pick[q].empty()) sel.view_offset += pick[q][0] * layout[q];
  for (size_t o = out_src.size(); o-- > 0;) {  // a new axis: the stride torch gives it
    int src = out_src[o];
    int64_t step = src >= 0 && pick[src].size() > 1 ? pick[src][1] - pick[src][0] : 1;
    int64_t inner = sel.view_strides.empty() ? 1 : sel.view_strides.front() * out_shape[o + 1];
    sel.view_strides.insert(sel.view_strides.begin(), src >= 0 ? layout[src] * step : inner);
  }
  // Walk every combination of picks (source dims in order).
  std::vector<size_t> pos(t->shape.size(), 0);
  int64_t total = 1;
  for (auto& p : pick) total *= static_cast<int64_t>(p.size());
  for (int64_t k = 0; k < total; ++k) {
    int64_t flat = 0;
    for (size_t q = 0; q < pos.size(); ++q) flat += pick[q][pos[q]] * strides[q];
    sel.flat.push_back(flat);
    for (size_t q = pos.size(); q-- > 0;) {
      if (++pos[q] < pick[q].size()) break;
      pos[q] = 0;
    }
  }
  return sel;
}

Ref Torch::integer_array_subscript(const TensorPtr& t, const Ref& index, Span at) {
  std::vector<Ref> idx = index->kind == K::Tuple ? index->items : std::vector<Ref>{index};
  bool any_tensor = false;
  std::vector<TensorPtr> items;
  for (const Ref& i : idx) {
    if (i->kind == K::Tensor && !is_float(i->tensor->dtype) && i->tensor->dtype != DType::Bool)
      any_tensor = true;
    else if (i->kind != K::Int)
      return nullptr;
    items.push_back(as_tensor(in, i, at, DType::I64));
  }
  if (!any_tensor) return nullptr;
  if (items.size() > t->shape.size())
    in.error(at, "too many indices for a tensor of rank " + std::to_string(t->shape.size()));
  std::vector<int64_t> shape;
  for (const TensorPtr& i : items) shape = broadcast_shapes(in, shape, i->shape, at);
  size_t rest = items.size();
  int64_t inner = 1;
  for (size_t d = rest; d < t->shape.size(); ++d) inner *= t->shape[d];
  auto r = std::make_shared<Tensor>();
  r->shape = shape;
  r->shape.insert(r->shape.end(), t->shape.begin() + rest, t->shape.end());
  r->dtype = t->dtype;
  std::vector<TermId> at_index(items.size());
  for_each_index(shape, [&](const std::vector<int64_t>& b, int64_t) {
    for (size_t k = 0; k < items.size(); ++k)
      at_index[k] = items[k]->elems[broadcast_index(*items[k], shape, b)];
    for (int64_t q = 0; q < inner; ++q) r->elems.push_back(element_at(t, at_index, q, 0, at));
  });
  return wrap(r);  // a copy, as torch's advanced indexing makes
}

// t's element at the given indices of its leading dimensions and flat offset `flat` (already
// including the trailing dimensions); indices from d on are still to apply.
TermId Torch::element_at(const TensorPtr& t, std::span<const TermId> index, int64_t flat, size_t d,
                         Span at) {
  if (d == index.size()) return t->elems[flat];
  int64_t n = t->shape[d], stride = t->strides()[d];
  if (s.op(index[d]) == Op::Const) {
    int64_t v = s.constant_of(index[d]).i;
    if (v < -n || v >= n)
      in.error(at,
               "index " + std::to_string(v) + " is out of bounds for size " + std::to_string(n));
    return element_at(t, index, flat + (v < 0 ? v + n : v) * stride, d + 1, at);
  }
  std::vector<TermId> line;
  for (int64_t v = 0; v < n; ++v)
    line.push_back(element_at(t, index, flat + v * stride, d + 1, at));
  return pick(index[d], line, at, "indexing with an integer tensor");
}

Ref Torch::subscript(const TensorPtr& t, const Ref& index, Span at) {
  if (Ref r = integer_array_subscript(t, index, at)) return r;
  Selection sel = selection(t, index, at);
  auto r = std::make_shared<Tensor>();
  r->shape = sel.shape;
  r->dtype = t->dtype;
  r->strided = t->strided || !sel.contiguous;
  for (int64_t flat : sel.flat) r->elems.push_back(t->elems[flat]);
  if (!r->strided && !sel.flat.empty()) same_storage(t, r, sel.flat[0]);  // one run: a view
  // A strided view of a layout keq knows (a column slice, chunk's halves, rows of a permuted
  // tensor): one storage with t, at torch's strides, so stride() and kernels see torch's layout.
  bool known = !t->strided || !t->storage.strides.empty();
  if (r->strided && known && !sel.flat.empty()) {
    same_storage(t, r, sel.view_offset);
    r->storage.strides = sel.view_strides;
  }
  return wrap(r);
}

// t[index] = value: the selected elements take value (a number, or a tensor broadcast to the
// selection's shape, converted to t's dtype), in t and every view of its storage.
void Torch::setitem(const TensorPtr& t, const Ref& index, const Ref& value, Span at) {
  if (index->kind == K::Tensor && index->tensor->dtype == DType::Bool)
    return masked_setitem(t, index->tensor, value, at);
  write_selection(t, selection(t, index, at), as_tensor(in, value, at, t->dtype), "item assignment",
                  at);
}

// t[mask] = value: the mask covers t's leading dimensions, and each element it selects takes
// value broadcast over the rest, as index_put_ does; the others keep theirs. A value whose
// shape must match the number of selected elements (data-dependent) is not modelled.
void Torch::masked_setitem(const TensorPtr& t, const TensorPtr& mask, const Ref& value, Span at) {
  const size_t md = mask->shape.size();
  for (size_t d = 0; d < md; ++d)
    if (d >= t->shape.size() || mask->shape[d] != t->shape[d])
      in.raise(at, "IndexError: The shape of the mask " + shape_str(mask->shape) + " at index " +
                       std::to_string(d) + " does not match the shape of the indexed tensor " +
                       shape_str(t->shape) + " at index " + std::to_string(d));
  TensorPtr v = as_tensor(in, value, at, t->dtype);
  std::vector<int64_t> rest(t->shape.begin() + static_cast<std::ptrdiff_t>(md), t->shape.end());
  std::vector<int64_t> vshape = v->shape;
  // A leading size of 1 broadcasts over the selected elements; any other depends on the data.
  while (vshape.size() > rest.size() && vshape.front() == 1) vshape.erase(vshape.begin());
  if (vshape.size() > rest.size())
    in.unsupported(at, "assigning a tensor of shape " + shape_str(v->shape) +
                           " through a boolean mask (it must match the number of selected "
                           "elements, which depends on the data)");
  if (broadcast_shapes(in, vshape, rest, at) != rest)
    in.raise(at, "RuntimeError: shape mismatch: value tensor of shape " + shape_str(v->shape) +
                     " cannot be broadcast to indexing result of shape [nnz" +
                     (rest.empty() ? "" : ", ") + shape_str(rest).substr(1));
  auto flat_v = std::make_shared<Tensor>(*v);
  flat_v->shape = vshape;
  define_unwritten(in, *flat_v, at);
  auto r = std::make_shared<Tensor>();
  r->shape = t->shape, r->dtype = t->dtype;
  const int64_t inner = std::accumulate(rest.begin(), rest.end(), int64_t{1}, std::multiplies<>());
  std::vector<int64_t> idx(rest.size(), 0);
  for (int64_t k = 0; k < t->numel(); ++k) {
    TermId old = t->elems[static_cast<size_t>(k)];
    if (old == Tensor::kUninit)
      in.unsupported(at, "a boolean-mask assignment into memory nothing wrote");
    TermId c = mask->elems[static_cast<size_t>(k / inner)];
    TermId val = convert(s, flat_v->elems[broadcast_index(*flat_v, rest, idx)], v->dtype, t->dtype);
    r->elems.push_back(where_term(s, c, val, old));
    for (size_t d = idx.size(); d-- > 0;) {
      if (++idx[d] < rest[d]) break;
      idx[d] = 0;
    }
  }
  write_selection(t, selection(t, python::tuple({}), at), r, "item assignment", at);
}

// The selected elements of t take v's, broadcast to the selection's shape and converted to t's
// dtype, in t and every view of its storage. A slice or permutation of a tensor keq tracks the
// strides of is written at torch's positions (flash-attn's rotary copies the columns past the
// rotary ones into `out[..., rotary_dim:]`); a tensor whose layout keq does not track, or an
// expand (several elements at one place), is not modelled.
void Torch::write_selection(const TensorPtr& t, const Selection& sel, const TensorPtr& v,
                            const std::string& what, Span at) {
  const bool tracked = !t->storage.strides.empty() && t->storage.members && !t->storage.aliases;
  if (t->strided && !tracked)
    in.unsupported(at, what +
                           " into a strided tensor (a transpose, permute, expand or column "
                           "slice, or an op on one)");
  if (broadcast_shapes(in, v->shape, sel.shape, at) != sel.shape)
    in.raise(at, "RuntimeError: " + what + ": the value's shape does not broadcast to the " +
                     std::to_string(sel.flat.size()) + " elements it is written to");
  define_unwritten(in, *v, at);
  bump_version(t);
  std::vector<int64_t> idx(sel.shape.size(), 0);
  for (size_t k = 0; k < sel.flat.size(); ++k) {
    int64_t place = tracked ? t->storage_position(sel.flat[k]) : sel.flat[k];
    t->write(place, convert(s, v->elems[broadcast_index(*v, sel.shape, idx)], v->dtype, t->dtype));
    for (size_t d = idx.size(); d-- > 0;) {
      if (++idx[d] < sel.shape[d]) break;
      idx[d] = 0;
    }
  }
}

}  // namespace keq::torch::impl
