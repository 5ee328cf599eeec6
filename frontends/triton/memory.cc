// Memory: tl.load and tl.store with masks, `other`, races between programs and lanes, and
// block pointers (tl.make_block_ptr, tl.advance, boundary checks).
#include "frontends/triton/triton_impl.h"

namespace keq::triton::impl {

std::vector<bool> Triton::mask_lanes(const Ref& mask, const std::vector<int64_t>& shape, Span at,
                                     std::vector<TermId>* dependent) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  if (!mask || mask->kind == K::None) return std::vector<bool>(n, true);
  if (mask->kind == K::Bool) return std::vector<bool>(n, mask->b);
  if (mask->kind != K::Tensor) in.error(at, "a mask must be a boolean block");
  TensorPtr m = mask->tensor;
  std::vector<bool> lanes;
  auto& seen = st.mask_coverage[in.where(at)];
  std::vector<int64_t> idx(shape.size(), 0);
  if (dependent) dependent->assign(n, Value::kNoTerm);
  for (int64_t k = 0; k < n; ++k) {
    TermId e = m->elems[broadcast_index(*m, shape, idx)];
    if (dependent && !is_const(e) && !closed(e)) {  // the caller decides it per loaded value
      (*dependent)[k] = e;
      lanes.push_back(true);
    } else {
      lanes.push_back(const_int(e, at, "a mask") != 0);
    }
    (lanes.back() ? seen.on : seen.off) = true;
    for (size_t d = idx.size(); d-- > 0;) {
      if (++idx[d] < shape[d]) break;
      idx[d] = 0;
    }
  }
  return lanes;
}

std::vector<int64_t>& Triton::writers(const TensorPtr& t) {
  auto [it, fresh] = run->writer.try_emplace(t.get());
  if (fresh) it->second.assign(t->elems.size(), -1);
  return it->second;
}

TermId Triton::undefined(Span at, const std::string& why, DType dtype) {
  // A lane with no defined value: if it reaches an output, that is a finding (checked after
  // forward). It has its buffer's type: an f32 variable in an int32 block built ill-typed terms
  // where the block was used (tl.where over indices loaded from unwritten memory).
  std::string name =
      "undef@" + in.where(at) + "#" + std::to_string(undef_count++) + "[" + why + "]";
  return s.variable(name, term_type(dtype));
}

Ref Triton::load(CallArgs& a) {
  Ref p = a.get(0, "pointer");
  if (p && is_block_ptr(p)) return load_block_ptr(p, a);
  if (p && p->kind != K::Pointer) check_pointer_operand(in, a.at, p, "load");
  if (!p || p->kind != K::Pointer)
    in.unsupported(a.at, "tl.load of something that is not a pointer block");
  Ref mask = a.get(1, "mask"), other = a.get(2, "other");
  // semantic._load_legacy's checks, which compiling the kernel runs (its message as Triton words
  // it, "ofpointers" included).
  if ((!mask || mask->kind == K::None) && other && other->kind != K::None)
    in.raise(a.at, "ValueError: `other` cannot be provided without `mask`");
  Ref boundary = a.get(3, "boundary_check"), padding = a.get(4, "padding_option");
  if ((boundary && in.truthy(boundary, a.at)) || (padding && in.truthy(padding, a.at)))
    in.raise(a.at,
             "ValueError: `padding_option` or `boundary_check` argument is not supported for "
             "loading a tensor ofpointers or loading a scalar. Because the compiler does not "
             "know the boundary; please use block pointers (defined by `make_block_ptr`) instead");
  // A mask wider than the pointers widens them (broadcast_impl_value broadcasts both); an
  // `other` that widens them leaves the mask narrower than the pointers, which keq does not model.
  if (mask && mask->kind == K::Tensor &&
      check_beside_pointer(in, a.at, p->shape, mask->tensor->shape, "Mask", false))
    p = broadcast_pointer(p, broadcast_shapes(in, p->shape, mask->tensor->shape, a.at), a.at);
  if (other && other->kind == K::Tensor &&
      check_beside_pointer(in, a.at, p->shape, other->tensor->shape, "Other", false))
    in.unsupported(a.at,
                   "other= wider than the pointer block of a tl.load (Triton broadcasts the "
                   "pointers to it, and not the mask)");
  // A gather's mask may test the loaded index itself (fla's cross entropy loads the target's
  // logit only in the vocabulary block that holds it): decided per value the index takes.
  std::vector<TermId> dependent;
  std::vector<bool> lanes =
      mask_lanes(mask, p->shape, a.at, p->loaded_offsets.empty() ? nullptr : &dependent);
  TensorPtr other_t =
      other && other->kind != K::None ? as_tensor(in, other, a.at, p->tensor->dtype) : nullptr;
  return load_lanes(p, lanes, other_t, a.at, dependent);
}

