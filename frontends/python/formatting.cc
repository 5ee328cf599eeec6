// Python's string formatting: f-string fields, format(), str.format and `%`, as CPython 3.11
// writes them. Host code builds import paths, cache keys and attribute names with f-strings,
// so their text is semantics, not decoration.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "frontends/python/integers.h"
#include "frontends/python/interp.h"

namespace keq::python {
namespace {
using K = Value::Kind;

// A format spec, [[fill]align][sign][#][0][width][grouping][.precision][type].
struct Spec {
  char fill = ' ', align = 0, sign = '-', type = 0, grouping = 0;
  bool alternate = false, zero = false;
  int width = -1, precision = -1;
};

bool parse_spec(const std::string& text, Spec& s) {
  size_t k = 0;
  auto is_align = [](char c) { return c == '<' || c == '>' || c == '^' || c == '='; };
  if (text.size() >= 2 && is_align(text[1]))
    s.fill = text[0], s.align = text[1], k = 2;
  else if (!text.empty() && is_align(text[0]))
    s.align = text[0], k = 1;
  if (k < text.size() && (text[k] == '+' || text[k] == '-' || text[k] == ' ')) s.sign = text[k++];
  if (k < text.size() && text[k] == '#') s.alternate = true, ++k;
  if (k < text.size() && text[k] == '0') s.zero = true, ++k;
  auto digits = [&](int& out) {
    size_t start = k;
    while (k < text.size() && std::isdigit(static_cast<unsigned char>(text[k]))) ++k;
    if (k > start) out = std::stoi(text.substr(start, k - start));
    return k > start;
  };
  digits(s.width);
  if (k < text.size() && (text[k] == ',' || text[k] == '_')) s.grouping = text[k++];
  if (k < text.size() && text[k] == '.' && (++k, !digits(s.precision))) return false;
  if (k < text.size()) s.type = text[k++];
  return k == text.size();
}

std::string group_digits(const std::string& digits, char separator, size_t every) {
  std::string out;
  for (size_t k = 0; k < digits.size(); ++k) {
    if (k && (digits.size() - k) % every == 0) out += separator;
    out += digits[k];
  }
  return out;
}

// Pads `body` (after its sign and prefix, for '=' and zero padding) to the spec's width.
std::string pad(const std::string& sign, const std::string& body, const Spec& s,
                char default_align) {
  char align = s.align ? s.align : (s.zero ? '=' : default_align);
  char fill = s.align ? s.fill : (s.zero ? '0' : s.fill);
  int len = static_cast<int>(sign.size() + body.size());
  if (s.width <= len) return sign + body;
  std::string gap(static_cast<size_t>(s.width - len), fill);
  if (align == '<') return sign + body + gap;
  if (align == '>') return gap + sign + body;
  if (align == '=') return sign + gap + body;
  size_t left = gap.size() / 2;
  return gap.substr(0, left) + sign + body + gap.substr(left);
}

std::string sign_of(bool negative, const Spec& s) {
  return negative ? "-" : s.sign == '+' ? "+" : s.sign == ' ' ? " " : "";
}

std::string format_float(double x, const Spec& s) {
  char type = s.type;
  bool negative = std::signbit(x) && !std::isnan(x);
  double a = std::fabs(x);
  std::string body;
  if (std::isnan(a) || std::isinf(a)) {
    body = std::isnan(a) ? "nan" : "inf";
    if (type == 'F' || type == 'E' || type == 'G')
      for (char& c : body) c = static_cast<char>(std::toupper(c));
    if (type == '%') body += "%";
    return pad(sign_of(negative, s), body, s, '>');
  }
  char buf[512];
  if (type == '%') a *= 100;
  int precision = s.precision < 0 ? 6 : s.precision;
  char c = type == '%' ? 'f' : type == 'n' ? 'g' : type;
  if (type == 0 && s.precision < 0) {
    body = Interp::float_repr(a);
  } else if (type == 0) {  // like 'g', but fixed notation keeps a digit past the point
    std::snprintf(buf, sizeof buf, s.alternate ? "%#.*g" : "%.*g", std::max(precision, 1), a);
    body = buf;
    if (body.find_first_of(".e") == std::string::npos) body += ".0";
  } else {
    std::string fmt = std::string("%") + (s.alternate ? "#" : "") + ".*" + c;
    std::snprintf(buf, sizeof buf, fmt.c_str(), precision, a);
    body = buf;
  }
  if (type == '%') body += "%";
  if (s.grouping) {
    size_t end = body.find_first_not_of("0123456789");
    body = group_digits(body.substr(0, end), s.grouping, 3) +
           (end == std::string::npos ? "" : body.substr(end));
  }
  return pad(sign_of(negative, s), body, s, '>');
}

std::string format_int(Interp& in, const Ref& v, const Spec& s, Span at) {
  mpz_class z = as_mpz(v);
  bool negative = z < 0;
  z = abs(z);
  int base = 10;
  const char* prefix = "";
  switch (s.type) {
    case 0:
    case 'd':
    case 'n':
      break;
    case 'x':
    case 'X':
      base = 16, prefix = s.type == 'x' ? "0x" : "0X";
      break;
    case 'o':
      base = 8, prefix = "0o";
      break;
    case 'b':
      base = 2, prefix = "0b";
      break;
    case 'c':
      return pad("", std::string(1, static_cast<char>(z.get_si())), s, '<');
    default:
      in.raise_exception(
          at, "ValueError",
          std::string("Unknown format code '") + s.type + "' for object of type 'int'");
  }
  if (s.precision >= 0)
    in.raise_exception(at, "ValueError", "Precision not allowed in integer format specifier");
  std::string digits = z.get_str(base);
  if (s.type == 'X')
    for (char& c : digits) c = static_cast<char>(std::toupper(c));
  if (s.grouping) digits = group_digits(digits, s.grouping, base == 10 ? 3 : 4);
  return pad(sign_of(negative, s) + (s.alternate ? std::string(prefix) : std::string()), digits, s,
             '>');
}

}  // namespace

std::string Interp::quoted(const std::string& s) {
  char q = s.find('\'') != std::string::npos && s.find('"') == std::string::npos ? '"' : '\'';
  std::string out(1, q);
  for (char c : s) {
    if (c == '\\' || c == q)
      out += '\\', out += c;
    else if (c == '\n')
      out += "\\n";
    else if (c == '\t')
      out += "\\t";
    else if (c == '\r')
      out += "\\r";
    else
      out += c;
  }
  return out + q;
}

std::string Interp::format_field(const Ref& v, char conversion, const std::string& spec, Span at) {
  if (conversion == 'r' || conversion == 'a' || conversion == 's') {
    Ref text = string(conversion == 's' ? repr(v) : v->kind == K::Str ? quoted(v->s) : repr(v));
    return format_field(text, 0, spec, at);
  }
  if (spec.empty()) return repr(v);
  Spec s;
  if (!parse_spec(spec, s)) raise_exception(at, "ValueError", "Invalid format specifier");
  switch (v->kind) {
    case K::Str:
      if (s.type && s.type != 's')
        raise_exception(
            at, "ValueError",
            std::string("Unknown format code '") + s.type + "' for object of type 'str'");
      return pad("", s.precision >= 0 ? v->s.substr(0, static_cast<size_t>(s.precision)) : v->s, s,
                 '<');
    case K::Float:
      if (s.type && std::string("eEfFgGn%").find(s.type) == std::string::npos)
        raise_exception(
            at, "ValueError",
            std::string("Unknown format code '") + s.type + "' for object of type 'float'");
      return format_float(v->f, s);
    case K::Int:
    case K::Bool:
    case K::BigInt:
      if (s.type && std::string("eEfFgG%").find(s.type) != std::string::npos)
        return format_float(to_float(v, at), s);
      return format_int(*this, v, s, at);
    default:
      if (v->kind == K::Tensor) unsupported(at, "a format spec applied to a tensor");
      raise_exception(at, "TypeError",
                      "unsupported format string passed to " + v->type_name() + ".__format__");
  }
}

// str.format: {} and {0} positional, {name} keyword, then .attr and [index] steps, !conv, :spec.
std::string Interp::format_string(const std::string& tmpl, const std::vector<Ref>& pos,
                                  const std::vector<std::pair<std::string, Ref>>& kw, Span at) {
  std::string out;
  size_t next = 0;
  for (size_t k = 0; k < tmpl.size(); ++k) {
    char c = tmpl[k];
    if ((c == '{' || c == '}') && k + 1 < tmpl.size() && tmpl[k + 1] == c) {
      out += c, ++k;
      continue;
    }
    if (c == '}') raise_exception(at, "ValueError", "Single '}' encountered in format string");
    if (c != '{') {
      out += c;
      continue;
    }
    size_t end = tmpl.find('}', k);
    if (end == std::string::npos)
      raise_exception(at, "ValueError", "expected '}' before end of string");
    std::string field = tmpl.substr(k + 1, end - k - 1);
    if (field.find('{') != std::string::npos)
      unsupported(at, "a replacement field nested in a format spec");
    std::string spec;
    char conversion = 0;
    if (size_t colon = field.find(':'); colon != std::string::npos)
      spec = field.substr(colon + 1), field = field.substr(0, colon);
    if (size_t bang = field.find('!'); bang != std::string::npos) {
      if (bang + 2 != field.size() || std::string("rsa").find(field[bang + 1]) == std::string::npos)
        raise_exception(at, "ValueError", "invalid conversion in a format string");
      conversion = field[bang + 1], field = field.substr(0, bang);
    }
    size_t name_end = field.find_first_of(".[");
    std::string name = field.substr(0, name_end);
    Ref v;
    if (name.empty()) {
      if (next >= pos.size())
        raise_exception(at, "IndexError",
                        "Replacement index " + std::to_string(next) +
                            " out of range for positional args tuple");
      v = pos[next++];
    } else if (std::isdigit(static_cast<unsigned char>(name[0]))) {
      size_t i = std::stoul(name);
      if (i >= pos.size())
        raise_exception(at, "IndexError",
                        "Replacement index " + name + " out of range for positional args tuple");
      v = pos[i];
    } else {
      auto it = std::find_if(kw.begin(), kw.end(), [&](const auto& p) { return p.first == name; });
      if (it == kw.end()) raise_exception(at, "KeyError", quoted(name));
      v = it->second;
    }
    for (size_t p = name_end; p != std::string::npos && p < field.size();) {
      if (field[p] == '.') {
        size_t q = field.find_first_of(".[", p + 1);
        v = getattr(v, field.substr(p + 1, q == std::string::npos ? q : q - p - 1), at);
        p = q;
      } else {
        size_t q = field.find(']', p);
        std::string key = field.substr(p + 1, q - p - 1);
        bool number = !key.empty() && key.find_first_not_of("0123456789") == std::string::npos;
        v = eval_subscript(v, number ? integer(std::stoll(key)) : string(key), at);
        p = q == std::string::npos ? q : q + 1;
      }
    }
    out += format_field(v, conversion, spec, at);
    k = end;
  }
  return out;
}

// printf-style `template % values`: %s %r %d %i %x %X %o %e %f %g %c %%, with flags, width and
// precision, a tuple of values or one value, or %(name)s from a dict.
std::string Interp::percent_format(const std::string& tmpl, const Ref& values, Span at) {
  std::vector<Ref> items = values->kind == K::Tuple ? values->items : std::vector<Ref>{values};
  size_t next = 0;
  std::string out;
  for (size_t k = 0; k < tmpl.size(); ++k) {
    if (tmpl[k] != '%') {
      out += tmpl[k];
      continue;
    }
    if (++k >= tmpl.size()) raise_exception(at, "ValueError", "incomplete format");
    Ref v;
    if (tmpl[k] == '(') {
      size_t close = tmpl.find(')', k);
      if (close == std::string::npos || values->kind != K::Dict)
        raise_exception(at, "TypeError", "format requires a mapping");
      v = eval_subscript(values, string(tmpl.substr(k + 1, close - k - 1)), at);
      k = close + 1;
    }
    std::string flags;
    while (k < tmpl.size() && std::string("-+ #0").find(tmpl[k]) != std::string::npos)
      flags += tmpl[k++];
    std::string width, precision;
    while (k < tmpl.size() && std::isdigit(static_cast<unsigned char>(tmpl[k]))) width += tmpl[k++];
    if (k < tmpl.size() && tmpl[k] == '.') {
      precision = "0";
      while (++k < tmpl.size() && std::isdigit(static_cast<unsigned char>(tmpl[k])))
        precision += tmpl[k];
    }
    if (k >= tmpl.size()) raise_exception(at, "ValueError", "incomplete format");
    char type = tmpl[k];
    if (type == '%') {
      out += '%';
      continue;
    }
    if (!v) {
      if (next >= items.size())
        raise_exception(at, "TypeError", "not enough arguments for format string");
      v = items[next++];
    }
    // The same formatting as a format spec: '-' aligns left, '0' pads with zeros.
    std::string spec;
    if (flags.find('-') != std::string::npos)
      spec += '<';
    else if (type == 's' || type == 'r' || type == 'a')
      spec += '>';
    if (flags.find('+') != std::string::npos)
      spec += '+';
    else if (flags.find(' ') != std::string::npos)
      spec += ' ';
    if (flags.find('#') != std::string::npos) spec += '#';
    if (flags.find('0') != std::string::npos && flags.find('-') == std::string::npos) spec += '0';
    spec += width;
    if (!precision.empty() && std::string("eEfFgG").find(type) != std::string::npos)
      spec += "." + precision;
    switch (type) {
      case 's':
      case 'r':
      case 'a':
        out += format_field(v, type, spec, at);
        break;
      case 'd':
      case 'i':
      case 'u':
        if (v->kind == K::Float) v = integer(static_cast<int64_t>(std::trunc(v->f)));
        out += format_field(v, 0, spec + "d", at);
        break;
      case 'x':
      case 'X':
      case 'o':
      case 'e':
      case 'E':
      case 'f':
      case 'F':
      case 'g':
      case 'G':
      case 'c':
        out += format_field(v, 0, spec + type, at);
        break;
      default:
        raise_exception(at, "ValueError",
                        std::string("unsupported format character '") + type + "'");
    }
  }
  if (next < items.size() && values->kind == K::Tuple)
    raise_exception(at, "TypeError", "not all arguments converted during string formatting");
  return out;
}

}  // namespace keq::python
