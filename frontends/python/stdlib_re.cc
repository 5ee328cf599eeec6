// re as libraries run it at import (unsloth_zoo's and torchao's version checks): a pattern is
// translated to the ECMAScript grammar std::regex implements, where the two agree on ASCII text;
// what they might not agree on (lookbehind, back references, verbose patterns, \A under
// MULTILINE, `$` before a trailing newline, text with non-ASCII or \r characters, empty matches
// in a scan) is UNSUPPORTED, never guessed. The Pattern and Match classes are Python (kRe) over
// one C++ helper that returns group spans.
#include <algorithm>
#include <map>
#include <regex>

#include "frontends/python/interp.h"

namespace keq::python {
namespace {
using K = Value::Kind;

constexpr int64_t kIgnoreCase = 2, kMultiline = 8, kDotAll = 16, kVerbose = 64;

constexpr const char* kRe = R"PY(
from _keq_re import spans, group_names, unsupported

NOFLAG = 0
I = IGNORECASE = 2
L = LOCALE = 4
M = MULTILINE = 8
S = DOTALL = 16
U = UNICODE = 32
X = VERBOSE = 64
A = ASCII = 256


class error(Exception):
    pass


class Match:
    def __init__(self, pattern, string, group_spans):
        self.re = pattern
        self.string = string
        self.pos = 0
        self._spans = group_spans

    def _index(self, g):
        if isinstance(g, str):
            if g not in self.re.groupindex:
                raise IndexError("no such group")
            return self.re.groupindex[g]
        if g < 0 or g >= len(self._spans):
            raise IndexError("no such group")
        return g

    def span(self, group=0):
        return self._spans[self._index(group)]

    def start(self, group=0):
        return self.span(group)[0]

    def end(self, group=0):
        return self.span(group)[1]

    def _get(self, group, default=None):
        s, e = self.span(group)
        return default if s < 0 else self.string[s:e]

    def group(self, *groups):
        if not groups:
            return self._get(0)
        if len(groups) == 1:
            return self._get(groups[0])
        return tuple(self._get(g) for g in groups)

    def __getitem__(self, group):
        return self._get(group)

    def groups(self, default=None):
        return tuple(self._get(k, default) for k in range(1, len(self._spans)))

    def groupdict(self, default=None):
        return {name: self._get(k, default) for name, k in self.re.groupindex.items()}


class Pattern:
    def __init__(self, pattern, flags):
        if not isinstance(pattern, str):
            unsupported("re with a bytes pattern")
        self.pattern = pattern
        self.flags = flags
        self.groupindex, self.groups = group_names(pattern, flags)

    def _one(self, mode, string, pos):
        found = spans(self.pattern, self.flags, string, pos, mode)
        return None if not found else Match(self, string, found[0])

    def match(self, string, pos=0):
        return self._one("match", string, pos)

    def search(self, string, pos=0):
        return self._one("search", string, pos)

    def fullmatch(self, string, pos=0):
        return self._one("fullmatch", string, pos)

    def finditer(self, string):
        return [Match(self, string, s) for s in spans(self.pattern, self.flags, string, 0, "all")]

    def findall(self, string):
        out = []
        for m in self.finditer(string):
            if self.groups == 0:
                out.append(m.group(0))
            elif self.groups == 1:
                out.append(m._get(1, ""))
            else:
                out.append(m.groups(""))
        return out

    def subn(self, repl, string, count=0):
        out = []
        last = 0
        n = 0
        for m in self.finditer(string):
            if count and n >= count:
                break
            out.append(string[last:m.start()])
            out.append(repl(m) if callable(repl) else _expand(m, repl))
            last = m.end()
            n += 1
        out.append(string[last:])
        return "".join(out), n

    def sub(self, repl, string, count=0):
        return self.subn(repl, string, count)[0]