Ref Triton::load_lanes(const Ref& p, const std::vector<bool>& lanes, const TensorPtr& other_t,
                       Span at, const std::vector<TermId>& dependent) {
  const TensorPtr& buf = p->tensor;
  auto r = std::make_shared<Tensor>();
  r->shape = p->shape;
  r->dtype = buf->dtype;
  std::vector<int64_t>& w = writers(buf);
  auto masked = [&](size_t k) {
    return other_t
               ? convert(
                     s, other_t->elems[broadcast_index(*other_t, p->shape, unflatten(k, p->shape))],
                     other_t->dtype, buf->dtype)
               : undefined(at, "masked lane without other=", buf->dtype);
  };
  for (size_t k = 0; k < lanes.size(); ++k) {
    if (!lanes[k]) {
      r->elems.push_back(masked(k));
      continue;
    }
    int64_t off = p->offsets[k];
    TermId mask = dependent.empty() ? Value::kNoTerm : dependent[k];
    if (!p->loaded_offsets.empty() && p->loaded_offsets[k] != Value::kNoTerm) {
      r->elems.push_back(gather_lane(buf, off, p->loaded_offsets[k], static_cast<int64_t>(k), at,
                                     mask, mask == Value::kNoTerm ? mask : masked(k)));
      continue;
    }
    if (mask != Value::kNoTerm)
      in.unsupported(at, "a mask that depends on loaded data (data-dependent indexing)");
    bool oob = off < 0 || off >= static_cast<int64_t>(buf->elems.size());
    if (oob || (w[off] >= 0 && w[off] != run->program()))
      need_unconditional(at, "a load out of bounds or racing with another program");
    if (!oob && conditional_other(w[off], run->program()))
      in.unsupported(at,
                     "a load of an element another program stores under a condition "
                     "that depends on loaded data");
    if (oob) {
      finding(at, "load out of bounds: lane " + std::to_string(k) + " reads element " +
                      std::to_string(off) + " of a buffer of " + std::to_string(buf->elems.size()));
      r->elems.push_back(undefined(at, "out-of-bounds lane", buf->dtype));
      continue;
    }
    if (w[off] >= 0 && w[off] != run->program())
      finding(at, "read-write race: element " + std::to_string(off) +
                      " was stored by another program of this launch");
    if (auto m = run->stored_lane.find({buf.get(), off});
        m != run->stored_lane.end() &&
        (m->second.shape != p->shape || m->second.lane != int64_t(k)))
      finding(at, "intra-program hazard: lane " + std::to_string(k) + " reads element " +
                      std::to_string(off) +
                      ", which another lane of this program stored with "
                      "no tl.debug_barrier between");
    run->note_read(buf.get(), off, w[off], buf->elems.size());
    TermId e = buf->elems[off];
    r->elems.push_back(e == Tensor::kUninit ? undefined(at, "uninitialized memory", buf->dtype)
                                            : e);
  }
  return wrap(r);
}

