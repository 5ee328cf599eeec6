// Python's string formatting: f-string fields, format(), str.format and `%`, as CPython 3.11
// writes them. Host code builds import paths, cache keys and attribute names with f-strings,
// so their text is semantics, not decoration.
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

std::string format_float(double x, Spec s) {
  char type = s.type ? s.type : 0;
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

}  // namespace keq::python