    def split(self, string, maxsplit=0):
        out = []
        last = 0
        n = 0
        for m in self.finditer(string):
            if maxsplit and n >= maxsplit:
                break
            out.append(string[last:m.start()])
            out.extend(m.groups())
            last = m.end()
            n += 1
        out.append(string[last:])
        return out


_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "\\": "\\", "f": "\f", "v": "\v", "a": "\a"}


def _expand(m, template):
    out = []
    k = 0
    while k < len(template):
        c = template[k]
        if c != "\\":
            out.append(c)
            k += 1
            continue
        if k + 1 >= len(template):
            raise error("bad escape (end of pattern)")
        d = template[k + 1]
        if d == "g":
            close = template.find(">", k)
            if k + 2 >= len(template) or template[k + 2] != "<" or close < 0:
                raise error("missing <")
            name = template[k + 3:close]
            out.append(m._get(int(name) if name.isdigit() else name, ""))
            k = close + 1
        elif d.isdigit():
            j = k + 1
            while j < len(template) and j < k + 3 and template[j].isdigit():
                j += 1
            out.append(m._get(int(template[k + 1:j]), ""))
            k = j
        elif d in _ESCAPES:
            out.append(_ESCAPES[d])
            k += 2
        elif d.isalpha():
            raise error("bad escape \\" + d)
        else:
            out.append("\\" + d)
            k += 2
    return "".join(out)


def compile(pattern, flags=0):
    if isinstance(pattern, Pattern):
        return pattern
    return Pattern(pattern, int(flags))


def match(pattern, string, flags=0):
    return compile(pattern, flags).match(string)


def search(pattern, string, flags=0):
    return compile(pattern, flags).search(string)


def fullmatch(pattern, string, flags=0):
    return compile(pattern, flags).fullmatch(string)


def findall(pattern, string, flags=0):
    return compile(pattern, flags).findall(string)


def finditer(pattern, string, flags=0):
    return compile(pattern, flags).finditer(string)


def sub(pattern, repl, string, count=0, flags=0):
    return compile(pattern, flags).sub(repl, string, count)


def subn(pattern, repl, string, count=0, flags=0):
    return compile(pattern, flags).subn(repl, string, count)


def split(pattern, string, maxsplit=0, flags=0):
    return compile(pattern, flags).split(string, maxsplit)


_SPECIAL = "()[]{}?*+-|^$\\.&~# \t\n\r\v\f"


def escape(pattern):
    return "".join("\\" + c if c in _SPECIAL else c for c in pattern)
)PY";

// A Python pattern in ECMAScript's grammar, with its named groups' numbers and its group count.
struct Translated {
  std::string ecma;
  std::vector<std::pair<std::string, int64_t>> names;  // in the pattern's order
  int64_t groups = 0;
  bool dollar = false;  // an unescaped `$`: Python's also matches before a final newline
};

Translated translate(Interp& in, const std::string& p, int64_t flags, Span at) {
  auto gap = [&](const std::string& what) { in.unsupported(at, "re: " + what + " in " + p); };
  if (flags & kVerbose) gap("a VERBOSE pattern");
  Translated t;
  bool in_class = false;
  for (size_t k = 0; k < p.size(); ++k) {
    char c = p[k];
    if (static_cast<unsigned char>(c) >= 0x80) gap("a non-ASCII pattern");
    if (c == '\\' && k + 1 < p.size()) {
      char d = p[++k];
      // ECMAScript matches a group that did not take part as empty; Python fails the match.
      if (!in_class && d >= '1' && d <= '9') gap("a back reference");
      if (!in_class && (d == 'A' || d == 'Z')) {
        if (flags & kMultiline) gap("\\A or \\Z under MULTILINE");
        t.ecma += d == 'A' ? "^" : "$";
      } else {
        t.ecma += std::string("\\") + d;
      }
      continue;
    }
    if (in_class) {
      bool first = t.ecma.back() == '[' ||
                   (t.ecma.size() >= 2 && t.ecma.compare(t.ecma.size() - 2, 2, "[^") == 0);
      if (c == ']' && !first) in_class = false;
      t.ecma += c == ']' && first ? "\\]" : std::string(1, c);  // first in a class: a member
      continue;
    }
    if (c == '[') in_class = true;
    if (c == '$') t.dollar = true;
    if (c == '.' && (flags & kDotAll)) {
      t.ecma += "[\\s\\S]";
      continue;
    }
    if (c != '(') {
      t.ecma += c;
      continue;
    }
    if (k + 1 >= p.size() || p[k + 1] != '?') {  // a plain capturing group
      ++t.groups;
      t.ecma += c;
      continue;
    }
    std::string rest = p.substr(k + 1);
    if (rest.rfind("?P<", 0) == 0) {
      size_t close = p.find('>', k);
      if (close == std::string::npos) gap("an unterminated group name");
      t.names.push_back({p.substr(k + 4, close - k - 4), ++t.groups});
      t.ecma += "(";
      k = close;
    } else if (rest.rfind("?#", 0) == 0) {
      size_t close = p.find(')', k);
      if (close == std::string::npos) gap("an unterminated comment");
      k = close;
    } else if (rest.rfind("?:", 0) == 0 || rest.rfind("?=", 0) == 0 || rest.rfind("?!", 0) == 0) {
      t.ecma += "(";
    } else {
      gap("the group (" + rest.substr(0, 3) + "...)");
    }
  }
  return t;
}