namespace {
// A loaded offset as known + scale * index, where index is the part no constant can be peeled
// from (x_ptr + row * n + t gives index t): so the cases test the loaded value itself, as the
// reference's gather does, and a stride scales it.
struct PeeledOffset {
  TermId index;
  int64_t known = 0, scale = 1;
};
PeeledOffset peel(const ir::TermStore& s, TermId t, int64_t known) {
  PeeledOffset r{t, known, 1};
  auto constant = [&](TermId c, int64_t& v) {
    if (s.op(c) != Op::Const) return false;
    v = s.constant_of(c).i;
    return true;
  };
  for (;;) {
    auto kids = s.children(r.index);
    int64_t v = 0;
    Op op = s.op(r.index);
    if ((op == Op::Add || op == Op::Sub) && constant(kids[1], v)) {
      r.known += (op == Op::Add ? v : -v) * r.scale;
      r.index = kids[0];
    } else if (op == Op::Add && constant(kids[0], v)) {
      r.known += v * r.scale, r.index = kids[1];
    } else if (op == Op::Mul && (constant(kids[1], v) || constant(kids[0], v))) {
      r.scale *= v, r.index = kids[constant(kids[1], v) ? 0 : 1];
    } else if (op == Op::CastI64 && s.type(kids[0]) == ir::Type::I32) {
      r.index = kids[0];  // widening: the same value
    } else {
      return r;
    }
  }
}
}  // namespace

TermId Triton::gather_lane(const TensorPtr& buf, int64_t known, TermId loaded, int64_t lane,
                           Span at, TermId mask, TermId other) {
  PeeledOffset o = peel(s, loaded, known);
  // The mask at index value v, where it depends on nothing else loaded; else UNSUPPORTED.
  auto mask_at = [&](int64_t v) {
    if (mask == Value::kNoTerm) return true;
    if (s.op(o.index) != Op::Var)
      in.unsupported(at, "a mask that depends on loaded data (data-dependent indexing)");
    // Without other= a masked-off value is undefined, and whether a later tl.where keeps it
    // out of the outputs would depend on the index: keq's check of undefined values is not
    // path-sensitive, so it would report one that never arrives.
    if (s.op(other) == Op::Var && s.variable_of(other).name.starts_with("undef@"))
      in.unsupported(at,
                     "a gather masked by a test of its own loaded index, without other= "
                     "(data-dependent indexing)");
    ir::Type type = s.type(o.index);
    try {
      return ir::evaluate_ieee(s, mask,
                               [&](const ir::Variable& var) -> std::optional<ir::IeeeValue> {
                                 if (var.name != s.variable_of(o.index).name) return std::nullopt;
                                 return ir::IeeeValue{type, 0, v};
                               })
                 .i != 0;
    } catch (const ir::EvalError&) {
      in.unsupported(at,
                     "a mask that depends on loaded data other than the index it loads at "
                     "(data-dependent indexing)");
    }
  };
  auto range = torch::int_range_over_inputs(st, s, o.index);
  constexpr int64_t kMostCases = 1 << 16;
  if (!range || range->second - range->first >= kMostCases)
    in.unsupported(at,
                   "a pointer offset that depends on loaded data, over a range keq cannot "
                   "bound from the inputs' domains (data-dependent indexing)");
  std::vector<int64_t>& w = writers(buf);
  std::vector<int64_t> values;
  std::vector<TermId> cases;
  for (int64_t v = range->first; v <= range->second; ++v) {
    int64_t off = o.known + o.scale * v;
    values.push_back(v);
    if (!mask_at(v)) {  // a masked-off value of the index: the mask's off side is checked
      st.mask_coverage[in.where(at)].off = true;
      cases.push_back(other);
      continue;
    }
    if (off < 0 || off >= static_cast<int64_t>(buf->elems.size())) {
      // An input's own range is exact; a computed index's range may be wider than its values.
      if (s.op(o.index) != Op::Var)
        in.unsupported(at,
                       "a pointer offset that depends on loaded data and may leave its "
                       "buffer (element " +
                           std::to_string(off) + "), which keq cannot decide");
      finding(at, "load out of bounds: lane " + std::to_string(lane) + " reads element " +
                      std::to_string(off) + " of a buffer of " + std::to_string(buf->elems.size()) +
                      " where " + s.variable_of(o.index).name + " = " + std::to_string(v));
      cases.push_back(undefined(at, "out-of-bounds lane", buf->dtype));
      continue;
    }
    // Which value a racing or unordered store leaves depends on the schedule (the loads of
    // known offsets report these as findings; here only some index values reach them).
    if ((w[off] >= 0 && w[off] != run->program()) || conditional_other(w[off], run->program()))
      in.unsupported(at, "a data-dependent load of an element another program stores");
    if (run->stored_lane.count({buf.get(), off}))
      in.unsupported(at,
                     "a data-dependent load of an element this program stored, from a lane "
                     "that may be another (no ordering between lanes is modelled)");
    run->note_read(buf.get(), off, w[off], buf->elems.size());
    TermId e = buf->elems[off];
    cases.push_back(e == Tensor::kUninit ? undefined(at, "uninitialized memory", buf->dtype) : e);
  }
  return ir::select_by_value(s, o.index, values, cases);
}

