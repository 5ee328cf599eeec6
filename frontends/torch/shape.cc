// torch's views, shape changes and indexing: reshape, permute, cat/stack, split, subscripts and
// tensor attributes.
#include <absl/container/flat_hash_map.h>
#include <absl/container/flat_hash_set.h>

#include <numeric>

#include "frontends/torch/torch_impl.h"

namespace keq::torch::impl {

void Torch::install_views() {
  // Views and shape changes.
  define("reshape", [this](Interp&, CallArgs& a) {
    TensorPtr x = tensor_arg(a, 0, "input");
    std::vector<int64_t> shape = sizes(a, 1, "shape");
    // torch's infer_size: its RuntimeErrors are the program's.
    std::string text;
    for (int64_t d : shape) text += (text.empty() ? "" : ", ") + std::to_string(d);
    auto invalid = [&] {
      in.raise_exception(
          a.at, "RuntimeError",
          "shape '[" + text + "]' is invalid for input of size " + std::to_string(x->numel()));
    };
    int64_t known = 1, infer = -1;
    for (size_t k = 0; k < shape.size(); ++k) {
      if (shape[k] == -1) {
        if (infer >= 0)
          in.raise_exception(a.at, "RuntimeError", "only one dimension can be inferred");
        infer = static_cast<int64_t>(k);
      } else if (shape[k] < 0) {
        in.raise_exception(a.at, "RuntimeError",
                           "invalid shape dimension " + std::to_string(shape[k]));
      } else {
        known *= shape[k];
      }
    }
    if (infer >= 0) {
      if (known == 0)
        in.raise_exception(a.at, "RuntimeError",
                           "cannot reshape tensor of " + std::to_string(x->numel()) +
                               " elements into shape [" + text +
                               "] because the unspecified dimension size -1 can be any value and "
                               "is ambiguous");
      if (x->numel() % known) invalid();
      shape[infer] = x->numel() / known;
    }
    int64_t n = 1;
    for (int64_t d : shape) n *= d;
    if (n != x->numel()) invalid();
    return wrap(reshaped(x, shape));
  });
  alias("view", "reshape");
  define("flatten", [this](Interp&, CallArgs& a) {
    TensorPtr x = tensor_arg(a, 0, "input");
    int64_t r = static_cast<int64_t>(x->shape.size());
    if (r == 0) return wrap(reshaped(x, {1}));
    int64_t lo = norm_dim(in, int_arg(a, 1, "start_dim").value_or(0), x->shape.size(), a.at);
    int64_t hi = norm_dim(in, int_arg(a, 2, "end_dim").value_or(-1), x->shape.size(), a.at);
    std::vector<int64_t> shape(x->shape.begin(), x->shape.begin() + lo);
    int64_t m = 1;
    for (int64_t d = lo; d <= hi; ++d) m *= x->shape[d];
    shape.push_back(m);
    shape.insert(shape.end(), x->shape.begin() + hi + 1, x->shape.end());
    return wrap(reshaped(x, shape));
  });
  define("permute", [this](Interp&, CallArgs& a) {
    TensorPtr x = tensor_arg(a, 0, "input");
    std::vector<int64_t> perm = sizes(a, 1, "dims");
    if (perm.size() != x->shape.size()) in.error(a.at, "permute: wrong number of dimensions");
    for (int64_t& p : perm) p = norm_dim(in, p, x->shape.size(), a.at);
    return wrap(permuted(x, perm));
  });
  // movedim(source, destination): the source dimension moves, the others keep their order.
  define("movedim", [this](Interp&, CallArgs& a) {
    TensorPtr x = tensor_arg(a, 0, "input");
    if (Ref src = a.get(1, "source"); src && src->kind != K::Int)
      in.unsupported(a.at, "movedim of several dimensions");
    int64_t from = norm_dim(in, int_arg(a, 1, "source").value_or(0), x->shape.size(), a.at);
    int64_t to = norm_dim(in, int_arg(a, 2, "destination").value_or(0), x->shape.size(), a.at);
    std::vector<int64_t> perm;
    for (int64_t d = 0; d < static_cast<int64_t>(x->shape.size()); ++d)
      if (d != from) perm.push_back(d);
    perm.insert(perm.begin() + to, from);
    return wrap(permuted(x, perm));
  });
  // repeat_interleave(repeats, dim): an int count; dim None repeats the flattened elements.
  define("repeat_interleave", [this](Interp&, CallArgs& a) {
    Ref reps = a.get(1, "repeats");
    if (!reps || reps->kind != K::Int)
      in.unsupported(a.at, "repeat_interleave with repeats other than an int");
    if (reps->i < 0) in.error(a.at, "repeat_interleave: repeats must have non-negative values");
    TensorPtr x = tensor_arg(a, 0, "input");
    std::optional<int64_t> given = int_arg(a, 2, "dim");
    if (!given) x = reshaped(x, {x->numel()});
    int64_t dim = norm_dim(in, given.value_or(0), x->shape.size(), a.at);
    auto r = std::make_shared<Tensor>();
    r->dtype = x->dtype;
    r->shape = x->shape;
    r->shape[dim] *= reps->i;
    std::vector<int64_t> idx(r->shape.size(), 0), st = x->strides();
    for (int64_t k = 0; k < r->numel(); ++k) {
      int64_t flat = 0;
      for (size_t d = 0; d < idx.size(); ++d)
        flat += (static_cast<int64_t>(d) == dim ? idx[d] / reps->i : idx[d]) * st[d];
      r->elems.push_back(x->elems[flat]);
      for (size_t d = idx.size(); d-- > 0;) {
        if (++idx[d] < r->shape[d]) break;
        idx[d] = 0;
      }
    }
    return wrap(r);
  });
  // narrow(dim, start, length): x[..., start:start + length, ...], a view.
  define("narrow", [this](Interp&, CallArgs& a) {
    TensorPtr x = tensor_arg(a, 0, "input");
    int64_t dim = norm_dim(in, int_arg(a, 1, "dim").value_or(0), x->shape.size(), a.at);
    int64_t start = int_arg(a, 2, "start").value_or(0),
            length = int_arg(a, 3, "length").value_or(0);
    if (start < 0) start += x->shape[dim];
    if (start < 0 || length < 0 || start + length > x->shape[dim])
      in.error(a.at, "narrow: start + length exceeds the dimension size");
    return subscript(x, index_along(dim, slice_value(start, start + length)), a.at);
  });
  // as_strided(size, stride, storage_offset): the elements at storage_offset + sum i_d stride_d
  // of the input's storage (an agent-written attention prelude takes a weight's transpose this
  // way), a view at those strides.
  define("as_strided", [this](Interp&, CallArgs& a) {
    TensorPtr x = tensor_arg(a, 0, "input");
    auto int_list = [&](size_t i, const char* kw) {
      std::vector<int64_t> out;
      Ref v = a.get(i, kw);
      if (!v) in.error(a.at, std::string("as_strided() missing argument '") + kw + "'");
      for (const Ref& e : in.to_sequence(v, a.at)) out.push_back(in.to_int(e, a.at));
      return out;
    };
    std::vector<int64_t> shape = int_list(1, "size"), stride = int_list(2, "stride");
    int64_t start = int_arg(a, 3, "storage_offset").value_or(x->storage.offset);
    if (stride.size() != shape.size())
      in.error(a.at, "as_strided: mismatch in length of strides and shape");
    if (x->strided && x->storage.strides.empty())
      in.unsupported(a.at, "torch.as_strided of a tensor whose torch strides keq does not track");
    auto r = std::make_shared<Tensor>();
    r->dtype = x->dtype;
    r->shape = shape;
    std::vector<int64_t> idx(shape.size(), 0);
    for (int64_t k = 0; k < r->numel(); ++k) {
      int64_t at = start - x->storage.offset;
      for (size_t d = 0; d < idx.size(); ++d) {
        if (stride[d] < 0) in.error(a.at, "as_strided: Negative strides are not supported");
        at += idx[d] * stride[d];
      }
      std::optional<int64_t> local = x->logical_index(at);
      if (!local && !x->storage.members)  // x is its whole storage: torch's setStorage refuses
        in.error(a.at, "as_strided: the sizes and strides reach past the storage of " +
                           std::to_string(x->numel()) + " elements");
      if (!local)
        in.unsupported(a.at, "torch.as_strided reaching storage outside its input tensor");
      r->elems.push_back(x->elems[*local]);
      for (size_t d = idx.size(); d-- > 0;) {
        if (++idx[d] < shape[d]) break;
        idx[d] = 0;
      }
    }
    std::vector<int64_t> row_major = r->strides();
    for (size_t d = 0; d < shape.size(); ++d)
      r->strided |= shape[d] > 1 && stride[d] != row_major[d];
    if (r->numel() > 0) strided_view(x, r, start - x->storage.offset, stride);
    return wrap(r);
  });
  // unflatten(dim, sizes): dimension dim becomes the given sizes (one may be -1).
  define("unflatten", [this](Interp&, CallArgs& a) {
    TensorPtr x = tensor_arg(a, 0, "input");
    int64_t dim = norm_dim(in, int_arg(a, 1, "dim").value_or(0), x->shape.size(), a.at);
    std::vector<int64_t> parts = sizes(a, 2, "sizes");
    int64_t known = 1, infer = -1;
    for (size_t k = 0; k < parts.size(); ++k)
      if (parts[k] == -1)
        infer = static_cast<int64_t>(k);
      else
        known *= parts[k];
    if (infer >= 0 && known > 0) parts[infer] = x->shape[dim] / known;
    int64_t product = 1;
    for (int64_t p : parts) product *= p;
    if (product != x->shape[dim])
      in.error(a.at, "unflatten: sizes do not multiply to the dimension");
    std::vector<int64_t> shape(x->shape.begin(), x->shape.begin() + dim);
    shape.insert(shape.end(), parts.begin(), parts.end());
    shape.insert(shape.end(), x->shape.begin() + dim + 1, x->shape.end());
    return wrap(reshaped(x, shape));
  });
  define("transpose", [this](Interp&, CallArgs& a) {
    TensorPtr x = tensor_arg(a, 0, "input");
    int64_t d0 = norm_dim(in, int_arg(a, 1, "dim0").value_or(0), x->shape.size(), a.at);
    int64_t d1 = norm_dim(in, int_arg(a, 2, "dim1").value_or(1), x->shape.size(), a.at);
    std::vector<int64_t> perm;
    for (size_t d = 0; d < x->shape.size(); ++d) perm.push_back(static_cast<int64_t>(d));
    std::swap(perm[d0], perm[d1]);
    return wrap(permuted(x, perm));
  });
  define("t", [this](Interp&, CallArgs& a) {
    TensorPtr x = tensor_arg(a, 0, "input");
    if (x->shape.size() < 2) return wrap(x);
    return wrap(permuted(x, {1, 0}));
  });
  define("unsqueeze", [this](Interp&, CallArgs& a) {
    TensorPtr x = tensor_arg(a, 0, "input");
    int64_t d = in.to_int(a.get(1, "dim"), a.at);
    if (d < 0) d += static_cast<int64_t>(x->shape.size()) + 1;
    std::vector<int64_t> shape = x->shape;
    shape.insert(shape.begin() + d, 1);
    return wrap(reshaped(x, shape));
  });
  define("squeeze", [this](Interp&, CallArgs& a) {
    TensorPtr x = tensor_arg(a, 0, "input");
    std::optional<int64_t> d = int_arg(a, 1, "dim");
    std::vector<int64_t> shape;
    for (size_t k = 0; k < x->shape.size(); ++k) {
      bool drop = x->shape[k] == 1 &&
                  (!d || norm_dim(in, *d, x->shape.size(), a.at) == static_cast<int64_t>(k));
      if (!drop) shape.push_back(x->shape[k]);
    }
    return wrap(reshaped(x, shape));
  });
  // memory_format=torch.contiguous_format is the default; channels_last would give other
  // strides (unmodelled); torch refuses preserve_format here.
  auto row_major_format = [this](CallArgs& a, const char* op) {
    Ref f = a.get(1, "memory_format");
    if (!f || f->kind == K::None || (f->kind == K::Module && f->s == "torch.contiguous_format"))
      return;
    if (f->kind == K::Module && f->s == "torch.preserve_format" && std::string(op) == "contiguous")
      in.raise(a.at,
               "RuntimeError: preserve memory format is unsupported by the contiguous operator");
    in.unsupported(a.at, std::string("Tensor.") + op + " with memory_format " + in.repr(f));
  };
  define("contiguous", [this, row_major_format](Interp&, CallArgs& a) {
    row_major_format(a, "contiguous");
    TensorPtr x = tensor_arg(a, 0, "input");
    if (!x->strided) return wrap(reshaped(x, x->shape));  // torch returns x itself
    auto r = std::make_shared<Tensor>(*x);
    r->strided = false;
    return wrap(r);
  });
  define("is_contiguous", [this, row_major_format](Interp&, CallArgs& a) {
    row_major_format(a, "is_contiguous");
    return python::boolean(!tensor_arg(a, 0, "input")->strided);
  });
  define("stride", [this](Interp&, CallArgs& a) -> Ref {
    TensorPtr x = tensor_arg(a, 0, "input");
    if (x->strided && x->storage.strides.empty())
      in.unsupported(a.at,
                     "stride() of a view whose torch layout keq does not track (an expand, a "
                     "slice, or an op on a permuted tensor; permutes and transposes are tracked)");
    std::vector<int64_t> st = x->storage.strides.empty() ? x->strides() : x->storage.strides;
    if (Ref d = a.get(1, "dim"); d && d->kind != K::None)
      return python::integer(st[norm_dim(in, in.to_int(d, a.at), x->shape.size(), a.at)]);
    std::vector<Ref> items;
    for (int64_t v : st) items.push_back(python::integer(v));
    return python::tuple(items);
  });
  define("storage_offset", [this](Interp&, CallArgs& a) {
    return python::integer(tensor_arg(a, 0, "input")->storage.offset);
  });
  define("select", [this](Interp&, CallArgs& a) {  // x.select(dim, i) is x[..., i, ...]
    TensorPtr x = tensor_arg(a, 0, "input");
    int64_t dim = norm_dim(in, in.to_int(a.get(1, "dim"), a.at), x->shape.size(), a.at);
    return subscript(x, index_along(dim, a.get(2, "index")), a.at);
  });
  for (bool is_max : {true, false}) {
    define(is_max ? "argmax" : "argmin", [this, is_max](Interp&, CallArgs& a) {
      TensorPtr x = tensor_arg(a, 0, "input");
      Ref d = a.get(1, "dim");
      bool flat = !d || d->kind == K::None;
      TensorPtr src = flat ? reshaped(x, {x->numel()}) : x;
      int64_t dim = flat ? 0 : norm_dim(in, in.to_int(d, a.at), x->shape.size(), a.at);
      return wrap(reduce(
          in, src, {dim}, !flat && bool_arg(a, 2, "keepdim", false), DType::I64,
          [&](std::vector<TermId>& v) { return arg_extreme(v, is_max); }, a.at));
    });
  }
  for (bool by_count : {false, true}) {
    define(by_count ? "chunk" : "split", [this, by_count](Interp&, CallArgs& a) {
      TensorPtr x = tensor_arg(a, 0, "input");
      Ref spec = a.get(1, by_count ? "chunks" : "split_size_or_sections");
      if (!spec) in.error(a.at, "split/chunk needs a size");
      int64_t dim = norm_dim(in, int_arg(a, 2, "dim").value_or(0), x->shape.size(), a.at);
      int64_t n = x->shape[dim];
      std::vector<int64_t> parts;
      if (spec->kind == K::List || spec->kind == K::Tuple) {
        for (const Ref& p : spec->items) parts.push_back(in.to_int(p, a.at));
      } else {
        int64_t size = in.to_int(spec, a.at);
        if (size <= 0) in.error(a.at, "split/chunk size must be positive");
        if (by_count) size = (n + size - 1) / size;  // torch.chunk: ceil(n / chunks) per piece
        for (int64_t lo = 0; lo < n; lo += size) parts.push_back(std::min(size, n - lo));
      }
      std::vector<Ref> out;
      int64_t lo = 0;
      for (int64_t len : parts) {
        out.push_back(subscript(x, index_along(dim, slice_value(lo, lo + len)), a.at));
        lo += len;
      }
      if (lo != n) in.error(a.at, "split sizes do not add up to the dimension");
      return python::tuple(out);
    });
  }
  define("cat", [this](Interp&, CallArgs& a) { return concat(a, false); });
  alias("concat", "cat");
  define("stack", [this](Interp&, CallArgs& a) { return concat(a, true); });
}

Ref Torch::concat(CallArgs& a, bool stack) {
  Ref seq = a.get(0, "tensors");
  if (!seq) in.error(a.at, "missing tensors");
  std::vector<TensorPtr> ts;
  for (const Ref& v : in.to_sequence(seq, a.at)) {
    if (v->kind != K::Tensor) in.error(a.at, "cat/stack of a non-tensor");
    ts.push_back(v->tensor);
  }
  if (ts.empty()) in.error(a.at, "cat/stack of no tensors");
  int64_t rank = static_cast<int64_t>(ts[0]->shape.size()) + (stack ? 1 : 0);
  int64_t dim = in.to_int(a.get(1, "dim") ? a.get(1, "dim") : python::integer(0), a.at);
  if (dim < 0) dim += rank;
  if (dim < 0 || dim >= rank) in.error(a.at, "dimension out of range");
  if (stack)
    for (TensorPtr& t : ts) {
      std::vector<int64_t> shape = t->shape;
      shape.insert(shape.begin() + dim, 1);
      t = reshaped(t, shape);
    }
  std::vector<int64_t> shape = ts[0]->shape;
  shape[dim] = 0;
  for (const TensorPtr& t : ts) {
    if (t->shape.size() != shape.size() || t->dtype != ts[0]->dtype)
      in.error(a.at, "cat/stack: tensors differ in rank or dtype");
    for (size_t d = 0; d < shape.size(); ++d)
      if (static_cast<int64_t>(d) != dim && t->shape[d] != ts[0]->shape[d])
        in.error(a.at, "cat/stack: sizes differ");
    shape[dim] += t->shape[dim];
  }
  auto r = std::make_shared<Tensor>();
  r->shape = shape;
  r->dtype = ts[0]->dtype;
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < dim; ++d) outer *= shape[d];
  for (size_t d = dim + 1; d < shape.size(); ++d) inner *= shape[d];
  for (int64_t o = 0; o < outer; ++o)
    for (const TensorPtr& t : ts) {
      int64_t chunk = t->shape[dim] * inner;
      r->elems.insert(r->elems.end(), t->elems.begin() + o * chunk,
                      t->elems.begin() + (o + 1) * chunk);
    }
  return wrap(r);
}

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
        in.error(at, "index " + std::to_string(i->i) + " is out of bounds for size " +
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
  write_selection(t, selection(t, index, at), as_tensor(in, value, at, t->dtype), "item assignment",
                  at);
}

