// The Python subset keq reads: an AST in an arena, every node with its source span.
//
// A node is (kind, span, text, text2, flags, kids). What `text` and `kids` hold depends on the
// kind and is listed below; an absent optional child is kNoNode. Statement bodies are Block
// nodes. The interpreter walks this tree; nothing here runs Python.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace keq::python {

// Markers in an f-string node's template: a replacement field starts, and ends.
inline constexpr char kFieldStart = '\x01';
inline constexpr char kFieldEnd = '\x02';

using NodeId = uint32_t;
inline constexpr NodeId kNoNode = UINT32_MAX;

struct Span {
  uint32_t line = 0, col = 0;          // 1-based start
  uint32_t end_line = 0, end_col = 0;  // 1-based, exclusive end column
};

// clang-format off
#define KEQ_PY_NODES(X)                                                                        \
  /* expressions */                                                                           \
  X(Name)          /* text: identifier */                                                     \
  X(Int)           /* text: literal as written */                                             \
  X(Float)         /* text: literal as written */                                             \
  X(Str)           /* text: decoded value (adjacent literals joined) */                       \
  X(FStr)          /* text: a template (parser_strings.cc, fstring_template); kids: its fields */              \
  X(Bytes)         /* text: decoded value */                                                  \
  X(True) X(False) X(None) X(Ellipsis)                                                        \
  X(BinOp)         /* text: operator; kids: left, right */                                    \
  X(UnaryOp)       /* text: - + ~ not; kids: operand */                                       \
  X(BoolOp)        /* text: and | or; kids: operands (2 or more) */                           \
  X(Compare)       /* text: operators joined by ',' (e.g. "<,<="); kids: left, rights... */   \
  X(Call)          /* kids: function, arguments (exprs, Starred, Keyword, DoubleStarred) */   \
  X(Keyword)       /* text: name; kids: value */                                              \
  X(Starred)       /* kids: value (*x) */                                                     \
  X(DoubleStarred) /* kids: value (**x) */                                                    \
  X(Attribute)     /* text: attribute; kids: value */                                         \
  X(Subscript)     /* kids: value, index (an expr, Slice, or Tuple of them) */                \
  X(Slice)         /* kids: lower, upper, step (each optional) */                             \
  X(Tuple) X(List) X(Set) /* kids: elements */                                                \
  X(Dict)          /* kids: key0, value0, key1, ... (key kNoNode for **mapping) */            \
  X(Lambda)        /* kids: Param..., body */                                                 \
  X(IfExp)         /* kids: body, test, orelse */                                             \
  X(NamedExpr)     /* kids: the name, the value (x := v) */                                   \
  X(ListComp) X(SetComp) X(GenExp) /* kids: element, Comprehension... */                      \
  X(DictComp)      /* kids: key, value, Comprehension... */                                   \
  X(Comprehension) /* kids: target, iterable, conditions... */                                \
  X(Yield)         /* kids: value (optional); flags: 1 `yield from`; a generator's yield      */  \
  /* statements */                                                                            \
  X(Module)        /* kids: statements */                                                     \
  X(Block)         /* kids: statements; text2: "else" / "finally" where it is one */         \
  X(ExprStmt)      /* kids: expr */                                                           \
  X(Assign)        /* kids: targets..., value */                                              \
  X(AugAssign)     /* text: operator without '='; kids: target, value */                      \
  X(AnnAssign)     /* kids: target, annotation, value (optional) */                           \
  X(Return)        /* kids: value (optional) */                                               \
  X(If)            /* kids: test, body, orelse (Block, If for elif, or kNoNode) */            \
  X(For)           /* kids: target, iterable, body, orelse (optional) */                      \
  X(While)         /* kids: test, body, orelse (optional) */                                  \
  X(Break) X(Continue) X(Pass)                                                                \
  X(Assert)        /* kids: test, message (optional) */                                       \
  X(Raise)         /* kids: exception (optional), cause (optional) */                         \
  X(Del)           /* kids: targets */                                                        \
  X(Global) X(Nonlocal) /* text: names joined by ',' */                                       \
  X(FunctionDef)   /* text: name; kids: decorators (Block of exprs), params (Block), returns  \
                      (optional), body */                                                     \
  X(Param)         /* text: name; flags: 0 plain, 1 *args, 2 **kwargs, 3 bare '*', 4 '/';    \
                      kids: annotation, default (each optional) */                            \
  X(ClassDef)      /* text: name; kids: decorators (Block), bases (Block), body */            \
  X(Import)        /* kids: Alias... */                                                       \
  X(ImportFrom)    /* text: module (leading dots kept); kids: Alias... ('*' as a name) */     \
  X(Alias)         /* text: dotted name; text2: as-name or empty */                           \
  X(With)          /* kids: WithItem..., body */                                              \
  X(WithItem)      /* kids: context, target (optional) */                                     \
  X(Try)           /* kids: body, ExceptHandler..., else Block?, finally Block? */            \
  X(ExceptHandler) /* text: bound name or empty; kids: type (optional), body */
// clang-format on

enum class NodeKind : uint8_t {
#define KEQ_PY_ENUM(k) k,
  KEQ_PY_NODES(KEQ_PY_ENUM)
#undef KEQ_PY_ENUM
};
std::string_view kind_name(NodeKind k);

struct Node {
  NodeKind kind;
  Span span;
  std::string text, text2;
  uint32_t flags = 0;
  std::vector<NodeId> kids;
};

// A parsed file: the arena and its root (a Module).
struct Tree {
  std::string file;
  std::vector<Node> nodes;
  NodeId root = kNoNode;
  const Node& at(NodeId id) const { return nodes[id]; }
  // An indented dump, one node per line with its span: for debugging and golden tests.
  std::string dump() const;
};

}  // namespace keq::python