Ref Triton::store(CallArgs& a) {
  Ref p = a.get(0, "pointer");
  std::vector<bool> lanes;
  if (p && is_block_ptr(p)) {
    p = block_lanes(p, a.get(3, "boundary_check"), a.at, lanes);
  } else {
    if (p && p->kind != K::Pointer) check_pointer_operand(in, a.at, p, "store");
    if (!p || p->kind != K::Pointer)
      in.unsupported(a.at, "tl.store to something that is not a pointer block");
    need_known_offsets(p, a.at, "tl.store");
    Ref mask = a.get(2, "mask");
    if (mask && mask->kind == K::Tensor)
      check_beside_pointer(in, a.at, p->shape, mask->tensor->shape, "Mask", true);
    lanes = mask_lanes(mask, p->shape, a.at);
  }
  const TensorPtr& buf = p->tensor;
  TensorPtr v = as_tensor(in, a.get(1, "value"), a.at, buf->dtype);
  check_beside_pointer(in, a.at, p->shape, v->shape, "Value", true);
  std::vector<int64_t>& w = writers(buf);
  for (size_t k = 0; k < lanes.size(); ++k) {
    if (!lanes[k]) continue;
    int64_t off = p->offsets[k];
    bool oob = off < 0 || off >= static_cast<int64_t>(buf->elems.size());
    if (!oob && conditional_other(w[off], run->program()))
      in.unsupported(a.at,
                     "a store to an element another program stores under a condition "
                     "that depends on loaded data");
    TermId e = v->elems[broadcast_index(*v, p->shape, unflatten(k, p->shape))];
    if (!path.empty()) {  // the store happens only where the conditions hold
      if (oob || buf->elems[off] == Tensor::kUninit || (w[off] >= 0 && w[off] != run->program()))
        need_unconditional(a.at, "a store out of bounds, to memory nothing wrote, or racing");
      run->reads_prior = true;  // where the condition fails, the element keeps what it held
      w[off] = -(run->program() + 2);
      run->wrote = true;
      buf->write(off, s.make(Op::Select,
                             {path_guard(), to_dtype(e, v->dtype, buf->dtype), buf->elems[off]}));
      continue;
    }
    if (oob) {
      finding(a.at, "store out of bounds: lane " + std::to_string(k) + " writes element " +
                        std::to_string(off) + " of a buffer of " +
                        std::to_string(buf->elems.size()));
      continue;
    }
    TermId stored = to_dtype(e, v->dtype, buf->dtype);
    // Programs whose blocks overlap may store one element with the same value: whichever
    // lands last, memory holds that value (no race to report).
    if (w[off] >= 0 && w[off] != run->program() && buf->elems[off] != stored)
      finding(a.at, "write-write race: element " + std::to_string(off) +
                        " is stored by several programs of this launch");
    w[off] = run->program();
    run->note_write(buf.get(), off);
    run->stored_lane[{buf.get(), off}] = {p->shape, static_cast<int64_t>(k)};
    run->wrote = true;
    buf->write(off, stored);
  }
  return python::none();
}

bool Triton::is_block_ptr(const Ref& v) const {
  return v->kind == K::Instance && v->cls == block_ptr_class;
}

int64_t Triton::int_of(const Ref& v, Span at) {
  if (v->kind == K::Tensor && v->tensor->numel() == 1)
    return const_int(v->tensor->elems[0], at, "a block pointer's shape, stride or offset");
  return in.to_int(v, at);
}

std::vector<int64_t> Triton::ints_of(const Ref& v, Span at) {
  std::vector<int64_t> out;
  for (const Ref& x : in.to_sequence(v, at)) out.push_back(int_of(x, at));
  return out;
}