// The selected elements of t take v's, broadcast to the selection's shape and converted to t's
// dtype, in t and every view of its storage. keq shares storage only with contiguous and
// permuted views: a write through a column or an expand would not reach the tensor it views.
void Torch::write_selection(const TensorPtr& t, const Selection& sel, const TensorPtr& v,
                            const std::string& what, Span at) {
  if (t->strided)
    in.unsupported(at, what +
                           " into a strided tensor (a transpose, permute, expand or column "
                           "slice, or an op on one)");
  if (broadcast_shapes(in, v->shape, sel.shape, at) != sel.shape)
    in.raise(at, "RuntimeError: " + what + ": the value's shape does not broadcast to the " +
                     std::to_string(sel.flat.size()) + " elements it is written to");
  check_initialized(in, *v, at);
  bump_version(t);
  std::vector<int64_t> idx(sel.shape.size(), 0);
  for (size_t k = 0; k < sel.flat.size(); ++k) {
    t->write(sel.flat[k],
             convert(s, v->elems[broadcast_index(*v, sel.shape, idx)], v->dtype, t->dtype));
    for (size_t d = idx.size(); d-- > 0;) {
      if (++idx[d] < sel.shape[d]) break;
      idx[d] = 0;
    }
  }
}

Ref Torch::tensor_attr(const Ref& self, const std::string& name, Span at) {
  if (self->kind == K::DType) {  // torch.float32.is_floating_point & co.
    if (is_unmodelled_dtype(self) && name == "is_floating_point")
      return python::boolean(self->s.rfind("float", 0) == 0 || self->s.rfind("bfloat", 0) == 0);
    require_modelled_dtype(in, self, at);
    if (name == "is_floating_point") return python::boolean(is_float(self->dtype));
    if (name == "itemsize") return python::integer(element_size(self->dtype));
    in.unsupported(at, "torch.dtype." + name + " is not modelled");
  }
  if (self->kind != K::Tensor)  // x.to(...) of a Python number: only kernels have scalar blocks
    in.unsupported(at, "attribute '" + name + "' of " + self->type_name());
  const TensorPtr& t = self->tensor;
  if (name == "__len__")
    return python::builtin("Tensor.__len__", [t](Interp& i2, CallArgs& a) {
      if (t->shape.empty()) i2.error(a.at, "len() of a 0-d tensor");
      return python::integer(t->shape[0]);
    });
  if (name == "shape") {
    std::vector<Ref> dims;
    for (int64_t d : t->shape) dims.push_back(python::integer(d));
    return python::tuple(dims);
  }
  if (name == "dtype") return torch::dtype_value(t->dtype);
  if (name == "ndim") return python::integer(static_cast<int64_t>(t->shape.size()));
  if (name == "mT" || name == "mH") {  // the last two dimensions swapped (real tensors)
    if (t->shape.size() < 2) throw python::ProgramError("tensor." + name + " needs 2 dimensions");
    std::vector<int64_t> perm;
    for (size_t d = 0; d < t->shape.size(); ++d) perm.push_back(static_cast<int64_t>(d));
    std::swap(perm[perm.size() - 1], perm[perm.size() - 2]);
    return wrap(permuted(t, perm));
  }
  if (name == "T") {
    std::vector<int64_t> perm;
    for (size_t d = t->shape.size(); d-- > 0;) perm.push_back(static_cast<int64_t>(d));
    return wrap(permuted(t, perm));
  }
  if (name == "device") {
    auto dev = std::make_shared<Value>();
    dev->kind = K::Device;
    dev->s = "cuda:0";
    st.host_assumptions.insert("tensor.device is cuda:0 (keq models the H200 KernelBench runs on)");
    return dev;
  }
  if (name == "requires_grad") {
    // get_inputs()'s tensors and what is computed from them alone do not require grad; a
    // parameter, and under grad mode what uses one, do (keq does not track grad mode).
    absl::flat_hash_set<ir::TermId> seen;
    std::vector<ir::TermId> stack;
    for (ir::TermId e : t->elems)
      if (e != Tensor::kUninit) stack.push_back(e);
    while (!stack.empty()) {
      ir::TermId e = stack.back();
      stack.pop_back();
      if (!seen.insert(e).second) continue;
      if (s.op(e) == ir::Op::Var) {
        const std::string& v = s.variable_of(e).name;
        if (v.size() > 1 && v[0] == 'p' && std::isdigit(static_cast<unsigned char>(v[1])))
          in.unsupported(at,
                         "Tensor.requires_grad of a tensor computed from parameters (keq "
                         "does not track autograd)");
      }
      for (ir::TermId c : s.children(e)) stack.push_back(c);
    }
    return python::boolean(false);
  }
  if (name == "_version") {  // read by caches that rebuild when a weight changes in place
    st.host_assumptions.insert(
        "Tensor._version counts the in-place torch updates keq ran (a module's parameters "
        "start at 1, as torch's reset_parameters leaves them; Triton's stores do not count, "
        "as in torch)");
    return python::integer(t->storage.version ? *t->storage.version : 0);
  }
  if (name == "is_cuda" || name == "is_cpu") {
    st.host_assumptions.insert("tensor.is_cuda is True (keq models the H200 KernelBench runs on)");
    return python::boolean(name == "is_cuda");
  }
  auto method = [&](const OpFn& f) {
    return python::builtin("Tensor." + name, [self, f](Interp& i2, CallArgs& a) {
      a.pos.insert(a.pos.begin(), self);
      return f(i2, a);
    });
  };
  if (auto it = ops.find(name); it != ops.end()) return method(it->second);
  auto self_fn = [&](std::function<Ref(Interp&, CallArgs&)> f) { return method(std::move(f)); };
  if (name == "size")
    return self_fn([this](Interp&, CallArgs& a) -> Ref {
      const TensorPtr& x = a.pos[0]->tensor;
      if (a.pos.size() > 1)
        return python::integer(
            x->shape[norm_dim(in, in.to_int(a.pos[1], a.at), x->shape.size(), a.at)]);
      std::vector<Ref> dims;
      for (int64_t d : x->shape) dims.push_back(python::integer(d));
      return python::tuple(dims);
    });
  if (name == "dim")
    return self_fn([](Interp&, CallArgs& a) {
      return python::integer(static_cast<int64_t>(a.pos[0]->tensor->shape.size()));
    });
  if (name == "numel")
    return self_fn([](Interp&, CallArgs& a) { return python::integer(a.pos[0]->tensor->numel()); });
  if (name == "cuda" || name == "cpu" || name == "detach")  // the same storage
    return self_fn([](Interp&, CallArgs& a) { return a.pos[0]; });
  if (name == "clone")  // a new storage: writes into either no longer reach the other
    return self_fn(
        [this](Interp&, CallArgs& a) { return wrap(std::make_shared<Tensor>(*a.pos[0]->tensor)); });
  if (name == "element_size")
    return self_fn([](Interp&, CallArgs& a) {
      return python::integer(element_size(a.pos[0]->tensor->dtype));
    });
  if (name == "data_ptr")
    return self_fn([this](Interp&, CallArgs& a) {
      // Distinct tensors get distinct addresses, each aligned as the caching allocator aligns
      // a fresh allocation (keq's tensors are contiguous and start at their buffer).
      auto [it, fresh] = data_ptrs.try_emplace(
          a.pos[0]->tensor.get(), (int64_t{0x7f} << 40) + (int64_t(data_ptrs.size()) << 30));
      st.host_assumptions.insert(
          "data_ptr() is 1 GiB-aligned and distinct per tensor (a fresh CUDA allocation)");
      return python::integer(it->second);
    });
  auto cast_to = [&](DType d) {
    return self_fn([this, d](Interp&, CallArgs& a) {
      TensorPtr x = a.pos[0]->tensor;
      DType from = x->dtype;
      return wrap(map1(
          in, x, d, [&](TermId e) { return convert(s, e, from, d); }, a.at));
    });
  };
  if (name == "float") return cast_to(DType::F32);
  if (name == "half") return cast_to(DType::F16);
  if (name == "bfloat16") return cast_to(DType::BF16);
  if (name == "int") return cast_to(DType::I32);
  if (name == "long") return cast_to(DType::I64);
  if (name == "bool") return cast_to(DType::Bool);
  if (name == "to" || name == "type")
    return self_fn([this](Interp&, CallArgs& a) -> Ref {
      Ref target;
      for (size_t k = 1; k < a.pos.size(); ++k)
        if (a.pos[k]->kind == K::DType) target = a.pos[k];
      if (Ref d = a.get(SIZE_MAX, "dtype")) target = d;
      if (!target) return a.pos[0];  // .to(device)
      require_modelled_dtype(in, target, a.at);
      TensorPtr x = a.pos[0]->tensor;
      DType from = x->dtype, to = target->dtype;
      return wrap(map1(
          in, x, to, [&](TermId e) { return convert(s, e, from, to); }, a.at));
    });
  if (name == "type_as")
    return self_fn([this](Interp&, CallArgs& a) -> Ref {
      TensorPtr x = a.pos[0]->tensor, other = tensor_arg(a, 1, "other");
      DType from = x->dtype, to = other->dtype;
      return wrap(map1(
          in, x, to, [&](TermId e) { return convert(s, e, from, to); }, a.at));
    });
  if (name == "item")
    return self_fn([this](Interp&, CallArgs& a) { return item(a.pos[0]->tensor, a.at); });
  // view_as/reshape_as: self's elements in other's shape.
  if (name == "view_as" || name == "reshape_as")
    return self_fn([this, name](Interp&, CallArgs& a) -> Ref {
      TensorPtr x = a.pos[0]->tensor, other = tensor_arg(a, 1, "other");
      if (x->numel() != other->numel()) {
        std::string text;
        for (int64_t d : other->shape) text += (text.empty() ? "" : ", ") + std::to_string(d);
        in.raise_exception(
            a.at, "RuntimeError",
            "shape '[" + text + "]' is invalid for input of size " + std::to_string(x->numel()));
      }
      return wrap(reshaped(x, other->shape));
    });
  // new_empty/new_zeros/new_ones/new_full: a fresh tensor with self's dtype unless dtype= says.
  if (name == "new_empty" || name == "new_zeros" || name == "new_ones" || name == "new_full")
    return self_fn([this, name](Interp&, CallArgs& a) -> Ref {
      TensorPtr x = a.pos[0]->tensor;
      CallArgs shape_args = a;
      double fill = name == "new_ones" ? 1.0 : 0.0;
      if (name == "new_full") {
        Ref f = a.get(2, "fill_value");
        if (!f) in.error(a.at, "new_full needs a fill_value");
        fill = in.to_float(f, a.at);
        shape_args.pos.resize(std::min<size_t>(shape_args.pos.size(), 2));
      }
      std::vector<int64_t> shape = sizes(shape_args, 1);
      in.check_shape(a.at, shape, "Tensor." + name);
      DType d = dtype_kw(a, x->dtype);
      return wrap(name == "new_empty" ? filled(shape, d, std::nullopt) : filled(shape, d, fill));
    });
  // new_tensor(data): torch.tensor(data) with self's dtype unless dtype= says.
  if (name == "new_tensor")
    return self_fn([this](Interp&, CallArgs& a) -> Ref {
      TensorPtr x = a.pos[0]->tensor;
      CallArgs b;
      b.at = a.at;
      b.pos = {a.get(1, "data")};
      if (!b.pos[0]) in.error(a.at, "Tensor.new_tensor needs data");
      b.kw = {{"dtype", dtype_value(dtype_kw(a, x->dtype))}};
      return in.call(in.getattr(in.module_value("torch", a.at), "tensor", a.at), b);
    });
  if (name == "expand" || name == "expand_as")
    return self_fn([this, name](Interp&, CallArgs& a) {
      TensorPtr x = a.pos[0]->tensor;
      std::vector<int64_t> shape =
          name == "expand_as" ? tensor_arg(a, 1, "other")->shape : sizes(a, 1);
      if (shape.size() < x->shape.size()) in.error(a.at, "expand: too few dimensions");
      size_t off = shape.size() - x->shape.size();
      for (size_t d = 0; d < x->shape.size(); ++d)
        if (shape[d + off] == -1) shape[d + off] = x->shape[d];
      TensorPtr zero = filled(shape, x->dtype, 0);
      TensorPtr r = map2(
          in, x, zero, x->dtype, [](TermId p, TermId) { return p; }, a.at);
      r->strided |= r->numel() != x->numel();  // broadcast dimensions have stride 0
      if (x->strided && x->storage.strides.empty()) return wrap(r);  // a layout keq lacks
      // A view of x's storage, as torch's: a later write into x shows through it.
      std::vector<int64_t> layout = x->storage.strides.empty() ? x->strides() : x->storage.strides;
      std::vector<int64_t> strides(shape.size(), 0);
      for (size_t d = 0; d < x->shape.size(); ++d)
        if (x->shape[d] == shape[d + off]) strides[d + off] = layout[d];
      if (r->numel() > 0) strided_view(x, r, 0, strides);
      return wrap(r);
    });
  if (name == "repeat")
    return self_fn([this](Interp&, CallArgs& a) {
      TensorPtr x = a.pos[0]->tensor;
      std::vector<int64_t> reps = sizes(a, 1);
      if (reps.size() < x->shape.size()) in.error(a.at, "repeat: too few dimensions");
      std::vector<int64_t> shape(reps.size() - x->shape.size(), 1);
      shape.insert(shape.end(), x->shape.begin(), x->shape.end());
      TensorPtr base = reshaped(x, shape);
      auto r = std::make_shared<Tensor>();
      r->dtype = x->dtype;
      for (size_t d = 0; d < shape.size(); ++d) r->shape.push_back(shape[d] * reps[d]);
      std::vector<int64_t> idx(r->shape.size(), 0), st = base->strides();
      for (int64_t k = 0; k < r->numel(); ++k) {
        int64_t flat = 0;
        for (size_t d = 0; d < idx.size(); ++d) flat += (idx[d] % shape[d]) * st[d];
        r->elems.push_back(base->elems[flat]);
        for (size_t d = idx.size(); d-- > 0;) {
          if (++idx[d] < r->shape[d]) break;
          idx[d] = 0;
        }
      }
      return wrap(r);
    });
  if (Ref f = in_place_method(self, name)) return f;
  in.unsupported(at, "Tensor." + name + " is not modelled");
}

