// torch's views and shape changes: reshape, permute, cat/stack, split, and the keyword check
// every op's call ends with (indexing.cc subscripts, tensor_methods.cc attributes).
#include <absl/container/flat_hash_map.h>
#include <absl/container/flat_hash_set.h>

#include <numeric>

#include "frontends/torch/torch_impl.h"

namespace keq::torch::impl {

void Torch::install_views() {
  // Views and shape changes.
  // reshape, and view, which raises where reshape would copy (a permuted tensor's dimensions
  // merged): torch's view of a layout keq does not track is taken as possible.
  auto reshape = [this](bool view) {
    return [this, view](Interp&, CallArgs& a) {
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
      if (view && x->strided && !x->storage.strides.empty() &&
          !view_strides(x->shape, x->storage.strides, shape))
        in.raise_exception(a.at, "RuntimeError",
                           "view size is not compatible with input tensor's size and stride (at "
                           "least one dimension spans across two contiguous subspaces). Use "
                           ".reshape(...) instead.");
      return wrap(reshaped(x, shape));
    };
  };
  define("reshape", reshape(false));
  define("view", reshape(true));
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
    if (perm.size() != x->shape.size())
      in.raise(a.at,
               "RuntimeError: permute(sparse_coo): number of dimensions in the tensor input "
               "does not match the length of the desired ordering of dimensions i.e. "
               "input.dim() = " +
                   std::to_string(x->shape.size()) +
                   " is not equal to len(dims) = " + std::to_string(perm.size()));
    std::vector<bool> used(perm.size(), false);
    for (int64_t& p : perm) {
      p = norm_dim(in, p, x->shape.size(), a.at);
      if (used[p]) in.raise(a.at, "RuntimeError: permute(): duplicate dims are not allowed.");
      used[p] = true;
    }
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
    if (start < 0 || length < 0) in.error(a.at, "narrow: a negative start or length");
    if (start + length > x->shape[dim])
      in.raise(a.at, "RuntimeError: start (" + std::to_string(start) + ") + length (" +
                         std::to_string(length) + ") exceeds dimension size (" +
                         std::to_string(x->shape[dim]) + ").");
    return subscript(x, index_along(dim, slice_value(start, start + length)), a.at);
  });
  // Tensor.unfold(dimension, size, step): the windows of `size` elements along dimension,
  // `step` apart, as a new last dimension (ViT's patches); a view of the input's storage.
  define("unfold", [this](Interp&, CallArgs& a) {
    TensorPtr x = tensor_arg(a, 0, "input");
    const size_t nd = x->shape.size();
    int64_t dim = norm_dim(in, int_arg(a, 1, "dimension").value_or(0), nd, a.at);
    int64_t size = int_arg(a, 2, "size").value_or(0), step = int_arg(a, 3, "step").value_or(0);
    if (step <= 0) in.error(a.at, "unfold: step is " + std::to_string(step) + " but must be > 0");
    if (size < 0 || size > x->shape[dim])
      in.error(a.at, "maximum size for tensor at dimension " + std::to_string(dim) + " is " +
                         std::to_string(x->shape[dim]) + " but size is " + std::to_string(size));
    std::vector<int64_t> shape = x->shape, at = x->strides();
    shape[dim] = (x->shape[dim] - size) / step + 1;
    shape.push_back(size);
    TensorPtr r = gathered(
        x, shape,
        [&](const std::vector<int64_t>& i) {
          int64_t flat = 0;
          for (size_t d = 0; d < nd; ++d)
            flat += (static_cast<int64_t>(d) == dim ? i[d] * step + i[nd] : i[d]) * at[d];
          return flat;
        },
        a.at);
    if (x->strided) {  // a view at strides keq does not track
      r->strided = true;
      return wrap(r);
    }
    std::vector<int64_t> strides = at;
    strides[dim] *= step;
    strides.push_back(at[dim]);
    std::vector<int64_t> row_major = r->strides();
    for (size_t d = 0; d < shape.size(); ++d)
      r->strided |= shape[d] > 1 && strides[d] != row_major[d];
    if (r->numel() > 0) strided_view(x, r, 0, strides);
    return wrap(r);
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
    // A new dimension: anywhere up to the rank.
    int64_t d = norm_dim(in, in.to_int(a.get(1, "dim"), a.at), x->shape.size() + 1, a.at);
    std::vector<int64_t> shape = x->shape;
    shape.insert(shape.begin() + d, 1);
    return wrap(reshaped(x, shape));
  });
  define("squeeze", [this](Interp&, CallArgs& a) {
    TensorPtr x = tensor_arg(a, 0, "input");
    std::optional<int64_t> d = int_arg(a, 1, "dim");
    if (d) d = norm_dim(in, *d, x->shape.size(), a.at);
    std::vector<int64_t> shape;
    for (size_t k = 0; k < x->shape.size(); ++k) {
      bool drop = x->shape[k] == 1 && (!d || *d == static_cast<int64_t>(k));
      if (!drop) shape.push_back(x->shape[k]);
    }
    return wrap(reshaped(x, shape));
  });
  // memory_format: torch.contiguous_format by default, or torch.channels_last (tensor_ops.h);
  // torch refuses preserve_format here.
  auto format_of = [this](CallArgs& a, const char* op) {
    MemoryFormat f = memory_format(in, a.get(1, "memory_format"), MemoryFormat::Contiguous, a.at);
    if (f == MemoryFormat::Preserve && std::string(op) == "contiguous")
      in.raise(a.at,
               "RuntimeError: preserve memory format is unsupported by the contiguous operator");
    if (f == MemoryFormat::Preserve)
      in.unsupported(a.at, "is_contiguous(memory_format=torch.preserve_format)");
    return f;
  };
  define("contiguous", [this, format_of](Interp&, CallArgs& a) {
    MemoryFormat f = format_of(a, "contiguous");
    TensorPtr x = tensor_arg(a, 0, "input");
    if (f == MemoryFormat::Contiguous && !x->strided)
      return wrap(reshaped(x, x->shape));  // torch returns x itself
    TensorPtr r = laid_out(in, x, f, false, a.at);
    return r == x ? a.pos[0] : wrap(r);
  });
  define("is_contiguous", [this, format_of](Interp&, CallArgs& a) {
    MemoryFormat f = format_of(a, "is_contiguous");
    const TensorPtr& x = tensor_arg(a, 0, "input");
    return python::boolean(f == MemoryFormat::ChannelsLast ? is_channels_last(in, *x, a.at)
                                                           : !x->strided);
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
        if (size <= 0 && by_count)
          in.raise(a.at, "RuntimeError: chunk expects `chunks` to be greater than 0, got: " +
                             std::to_string(size));
        if (size == 0 && n > 0)
          in.raise(a.at,
                   "RuntimeError: split_size can only be 0 if dimension size is 0, but got "
                   "dimension size of " +
                       std::to_string(n));
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
        in.raise(a.at, "RuntimeError: Sizes of tensors must match except in dimension " +
                           std::to_string(dim) + ". Expected size " +
                           std::to_string(ts[0]->shape[d]) + " but got size " +
                           std::to_string(t->shape[d]) + " for tensor number " +
                           std::to_string(&t - &ts[0]) + " in the list.");
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

Ref Torch::finish_keywords(const std::string& op, const CallArgs& a, Ref result) {
  for (const std::string* k = a.unread_keyword(); k; k = a.unread_keyword()) {
    Ref v = a.get(SIZE_MAX, *k);  // marks it read
    if (*k == "requires_grad") made_requiring_grad(result, v, a.at);
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