const std::regex& compiled(Interp& in, const std::string& ecma, int64_t flags, Span at) {
  static std::map<std::pair<std::string, int64_t>, std::regex> cache;
  auto key = std::make_pair(ecma, flags);
  if (auto it = cache.find(key); it != cache.end()) return it->second;
  auto options = std::regex::ECMAScript;
  if (flags & kIgnoreCase) options |= std::regex::icase;
  if (flags & kMultiline) options |= std::regex::multiline;
  try {
    return cache.emplace(key, std::regex(ecma, options)).first->second;
  } catch (const std::regex_error&) {
    in.unsupported(at, "re: a pattern keq cannot translate (" + ecma + ")");
  }
}

std::string str_arg(Interp& in, CallArgs& a, size_t k, const char* what) {
  Ref v = a.pos.size() > k ? a.pos[k] : nullptr;
  if (!v || v->kind != K::Str)
    in.raise_exception(a.at, "TypeError", std::string("re: ") + what + " must be a str");
  return v->s;
}

// spans(pattern, flags, string, pos, mode): for mode "match", "search" or "fullmatch" a list of
// the one match's group spans (empty: no match); for "all", every match's, left to right.
Ref spans(Interp& in, CallArgs& a) {
  std::string pattern = str_arg(in, a, 0, "pattern"), text = str_arg(in, a, 2, "string"),
              mode = str_arg(in, a, 4, "mode");
  int64_t flags = in.to_int(a.pos.at(1), a.at), pos = in.to_int(a.pos.at(3), a.at);
  // ECMAScript ends lines at \r too (., ^ and $ under MULTILINE), and Python's \s takes
  // \x1c-\x1f: text with those, like non-ASCII text, is left unmodelled.
  for (char c : text)
    if (static_cast<unsigned char>(c) >= 0x80 || c == '\r' || (c >= 0x1c && c <= 0x1f))
      in.unsupported(a.at, "re on text with non-ASCII, \\r or \\x1c-\\x1f characters");
  Translated t = translate(in, pattern, flags, a.at);
  if (t.dollar && !text.empty() && text.back() == '\n')
    in.unsupported(a.at, "re: `$` where the text ends in a newline (Python matches before it)");
  const std::regex& re = compiled(in, t.ecma, flags, a.at);
  pos = std::clamp<int64_t>(pos, 0, static_cast<int64_t>(text.size()));
  auto one = [&](const std::smatch& m, size_t offset) {
    std::vector<Ref> groups;
    for (size_t g = 0; g < m.size(); ++g) {
      int64_t s = m[g].matched ? static_cast<int64_t>(offset + m.position(g)) : -1;
      int64_t e = m[g].matched ? s + static_cast<int64_t>(m.length(g)) : -1;
      groups.push_back(tuple({integer(s), integer(e)}));
    }
    return tuple(groups);
  };
  std::vector<Ref> out;
  std::smatch m;
  auto begin = text.cbegin() + pos;
  // From pos, the text before it still counts for ^ and \b, as in Python.
  auto from =
      pos > 0 ? std::regex_constants::match_prev_avail : std::regex_constants::match_default;
  if (mode == "fullmatch") {
    if (std::regex_match(begin, text.cend(), m, re, from)) out.push_back(one(m, pos));
  } else if (mode == "match") {
    if (std::regex_search(begin, text.cend(), m, re, from | std::regex_constants::match_continuous))
      out.push_back(one(m, pos));
  } else if (mode == "search") {
    if (std::regex_search(begin, text.cend(), m, re, from)) out.push_back(one(m, pos));
  } else {
    for (std::sregex_iterator it(text.cbegin(), text.cend(), re), end; it != end; ++it) {
      if (it->length(0) == 0)
        in.unsupported(a.at, "re: an empty match in a scan (Python's rules for them differ)");
      out.push_back(one(*it, 0));
    }
  }
  return list(out);
}

}  // namespace

void install_re(Interp& in) {
  Ref m = module_object("_keq_re");
  (*m->attrs)["spans"] = builtin("re", spans);
  (*m->attrs)["group_names"] = builtin("re.compile", [](Interp& i2, CallArgs& a) {
    Translated t = translate(i2, str_arg(i2, a, 0, "pattern"), i2.to_int(a.pos.at(1), a.at), a.at);
    auto names = std::make_shared<Value>();
    names->kind = K::Dict;
    for (const auto& [name, index] : t.names) names->dict.push_back({string(name), integer(index)});
    return tuple({names, integer(t.groups)});
  });
  (*m->attrs)["unsupported"] = builtin("re", [](Interp& i2, CallArgs& a) -> Ref {
    i2.unsupported(a.at, a.pos.empty() ? std::string("re") : a.pos[0]->s);
  });
  in.register_module("_keq_re", m);
  in.register_model_source("re", kRe);
}

}  // namespace keq::python