Ref Torch::augmented(const std::string& op, const Ref& x, const Ref& v, Span at) {
  static const absl::flat_hash_map<std::string, std::string> kMethod = {
      {"+", "add_"},           {"-", "sub_"},        {"*", "mul_"},  {"/", "div_"},
      {"//", "floor_divide_"}, {"%", "remainder_"},  {"**", "pow_"}, {"&", "bitwise_and_"},
      {"|", "bitwise_or_"},    {"^", "bitwise_xor_"}};
  auto it = kMethod.find(op);
  Ref method = it == kMethod.end() ? nullptr : in_place_method(x, it->second);
  if (!method) in.unsupported(at, "the in-place tensor operator " + op + "=");
  return in.call(method, {v}, at);
}

// t.uniform_(..) and t.normal_(..) make t a parameter (randomize); t.zero_(), t.fill_(v),
// t.copy_(src) and t.OP_(...) for every out-of-place OP keq models
// (add_, div_, clamp_, relu_, ...): OP's result, broadcast to t's shape and cast to its dtype,
// written into t and every view of its storage; t itself is returned, as torch does.
Ref Torch::in_place_method(const Ref& self, const std::string& name) {
  if (name.size() < 2 || name.back() != '_' || name[0] == '_') return nullptr;
  std::string base = name.substr(0, name.size() - 1);
  if (base == "uniform" || base == "normal")
    return python::builtin("Tensor." + name, [this, self, name](Interp&, CallArgs& a) -> Ref {
      randomize(self->tensor, "Tensor." + name, a.at);
      return self;
    });
  bool known = base == "zero" || base == "fill" || base == "copy" || ops.contains(base);
  if (!known) return nullptr;
  return python::builtin("Tensor." + name, [this, self, base, name](Interp&, CallArgs& a) -> Ref {
    const TensorPtr& t = self->tensor;
    Ref value;
    if (base == "zero")
      value = python::integer(0);
    else if (base == "fill" || base == "copy")
      value = a.get(0, base == "fill" ? "value" : "src");
    else {
      a.pos.insert(a.pos.begin(), self);
      value = ops.at(base)(in, a);
    }
    if (!value) in.error(a.at, "Tensor." + name + " needs a value");
    TensorPtr v = value->kind == K::Tensor ? value->tensor : as_tensor(in, value, a.at, t->dtype);
    // In place, the result keeps self's dtype: a float result into an integer tensor is
    // torch's "result type Float can't be cast to the desired output type" (copy_ casts).
    if (base != "copy" && base != "fill" && is_float(v->dtype) && !is_float(t->dtype))
      in.raise(a.at, "RuntimeError: result type " + std::string(dtype_name(v->dtype)) +
                         " can't be cast to the desired output type " +
                         std::string(dtype_name(t->dtype)));
    Selection all{t->shape, std::vector<int64_t>(t->numel()), true};
    std::iota(all.flat.begin(), all.flat.end(), 0);
    write_selection(t, all, v, "Tensor." + name, a.at);
    return self;
  });
}

