// Exceptions and with statements: raise, try/except/else/finally, and @contextmanager bodies.
//
// Only exceptions CPython, torch or Triton raise for certain (ProgramError::confirmed) are
// caught: keq's own gaps (Unsupported) and its models refusing arguments pass through any
// `except`, since keq cannot know whether Python would have raised there at all.
#include <absl/container/flat_hash_map.h>

#include "frontends/python/interp.h"

namespace keq::python {
namespace {
using K = Value::Kind;

// CPython 3.11's builtin exception hierarchy: each class and its base.
const absl::flat_hash_map<std::string, std::string>& exception_bases() {
  static const auto* bases = new absl::flat_hash_map<std::string, std::string>{
      {"BaseException", ""},
      {"SystemExit", "BaseException"},
      {"KeyboardInterrupt", "BaseException"},
      {"GeneratorExit", "BaseException"},
      {"Exception", "BaseException"},
      {"ArithmeticError", "Exception"},
      {"FloatingPointError", "ArithmeticError"},
      {"OverflowError", "ArithmeticError"},
      {"ZeroDivisionError", "ArithmeticError"},
      {"AssertionError", "Exception"},
      {"AttributeError", "Exception"},
      {"BufferError", "Exception"},
      {"EOFError", "Exception"},
      {"ImportError", "Exception"},
      {"ModuleNotFoundError", "ImportError"},
      {"LookupError", "Exception"},
      {"IndexError", "LookupError"},
      {"KeyError", "LookupError"},
      {"MemoryError", "Exception"},
      {"NameError", "Exception"},
      {"UnboundLocalError", "NameError"},
      {"OSError", "Exception"},
      {"FileNotFoundError", "OSError"},
      {"PermissionError", "OSError"},
      {"RuntimeError", "Exception"},
      {"NotImplementedError", "RuntimeError"},
      {"RecursionError", "RuntimeError"},
      {"StopIteration", "Exception"},
      {"SyntaxError", "Exception"},
      {"SystemError", "Exception"},
      {"TypeError", "Exception"},
      {"ValueError", "Exception"},
      {"UnicodeError", "ValueError"},
      {"Warning", "Exception"},
      {"UserWarning", "Warning"},
      {"DeprecationWarning", "Warning"},
      {"FutureWarning", "Warning"},
      {"RuntimeWarning", "Warning"},
      {"PendingDeprecationWarning", "Warning"},
      {"ImportWarning", "Warning"},
      {"SyntaxWarning", "Warning"},
      {"ResourceWarning", "Warning"},
  };
  return *bases;
}

// The part of a message before ": " when it names an exception class ("TypeError: ...").
std::string type_prefix(const std::string& what) {
  size_t colon = what.find(": ");
  if (colon == std::string::npos) return "";
  std::string head = what.substr(0, colon);
  return exception_bases().contains(head) ? head : "";
}

}  // namespace

std::vector<std::string> Interp::exception_chain(const std::string& type) {
  std::vector<std::string> chain;
  for (std::string t = type; !t.empty();) {
    auto it = exception_bases().find(t);
    if (it == exception_bases().end()) break;
    chain.push_back(t);
    t = it->second;
  }
  return chain;
}

void Interp::raise(Span at, const std::string& what) const {
  ProgramError e(where(at) + ": " + what, true);
  e.classes = exception_chain(type_prefix(what));
  throw e;
}

void Interp::raise_exception(Span at, const std::string& type, const std::string& message,
                             const std::vector<std::pair<std::string, Ref>>& attributes) const {
  ProgramError e(where(at) + ": " + type + ": " + message, true);
  e.classes = exception_chain(type);
  Ref cls = builtins_->lookup(type);
  if (cls && cls->kind == K::Class) {
    e.instance = std::make_shared<Value>();
    e.instance->kind = K::Instance;
    e.instance->cls = cls;
    e.instance->attrs = std::make_shared<absl::flat_hash_map<std::string, Ref>>();
    (*e.instance->attrs)["args"] = tuple({string(message)});
    for (const auto& [name, value] : attributes) (*e.instance->attrs)[name] = value;
  }
  throw e;
}

void Interp::install_exceptions() {
  auto& b = builtins_->vars;
  // Bases before subclasses: the table is walked until every class exists.
  for (bool added = true; added;) {
    added = false;
    for (const auto& [name, base] : exception_bases()) {
      if (b.contains(name) || (!base.empty() && !b.contains(base))) continue;
      auto attrs = std::make_shared<absl::flat_hash_map<std::string, Ref>>();
      (*attrs)["__init__"] = builtin(name + ".__init__", [](Interp&, CallArgs& a) {
        if (!a.pos.empty() && a.pos[0]->kind == K::Instance)
          (*a.pos[0]->attrs)["args"] = tuple({a.pos.begin() + 1, a.pos.end()});
        return none();
      });
      b[name] = make_class(name, base.empty() ? b.at("object") : b.at(base), attrs);
      added = true;
    }
  }
}

// `raise X(...)`, `raise X`, or a bare `raise` inside an except block (the exception it handles).
void Interp::exec_raise(const Node& n, const std::shared_ptr<Env>& env) {
  if (n.kids[0] == kNoNode) {
    if (handling_.empty()) raise(n.span, "RuntimeError: No active exception to reraise");
    std::rethrow_exception(handling_.back());
  }
  Ref x = eval(n.kids[0], env);
  Ref cls = x->kind == K::Instance ? x->cls : x;
  std::string message;
  if (x->kind == K::Instance)
    if (auto a = x->attrs->find("args"); a != x->attrs->end() && !a->second->items.empty())
      message = ": " + (a->second->items[0]->kind == K::Str ? a->second->items[0]->s
                                                            : repr(a->second->items[0]));
  if (cls->kind != K::Class) error(n.span, "TypeError: exceptions must derive from BaseException");
  ProgramError e(where(n.span) + ": the program raises " + cls->s + message, true);
  if (x->kind == K::Instance) e.instance = x;  // what an `except ... as e` binds
  for (Ref c = cls; c && c->s != "object"; c = c->cls) e.classes.push_back(c->s);
  if (std::find(e.classes.begin(), e.classes.end(), "BaseException") == e.classes.end())
    raise(n.span, "TypeError: exceptions must derive from BaseException");
  throw e;
}

bool Interp::handler_matches(NodeId handler, const ProgramError& e,
                             const std::shared_ptr<Env>& env) {
  NodeId type = node(handler).kids[0];
  if (type == kNoNode) return true;  // a bare except
  Ref t = eval(type, env);
  std::vector<Ref> classes = t->kind == K::Tuple ? t->items : std::vector<Ref>{t};
  for (const Ref& c : classes) {
    if (c->kind != K::Class)
      unsupported(node(type).span, "an except clause naming " + c->type_name());
    if (e.classes.empty()) {  // keq knows the error, not its class: only Exception is certain
      if (c->s == "Exception" || c->s == "BaseException") return true;
      unsupported(node(type).span, "whether 'except " + c->s + "' catches an error whose class " +
                                       "keq does not know: " + e.what());
    }
    if (std::find(e.classes.begin(), e.classes.end(), c->s) != e.classes.end()) return true;
  }
  return false;
}

Ref Interp::exception_value(const ProgramError& e) const {
  if (e.instance) return e.instance;
  auto v = std::make_shared<Value>();
  v->kind = K::Instance;
  std::string cls = e.classes.empty() ? "Exception" : e.classes[0];
  Ref c = builtins_->lookup(cls);
  v->cls = c && c->kind == K::Class ? c : builtins_->lookup("Exception");
  v->attrs = std::make_shared<absl::flat_hash_map<std::string, Ref>>();
  (*v->attrs)["args"] = tuple({string(e.what())});
  return v;
}

Interp::Flow Interp::exec_try(const Node& n, const std::shared_ptr<Env>& env) {
  std::vector<NodeId> handlers;
  NodeId else_block = kNoNode, finally_block = kNoNode;
  for (size_t k = 1; k < n.kids.size(); ++k) {
    if (n.kids[k] == kNoNode) continue;
    const Node& c = node(n.kids[k]);
    if (c.kind == NodeKind::ExceptHandler)
      handlers.push_back(n.kids[k]);
    else
      (c.text2 == "else" ? else_block : finally_block) = n.kids[k];
  }
  auto run_finally = [&](Flow f) {
    if (finally_block == kNoNode) return f;
    Ref returned = return_value_;  // a `return` before: calls in the block must not replace it
    Flow g = exec_block(finally_block, env);
    if (g == Flow::Normal) return_value_ = returned;
    return g == Flow::Normal ? f : g;
  };
  // What a function call left behind when an exception unwound it.
  const Tree* tree = tree_;
  int depth = depth_;
  size_t methods = method_stack_.size(), yields = yield_handlers_.size(),
         callers = model_callers_.size();
  Flow flow;
  // While handlers may catch it, a missing module is the ModuleNotFoundError CPython raises
  // (the program's fallback runs); elsewhere it is taken as installed (import_module).
  struct Guard {
    int& depth;
    bool on;
    Guard(int& d, bool o) : depth(d), on(o) { depth += on; }
    ~Guard() { depth -= on; }
  };
  try {
    Guard guard(import_guards_, !handlers.empty());
    flow = exec_block(n.kids[0], env);
  } catch (const ProgramError& e) {
    if (!e.confirmed) throw;
    tree_ = tree;
    depth_ = depth;
    method_stack_.resize(methods);
    yield_handlers_.resize(yields);
    model_callers_.resize(callers);
    if (hooks_.in_kernel && hooks_.in_kernel())
      unsupported(n.span,
                  "a try statement catching an exception raised inside a kernel launch "
                  "(keq cannot undo the launch's stores): " +
                      std::string(e.what()));
    NodeId h = kNoNode;
    for (NodeId c : handlers)
      if (handler_matches(c, e, env)) {
        h = c;
        break;
      }
    if (h == kNoNode) {
      run_finally(Flow::Normal);
      throw;
    }
    if (!node(h).text.empty()) env->vars[node(h).text] = exception_value(e);
    handling_.push_back(std::current_exception());
    struct Pop {
      std::vector<std::exception_ptr>& v;
      ~Pop() { v.pop_back(); }
    } pop{handling_};
    return run_finally(exec_block(node(h).kids[1], env));
  }
  if (flow == Flow::Normal && else_block != kNoNode) flow = exec_block(else_block, env);
  return run_finally(flow);
}

// A with statement over keq's inert contexts (torch.cuda.device() and kin: Module "context:...")
// or a @contextmanager function's call: its body runs up to `yield`, which runs the with
// statement's body (bound to the yielded value), then the rest of it.
Interp::Flow Interp::exec_with(const Node& n, const std::shared_ptr<Env>& env) {
  std::function<Flow(size_t)> enter = [&](size_t k) -> Flow {
    if (k + 1 == n.kids.size()) return exec_block(n.kids.back(), env);
    const Node& item = node(n.kids[k]);
    Ref ctx = eval(item.kids[0], env);
    if (ctx->kind == K::Module && ctx->s == "context:generator") {
      bool entered = false;
      Flow body = Flow::Normal;
      Ref returned;
      const Tree* with_tree = tree_;  // the body runs in its own file, inside the generator's
      yield_handlers_.push_back([&, with_tree](const Ref& yielded) {
        const Tree* generator_tree = tree_;
        tree_ = with_tree;
        entered = true;
        if (item.kids[1] != kNoNode) assign(item.kids[1], yielded, env);
        body = enter(k + 1);
        returned = return_value_;
        tree_ = generator_tree;
      });
      CallArgs a;
      a.at = item.span;
      a.pos = ctx->items[1]->items;
      for (const auto& [key, v] : ctx->items[2]->dict) a.kw.push_back({key->s, v});
      // Its body yields to the with statement, not to a list: the first generator call under
      // this one takes the flag (a decorator's wrapper may come first); a call that raises
      // before any leaves it set, so it is cleared here whatever happens.
      contextmanager_call_ = true;
      struct Flag {
        bool& on;
        ~Flag() { on = false; }
      } flag{contextmanager_call_};
      call(ctx->items[0], a);
      if (!entered) {
        yield_handlers_.pop_back();
        raise(item.span, "RuntimeError: generator didn't yield");
      }
      if (returned) return_value_ = returned;
      return body;
    }
    if (ctx->kind == K::Instance) {  // a class with __enter__ and __exit__ (a lock, a timer)
      CallArgs none_args;
      none_args.at = item.span;
      Ref entered = call(getattr(ctx, "__enter__", item.span), none_args);
      if (item.kids[1] != kNoNode) assign(item.kids[1], entered, env);
      CallArgs exit_args = none_args;
      exit_args.pos = {none(), none(), none()};
      Flow body;
      try {
        body = enter(k + 1);
      } catch (const ProgramError&) {  // __exit__ runs, told nothing: it cannot swallow it
        call(getattr(ctx, "__exit__", item.span), exit_args);
        throw;
      }
      // A `return` in the body keeps its value: __exit__'s own return must not replace it.
      Ref returned = return_value_;
      call(getattr(ctx, "__exit__", item.span), exit_args);
      return_value_ = returned;
      return body;
    }
    if (ctx->kind != K::Module || ctx->s.rfind("context:", 0) != 0)
      unsupported(item.span, "a with statement over " + ctx->type_name() +
                                 " (modelled: torch.no_grad() and kin, @contextmanager, "
                                 "objects with __enter__ and __exit__)");
    if (item.kids[1] != kNoNode) assign(item.kids[1], none(), env);
    return enter(k + 1);
  };
  return enter(0);
}

Ref Interp::eval_yield(const Node& n, const std::shared_ptr<Env>& env) {
  Ref v = n.kids[0] == kNoNode ? none() : eval(n.kids[0], env);
  if (yield_handlers_.empty())
    unsupported(n.span,
                "a yield outside a generator keq runs (a def called as a function, or a "
                "@contextmanager's body)");
  // `yield from`: each item in turn (a generator's collector takes them all; a
  // @contextmanager's body yields once).
  std::vector<Ref> items = n.flags == 1 ? to_sequence(v, n.span) : std::vector<Ref>{v};
  for (const Ref& item : items) {
    if (yield_handlers_.empty()) unsupported(n.span, "`yield from` in a @contextmanager's body");
    auto handler = std::move(yield_handlers_.back());
    yield_handlers_.pop_back();
    handler(item);
  }
  return none();  // what send() passes in: keq models no send()
}

// A generator function's call, run to its end at once: the values its body yields become an
// iterator. CPython runs the body lazily, a step for each value taken; the two agree where the
// body ends without raising and the consumer changes nothing the body reads (a helper yielding
// autotune configs, taken whole by list() or a for loop). A body that raises is UNSUPPORTED: a
// consumer that stops early might never reach that point.
Ref Interp::run_generator(const Node& def, const std::shared_ptr<Env>& env, Span at) {
  constexpr size_t kMaxYielded = 1'000'000;
  std::vector<Ref> yielded;
  std::function<void(const Ref&)> collect = [&](const Ref& v) {
    if (yielded.size() >= kMaxYielded)
      unsupported(at, "a generator yielding more than 1,000,000 values (keq runs it at the call)");
    yielded.push_back(v);
    yield_handlers_.push_back(collect);  // each yield takes a handler: the next yield's
  };
  const size_t handlers = yield_handlers_.size();
  yield_handlers_.push_back(collect);
  return_value_ = none();
  try {
    exec_block(def.kids[3], env);
  } catch (const ProgramError& e) {
    yield_handlers_.resize(handlers);
    if (!e.confirmed) throw;
    unsupported(at, std::string("a generator whose body raises (keq runs it to its end at the "
                                "call, where a consumer might stop before): ") +
                        e.what());
  }
  yield_handlers_.resize(handlers);
  Ref it = iterator(std::move(yielded));
  it->i = 1;  // run at the call: next() that leaves values is UNSUPPORTED (builtins.cc)
  return it;
}

}  // namespace keq::python