Ref Triton::int_tuple(const std::vector<int64_t>& v) {
  std::vector<Ref> items;
  for (int64_t x : v) items.push_back(python::integer(x));
  return python::tuple(items);
}

Ref Triton::make_block_ptr(const Ref& base, std::vector<int64_t> shape,
                           std::vector<int64_t> strides, std::vector<int64_t> offsets,
                           std::vector<int64_t> block, Span at) {
  if (!base || base->kind != K::Pointer || base->offsets.size() != 1)
    in.error(at, "tl.make_block_ptr needs a scalar pointer as base");
  need_known_offsets(base, at, "tl.make_block_ptr");
  size_t n = shape.size();
  if (strides.size() != n || offsets.size() != n || block.size() != n)
    in.error(at, "tl.make_block_ptr: shape, strides, offsets and block_shape differ in rank");
  auto attrs = std::make_shared<Attrs>();
  (*attrs)["base"] = base;
  (*attrs)["shape"] = int_tuple(shape);
  (*attrs)["strides"] = int_tuple(strides);
  (*attrs)["offsets"] = int_tuple(offsets);
  (*attrs)["block_shape"] = int_tuple(block);
  auto v = std::make_shared<Value>();
  v->kind = K::Instance;
  v->cls = block_ptr_class;
  v->attrs = attrs;
  return v;
}

Ref Triton::block_lanes(const Ref& bp, const Ref& check, Span at, std::vector<bool>& lanes) {
  auto field = [&](const char* f) { return ints_of((*bp->attrs)[f], at); };
  std::vector<int64_t> shape = field("shape"), strides = field("strides"),
                       offsets = field("offsets"), block = field("block_shape");
  std::vector<bool> checked(shape.size(), false);
  if (check && check->kind != K::None)
    for (int64_t d : ints_of(check, at)) {
      if (d < 0 || d >= static_cast<int64_t>(shape.size()))
        in.error(at, "boundary_check names dimension " + std::to_string(d));
      checked[d] = true;
      st.mask_limits.insert({shape[d], block[d]});
    }
  const Ref& base = (*bp->attrs)["base"];
  auto p = std::make_shared<Value>();
  p->kind = K::Pointer;
  p->tensor = base->tensor;
  p->shape = block;
  int64_t n = 1;
  for (int64_t b : block) n *= b;
  auto& seen = st.mask_coverage[in.where(at)];
  for (int64_t k = 0; k < n; ++k) {
    std::vector<int64_t> idx = unflatten(k, block);
    int64_t off = base->offsets[0];
    bool inside = true;
    for (size_t d = 0; d < block.size(); ++d) {
      int64_t c = offsets[d] + idx[d];
      off += c * strides[d];
      if (checked[d] && (c < 0 || c >= shape[d])) inside = false;
    }
    p->offsets.push_back(off);
    lanes.push_back(inside);
    (inside ? seen.on : seen.off) = true;
  }
  return p;
}

Ref Triton::load_block_ptr(const Ref& bp, CallArgs& a) {
  if (a.get(1, "mask") || a.get(2, "other"))
    in.error(a.at, "tl.load of a block pointer takes boundary_check=, not mask= or other=");
  std::vector<bool> lanes;
  Ref p = block_lanes(bp, a.get(3, "boundary_check"), a.at, lanes);
  Ref pad = a.get(4, "padding_option");
  std::string option = pad && pad->kind == K::Str ? pad->s : "";
  TensorPtr other_t;  // "": lanes off the boundary are undefined
  if (option == "zero" || option == "nan") {
    other_t = std::make_shared<Tensor>();
    other_t->dtype = p->tensor->dtype;
    other_t->elems = {constant(s, other_t->dtype, option == "zero" ? 0.0 : std::nan(""))};
  } else if (!option.empty()) {
    in.error(a.at, "padding_option is \"\", \"zero\" or \"nan\"");
  }
  return load_lanes(p, lanes, other_t, a.at);
}

std::vector<int64_t> Triton::unflatten(int64_t k, const std::vector<int64_t>& shape) {
  std::vector<int64_t> idx(shape.size());
  for (size_t d = shape.size(); d-- > 0;) {
    idx[d] = k % shape[d];
    k /= shape[d];
  }
  return idx;
}

}  // namespace keq::triton::impl