// F.pad: pad pairs from the last dimension backwards (negative ones crop in constant mode), a
// padded position reading the fill value, its reflection, the edge or the other end;
// F.normalize: x / max(||x||_p along dim, eps), as torch composes it (p = 2 only, as norm).
// A fresh tensor of `shape` whose element k is x's element at `from(k's index)` (copies that
// move elements: pixel_shuffle, roll, nearest upsampling).
TensorPtr Torch::gathered(const TensorPtr& x, std::vector<int64_t> shape,
                          const std::function<int64_t(const std::vector<int64_t>&)>& from,
                          Span at) {
  check_initialized(in, *x, at);
  TensorPtr r = filled(shape, x->dtype, 0.0);
  std::vector<int64_t> idx(shape.size(), 0);
  for (int64_t k = 0; k < r->numel(); ++k) {
    r->elems[k] = x->elems[from(idx)];
    for (size_t d = shape.size(); d-- > 0;) {
      if (++idx[d] < shape[d]) break;
      idx[d] = 0;
    }
  }
  return r;
}

// x's flat offset of a contiguous index.
static int64_t flat(const std::vector<int64_t>& shape, const std::vector<int64_t>& idx) {
  int64_t off = 0;
  for (size_t d = 0; d < shape.size(); ++d) off = off * shape[d] + idx[d];
  return off;
}

// pixel_shuffle and its inverse, roll, outer, nearest interpolation by whole factors.
void Torch::install_rearrangements(const Ref& nn, const Ref& F) {
  for (bool inverse : {false, true}) {
    std::string name = inverse ? "pixel_unshuffle" : "pixel_shuffle";
    define(name, [this, inverse, name](Interp&, CallArgs& a) {
      TensorPtr x = tensor_arg(a, 0, "input");
      int64_t r = in.to_int(a.get(1, inverse ? "downscale_factor" : "upscale_factor"), a.at);
      size_t nd = x->shape.size();
      if (nd < 3 || r <= 0) in.error(a.at, name + ": expected at least 3 dimensions");
      int64_t c = x->shape[nd - 3], h = x->shape[nd - 2], w = x->shape[nd - 1];
      std::vector<int64_t> shape = x->shape;
      if (!inverse && c % (r * r))
        in.raise(a.at,
                 "RuntimeError: pixel_shuffle expects its input's channel dimension to be "
                 "divisible by the square of upscale_factor");
      if (inverse && (h % r || w % r))
        in.raise(a.at,
                 "RuntimeError: pixel_unshuffle expects height and width to be divisible "
                 "by downscale_factor");
      shape[nd - 3] = inverse ? c * r * r : c / (r * r);
      shape[nd - 2] = inverse ? h / r : h * r;
      shape[nd - 1] = inverse ? w / r : w * r;
      return wrap(gathered(
          x, shape,
          [&](const std::vector<int64_t>& o) {
            std::vector<int64_t> src = o;
            if (!inverse) {  // out[c, h r + i, w r + j] = in[c r^2 + i r + j, h, w]
              src[nd - 3] = o[nd - 3] * r * r + (o[nd - 2] % r) * r + o[nd - 1] % r;
              src[nd - 2] = o[nd - 2] / r, src[nd - 1] = o[nd - 1] / r;
            } else {
              int64_t sub = o[nd - 3] % (r * r);
              src[nd - 3] = o[nd - 3] / (r * r);
              src[nd - 2] = o[nd - 2] * r + sub / r, src[nd - 1] = o[nd - 1] * r + sub % r;
            }
            return flat(x->shape, src);
          },
          a.at));
    });
    expose(F, name);
  }
  // channel_shuffle(x, groups): channels seen as (groups, C / groups), transposed.
  define("channel_shuffle", [this](Interp&, CallArgs& a) {
    TensorPtr x = tensor_arg(a, 0, "input");
    int64_t g = in.to_int(a.get(1, "groups"), a.at);
    if (x->shape.size() < 3) in.error(a.at, "channel_shuffle: expected at least 3 dimensions");
    int64_t c = x->shape[1];
    if (g <= 0 || c % g)
      in.raise(a.at, "RuntimeError: Number of channels must be divisible by groups");
    return wrap(gathered(
        x, x->shape,
        [&](const std::vector<int64_t>& o) {
          std::vector<int64_t> src = o;
          src[1] = (o[1] % g) * (c / g) + o[1] / g;
          return flat(x->shape, src);
        },
        a.at));
  });
  expose(F, "channel_shuffle");
  // local_response_norm(x, size, alpha=1e-4, beta=0.75, k=1): x / (k + alpha / size * (sum of
  // squares over the size channels around, zero-padded))^beta, as torch composes it.
  define("local_response_norm", [this](Interp&, CallArgs& a) {
    TensorPtr x = tensor_arg(a, 0, "input");
    int64_t size = in.to_int(a.get(1, "size"), a.at);
    double alpha = float_arg(a, 2, "alpha", 1e-4), beta = float_arg(a, 3, "beta", 0.75),
           k = float_arg(a, 4, "k", 1.0);
    if (x->shape.size() < 3 || x->dtype != DType::F32)
      in.unsupported(a.at, "local_response_norm other than fp32 inputs of 3 or more dimensions");
    check_initialized(in, *x, a.at);
    int64_t c = x->shape[1], inner = 1;
    for (size_t d = 2; d < x->shape.size(); ++d) inner *= x->shape[d];
    auto r = std::make_shared<Tensor>(*x);
    r->storage = SameStorage{};
    for (int64_t i = 0; i < x->numel(); ++i) {
      int64_t ch = (i / inner) % c, base = i - ch * inner;
      std::vector<TermId> sq;
      for (int64_t cc = ch - size / 2; cc <= ch + (size - 1) / 2; ++cc)
        if (cc >= 0 && cc < c) {
          TermId e = x->elems[base + cc * inner];
          sq.push_back(mk(Op::Mul, {e, e}));
        }
      // torch: avg_pool over the padded window (divided by size), then * alpha + k, ** beta.
      TermId avg =
          mk(Op::Div, {sq.empty() ? fconst(0) : sum_of(sq), fconst(static_cast<double>(size))});
      TermId den = mk(Op::Pow, {mk(Op::Add, {mk(Op::Mul, {avg, fconst(static_cast<float>(alpha))}),
                                             fconst(static_cast<float>(k))}),
                                fconst(static_cast<float>(beta))});
      r->elems[i] = mk(Op::Div, {x->elems[i], den});
    }
    return wrap(r);
  });
  expose(F, "local_response_norm");
  // roll(x, shifts, dims=None): with no dims, over the flattened elements.
  define("roll", [this](Interp&, CallArgs& a) {
    TensorPtr x = tensor_arg(a, 0, "input");
    Ref sh = a.get(1, "shifts"), dm = a.get(2, "dims");
    std::vector<int64_t> shifts, dims;
    for (const Ref& v : in.to_sequence(sh->kind == K::Int ? python::tuple({sh}) : sh, a.at))
      shifts.push_back(in.to_int(v, a.at));
    bool flatten = !dm || dm->kind == K::None;
    if (!flatten)
      for (const Ref& v : in.to_sequence(dm->kind == K::Int ? python::tuple({dm}) : dm, a.at))
        dims.push_back(norm_dim(in, in.to_int(v, a.at), x->shape.size(), a.at));
    if (flatten ? shifts.size() != 1 : shifts.size() != dims.size())
      in.raise(a.at, "RuntimeError: roll: shifts and dims must match");
    return wrap(gathered(
        x, x->shape,
        [&](const std::vector<int64_t>& o) {
          if (flatten) {
            int64_t n = x->numel(), k = flat(x->shape, o);
            return ((k - shifts[0]) % n + n) % n;
          }
          std::vector<int64_t> src = o;
          for (size_t k = 0; k < dims.size(); ++k) {
            int64_t n = x->shape[dims[k]];
            src[dims[k]] = ((src[dims[k]] - shifts[k]) % n + n) % n;
          }
          return flat(x->shape, src);
        },
        a.at));
  });
  // outer(a, b): a[i] * b[j].
  define("outer", [this](Interp&, CallArgs& a) {
    TensorPtr u = tensor_arg(a, 0, "input"), v = tensor_arg(a, 1, "vec2");
    if (u->shape.size() != 1 || v->shape.size() != 1) in.error(a.at, "outer: expected vectors");
    std::vector<int64_t> col = {u->shape[0], 1}, row = {1, v->shape[0]};
    auto reshaped = [](const TensorPtr& t, std::vector<int64_t> shape) {
      auto r = std::make_shared<Tensor>(*t);
      r->shape = std::move(shape);
      r->storage = SameStorage{};
      return r;
    };
    return binary("*", wrap(reshaped(u, col)), wrap(reshaped(v, row)), a.at);
  });
  alias("ger", "outer");
  // interpolate(x, size=None, scale_factor=None, mode='nearest', align_corners=None, ...):
  // nearest where each output size is a whole multiple of the input's (then source = out //
  // factor exactly; other ratios go through torch's float scale), and linear, bilinear and
  // trilinear with torch's fp32 source coordinates and weights.
  auto interpolate = [this](Interp&, CallArgs& a) -> Ref {
    TensorPtr x = tensor_arg(a, 0, "input");
    Ref size = a.get(1, "size"), scale = a.get(2, "scale_factor"), mode_v = a.get(3, "mode");
    std::string mode = mode_v && mode_v->kind == K::Str ? mode_v->s : "nearest";
    size_t spatial = x->shape.size() < 3 ? 0 : x->shape.size() - 2;
    if (!spatial) in.error(a.at, "interpolate: expected a batch and a channel dimension");
    bool linear = (mode == "linear" && spatial == 1) || (mode == "bilinear" && spatial == 2) ||
                  (mode == "trilinear" && spatial == 3);
    if (mode != "nearest" && !linear)
      in.unsupported(a.at, "F.interpolate with mode '" + mode + "' on a " +
                               std::to_string(x->shape.size()) + "-d input");
    Ref ac = a.get(4, "align_corners");
    bool align = ac && ac->kind != K::None && in.truthy(ac, a.at);
    if (!linear && ac && ac->kind != K::None)
      in.raise(a.at,
               "ValueError: align_corners option can only be set with the interpolating "
               "modes: linear | bilinear | bicubic | trilinear");
    Ref recompute = a.get(5, "recompute_scale_factor");
    if (Ref aa = a.get(6, "antialias"); aa && in.truthy(aa, a.at))
      in.unsupported(a.at, "F.interpolate with antialias=True");
    auto per_dim = [&](const Ref& v) {
      std::vector<Ref> vs = v->kind == K::Tuple || v->kind == K::List
                                ? in.to_sequence(v, a.at)
                                : std::vector<Ref>(spatial, v);
      if (vs.size() != spatial) in.error(a.at, "interpolate: one size per spatial dimension");
      return vs;
    };
    std::vector<int64_t> shape = x->shape;
    std::vector<std::optional<double>> factors(spatial);
    for (size_t d = 0; d < spatial; ++d) {
      int64_t n = x->shape[2 + d];
      if (size && size->kind != K::None) {
        shape[2 + d] = in.to_int(per_dim(size)[d], a.at);
      } else if (scale && scale->kind != K::None) {
        double f = in.to_float(per_dim(scale)[d], a.at);
        shape[2 + d] = static_cast<int64_t>(std::floor(static_cast<double>(n) * f));
        // torch hands the factor to the kernel unless recompute_scale_factor is True.
        if (!(recompute && recompute->kind != K::None && in.truthy(recompute, a.at)))
          factors[d] = f;
      } else {
        in.error(a.at, "interpolate: either size or scale_factor should be defined");
      }
      if (shape[2 + d] <= 0) in.raise(a.at, "RuntimeError: interpolate: output size is empty");
      if (!linear && shape[2 + d] % n)
        in.unsupported(a.at, "F.interpolate to a size that is not a whole multiple (nearest)");
    }
    if (!linear)
      return wrap(gathered(
          x, shape,
          [&](const std::vector<int64_t>& o) {
            std::vector<int64_t> src = o;
            for (size_t d = 2; d < o.size(); ++d) src[d] = o[d] / (shape[d] / x->shape[d]);
            return flat(x->shape, src);
          },
          a.at));
    // Per spatial dimension and output index: the two sources and their weights, in fp32 as
    // torch's kernels compute them (area_pixel_compute_source_index).
    struct Taps {
      int64_t i0, i1;
      TermId l0, l1;
    };
    std::vector<std::vector<Taps>> taps(spatial);
    for (size_t d = 0; d < spatial; ++d) {
      int64_t n = x->shape[2 + d], m = shape[2 + d];
      float sc = align ? (m > 1 ? static_cast<float>(n - 1) / static_cast<float>(m - 1) : 0.0f)
                 : factors[d] && *factors[d] > 0 ? static_cast<float>(1.0 / *factors[d])
                                                 : static_cast<float>(n) / static_cast<float>(m);
      for (int64_t o = 0; o < m; ++o) {
        // One rounding: torch's CPU and CUDA kernels both give the fused multiply-add's value
        // (measured on the H200, tests/fixtures/gpu/interpolate_coordinates.txt).
        float src = align ? sc * static_cast<float>(o)
                          : std::max(std::fma(sc, static_cast<float>(o) + 0.5f, -0.5f), 0.0f);
        int64_t i0 = std::min(static_cast<int64_t>(src), n - 1);
        int64_t i1 = i0 + (i0 < n - 1 ? 1 : 0);
        float w1 = src - static_cast<float>(i0), w0 = 1.0f - w1;
        taps[d].push_back({i0, i1, fconst(w0), fconst(w1)});
      }
    }
    check_initialized(in, *x, a.at);
    TensorPtr r = filled(shape, x->dtype, 0.0);
    std::vector<int64_t> idx(shape.size(), 0);
    for (int64_t k = 0; k < r->numel(); ++k) {
      // w0 * (value at i0) + w1 * (value at i1), the outer dimension outermost.
      std::function<TermId(size_t, std::vector<int64_t>&)> blend = [&](size_t d,
                                                                       std::vector<int64_t>& src) {
        if (d == spatial) return x->elems[flat(x->shape, src)];
        const Taps& t = taps[d][idx[2 + d]];
        src[2 + d] = t.i0;
        TermId lo = blend(d + 1, src);
        src[2 + d] = t.i1;
        TermId hi = blend(d + 1, src);
        return mk(Op::Add, {mk(Op::Mul, {t.l0, lo}), mk(Op::Mul, {t.l1, hi})});
      };
      std::vector<int64_t> src = idx;
      TermId v = round_to(s, x->dtype, blend(0, src));
      st.ieee_unfixed.emplace(v,
                              "interpolation's order of operations (torch's CPU and CUDA "
                              "kernels differ)");
      r->elems[k] = v;
      for (size_t d = shape.size(); d-- > 0;) {
        if (++idx[d] < shape[d]) break;
        idx[d] = 0;
      }
    }
    return wrap(r);
  };
  define("interpolate", interpolate);
  alias("upsample", "interpolate");
  expose(F, "interpolate");
  expose(F, "upsample");
  (void)nn;
}

void Torch::install_pad_normalize(const Ref& F) {
  (*F->attrs)["pad"] = python::builtin("F.pad", [this](Interp&, CallArgs& a) {
    TensorPtr x = tensor_arg(a, 0, "input");
    Ref pad_v = a.get(1, "pad"), mode_v = a.get(2, "mode"), value = a.get(3, "value");
    std::string mode = mode_v && mode_v->kind == K::Str ? mode_v->s : "constant";
    if (mode != "constant" && mode != "reflect" && mode != "replicate" && mode != "circular")
      in.unsupported(a.at, "F.pad with mode " + in.repr(mode_v));
    if (!pad_v) in.error(a.at, "F.pad() missing pad");
    std::vector<int64_t> pad;
    for (const Ref& v : in.to_sequence(pad_v, a.at)) pad.push_back(in.to_int(v, a.at));
    size_t nd = x->shape.size();
    if (pad.size() % 2 || pad.size() / 2 > nd)
      in.raise(a.at,
               "RuntimeError: Padding length must be divisible by 2 and at most twice the "
               "number of dimensions of the input");
    std::vector<int64_t> before(nd, 0), shape = x->shape;
    for (size_t k = 0; k < pad.size() / 2; ++k) {
      size_t d = nd - 1 - k;
      before[d] = pad[2 * k];
      shape[d] += pad[2 * k] + pad[2 * k + 1];
      if (shape[d] < 0) in.raise(a.at, "RuntimeError: F.pad results in a negative size");
    }
    if (mode != "constant") {  // torch: 1 to 3 padded dimensions after one or two others
      size_t padded = pad.size() / 2;
      if (nd < padded + 1 || nd > padded + 2 || padded > 3)
        in.unsupported(a.at, "F.pad in " + mode + " mode of a " + std::to_string(nd) +
                                 "-d input padding " + std::to_string(padded) + " dimensions");
      for (size_t k = 0; k < pad.size(); ++k) {
        int64_t n = x->shape[nd - 1 - k / 2];
        if (pad[k] < 0) in.unsupported(a.at, "F.pad in " + mode + " mode with a negative pad");
        if ((mode == "reflect" && pad[k] >= n) || (mode == "circular" && pad[k] > n))
          in.raise(a.at,
                   "RuntimeError: Padding size should be less than the corresponding "
                   "input dimension");
      }
    }
    // Where output position i of a dimension of n reads (outside [0, n): only constant mode).
    auto source = [&](int64_t i, int64_t n) {
      if (i >= 0 && i < n) return i;
      if (mode == "replicate") return std::clamp<int64_t>(i, 0, n - 1);
      if (mode == "reflect") return i < 0 ? -i : 2 * (n - 1) - i;
      if (mode == "circular") return ((i % n) + n) % n;
      return i;
    };
    double fill = value && value->kind != K::None ? in.to_float(value, a.at) : 0.0;
    check_initialized(in, *x, a.at);
    TensorPtr r = filled(shape, x->dtype, fill);
    std::vector<int64_t> idx(nd, 0);
    for (int64_t k = 0; k < r->numel(); ++k) {
      int64_t src = 0;
      bool inside = true;
      for (size_t d = 0; d < nd; ++d) {
        int64_t i = source(idx[d] - before[d], x->shape[d]);
        inside = inside && i >= 0 && i < x->shape[d];
        src = src * x->shape[d] + i;
      }
      if (inside) r->elems[k] = x->elems[src];
      for (size_t d = nd; d-- > 0;) {
        if (++idx[d] < shape[d]) break;
        idx[d] = 0;
      }
    }
    return wrap(r);
  });
  (*F->attrs)["normalize"] = python::builtin("F.normalize", [this](Interp& i2, CallArgs& a) {
    TensorPtr x = tensor_arg(a, 0, "input");
    CallArgs n;
    n.at = a.at;
    n.pos = {wrap(x), a.get(1, "p") ? a.get(1, "p") : python::floating(2.0),
             a.get(2, "dim") ? a.get(2, "dim") : python::integer(1), python::boolean(true)};
    CallArgs c;
    c.at = a.at;
    c.pos = {ops.at("norm")(i2, n)};
    c.kw = {{"min", a.get(3, "eps") ? a.get(3, "eps") : python::floating(1e-12)}};
    if (Ref out = a.get(4, "out"); out && out->kind != K::None)
      in.unsupported(a.at, "F.normalize with out=");
    return binary("/", wrap(x), ops.at("clamp")(i2, c), a.at);
  });
}

Ref Torch::finish_keywords(const std::string& op, const CallArgs& a, Ref result) {
  for (const std::string* k = a.unread_keyword(); k; k = a.unread_keyword()) {
    Ref v = a.get(SIZE_MAX, *k);  // marks it read
    if (value_irrelevant_keyword(*k) || (*k == "out" && v->kind == K::None)) continue;
    if (*k == "inplace" && !in.truthy(v, a.at)) continue;
    if (*k == "inplace") {  // F.relu(x, inplace=True): the result is written into x
      if (a.pos.empty() || a.pos[0]->kind != K::Tensor || result->kind != K::Tensor)
        in.unsupported(a.at, "inplace=True of torch." + op + " on this input");
      Ref self = a.pos[0];
      CallArgs c;
      c.at = a.at;
      c.pos = {result};
      result = in.call(in_place_method(self, "copy_"), c);
      continue;
    }
    if (*k != "out")
      in.unsupported(a.at,
                     "keyword argument " + *k + "= (keq's torch." + op + " does not read it)");
    if (v->kind != K::Tensor || result->kind != K::Tensor)
      in.unsupported(a.at, "out= of torch." + op + " other than one tensor for one result");
    const TensorPtr &out = v->tensor, &r = result->tensor;
    if (out->shape != r->shape || out->dtype != r->dtype)
      in.unsupported(
          a.at, "out= of torch." + op +
                    " with another shape or dtype than the result (torch resizes or rejects it)");
    Selection all{out->shape, std::vector<int64_t>(out->numel()), true};
    std::iota(all.flat.begin(), all.flat.end(), 0);
    write_selection(out, all, r, "out= of torch." + op, a.at);
    result = v;
  }
  return result;
}

}  // namespace keq::torch::impl
