#include "frontends/python/lexer.h"

#include <cctype>
#include <cstring>

#include "ir/sexp.h"

namespace keq::python {
namespace {

bool is_name_start(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || (c & 0x80);
}
bool is_name_char(char c) {
  return is_name_start(c) || std::isdigit(static_cast<unsigned char>(c));
}

// Three-, two- and one-character operators and delimiters, longest first.
constexpr std::string_view kOps[] = {
    "**=", "//=", ">>=", "<<=", "...", "->", ":=", "**", "//", "<<", ">>", "<=",
    ">=",  "==",  "!=",  "+=",  "-=",  "*=", "/=", "%=", "&=", "|=", "^=", "@=",
    "+",   "-",   "*",   "/",   "%",   "@",  "<",  ">",  "=",  "&",  "|",  "^",
    "~",   "(",   ")",   "[",   "]",   "{",  "}",  ",",  ":",  ".",  ";"};

// CPython's tokenizer limits (MAXLEVEL, MAXINDENT): past them it raises SyntaxError.
constexpr int kMaxParenDepth = 200;
constexpr size_t kMaxIndentDepth = 100;

class Lexer {
 public:
  Lexer(std::string_view src, const std::string& file) : s_(src), file_(file) {}

  std::vector<Token> run() {
    indents_.push_back(0);
    alt_indents_.push_back(0);
    bool at_line_start = true;
    while (i_ < s_.size()) {
      if (at_line_start) {
        // Inside brackets a new line continues the logical line: no indentation to measure.
        if (depth_ == 0 && !indentation()) continue;  // a blank or comment-only line
        at_line_start = false;
      }
      char c = s_[i_];
      if (c == '\n') {
        if (depth_ == 0) push(TokKind::Newline, "\n", here(), 1);
        advance();
        at_line_start = true;
      } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f') {
        advance();
      } else if (c == '#') {
        while (i_ < s_.size() && s_[i_] != '\n') advance();
      } else if (c == '\\') {
        Span at = here();
        advance();
        if (i_ < s_.size() && s_[i_] == '\r') advance();
        if (i_ >= s_.size() || s_[i_] != '\n')
          fail(at, "a backslash continues a line only at its end");
        advance();  // the next line continues this one: no NEWLINE, no indentation
      } else if (std::isdigit(static_cast<unsigned char>(c)) ||
                 (c == '.' && i_ + 1 < s_.size() &&
                  std::isdigit(static_cast<unsigned char>(s_[i_ + 1])))) {
        number();
      } else if (is_name_start(c)) {
        name_or_string();
      } else if (c == '"' || c == '\'') {
        string("");
      } else {
        op();
      }
    }
    Span end = here();
    if (depth_ > 0)  // CPython's words, at the bracket
      fail(open_.back(), std::string("'") + s_[open_pos_.back()] + "' was never closed");
    if (!toks_.empty() && toks_.back().kind != TokKind::Newline &&
        toks_.back().kind != TokKind::Dedent)
      push(TokKind::Newline, "\n", end, 0);
    while (indents_.size() > 1) {
      indents_.pop_back();
      push(TokKind::Dedent, "", end, 0);
    }
    push(TokKind::End, "", end, 0);
    return std::move(toks_);
  }

 private:
  Span here() const { return Span{line_, col_, line_, col_}; }
  void advance() {
    if (s_[i_] == '\n') {
      ++line_;
      col_ = 1;
    } else {
      ++col_;
    }
    ++i_;
  }
  [[noreturn]] void fail(const Span& at, const std::string& what) const {
    throw ir::SyntaxError(ir::SourcePos{file_, static_cast<int>(at.line), static_cast<int>(at.col)},
                          what);
  }
  void push(TokKind k, std::string text, Span start, size_t width) {
    start.end_line = line_;
    start.end_col = start.col + static_cast<uint32_t>(width);
    if (k == TokKind::String) start.end_col = col_;
    toks_.push_back(Token{k, std::move(text), "", "", start});
  }

  // Measures the indentation of a logical line; returns false for blank or comment-only lines.
  // As CPython's tokenizer: widths with tabs to multiples of 8 and with tabs as 1 column must
  // order lines the same way, else the indentation is ambiguous (TabError).
  bool indentation() {
    size_t width = 0, alt = 0;
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\t' || s_[i_] == '\f')) {
      width = s_[i_] == '\t' ? (width / 8 + 1) * 8 : s_[i_] == '\f' ? 0 : width + 1;
      alt = s_[i_] == '\f' ? 0 : alt + 1;
      advance();
    }
    if (i_ >= s_.size()) return false;
    if (s_[i_] == '\n' || s_[i_] == '#' || s_[i_] == '\r') {
      while (i_ < s_.size() && s_[i_] != '\n') advance();
      if (i_ < s_.size()) advance();
      return false;
    }
    Span at = here();
    const char* tab_error = "TabError: inconsistent use of tabs and spaces in indentation";
    if (width > indents_.back()) {
      if (alt <= alt_indents_.back()) fail(at, tab_error);
      if (indents_.size() > kMaxIndentDepth) fail(at, "too many levels of indentation");
      indents_.push_back(width);
      alt_indents_.push_back(alt);
      push(TokKind::Indent, "", at, 0);  // errors about it point at the first character
    } else {
      while (width < indents_.back()) {
        indents_.pop_back();
        alt_indents_.pop_back();
        push(TokKind::Dedent, "", at, 0);
      }
      if (width != indents_.back()) fail(at, "unindent does not match any outer indentation level");
      if (alt != alt_indents_.back()) fail(at, tab_error);
    }
    return true;
  }

  void number() {
    Span at = here();
    size_t b = i_;
    auto digits = [&](auto ok) {
      while (i_ < s_.size() && (ok(s_[i_]) || s_[i_] == '_')) advance();
    };
    auto dec = [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; };
    if (s_[i_] == '0' && i_ + 1 < s_.size() && std::strchr("xXoObB", s_[i_ + 1])) {
      advance(), advance();
      digits([](char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; });
    } else {
      digits(dec);
      if (i_ < s_.size() && s_[i_] == '.') advance(), digits(dec);
      if (i_ < s_.size() && (s_[i_] == 'e' || s_[i_] == 'E')) {
        advance();
        if (i_ < s_.size() && (s_[i_] == '+' || s_[i_] == '-')) advance();
        if (i_ >= s_.size() || !dec(s_[i_])) fail(at, "malformed number: expected exponent digits");
        digits(dec);
      }
    }
    if (i_ < s_.size() && (s_[i_] == 'j' || s_[i_] == 'J'))
      fail(at, "complex literals are not supported");
    if (i_ < s_.size() && is_name_char(s_[i_])) fail(at, "malformed number");
    std::string text(s_.substr(b, i_ - b));
    push(TokKind::Number, text, at, text.size());
  }

  void name_or_string() {
    Span at = here();
    size_t b = i_;
    while (i_ < s_.size() && is_name_char(s_[i_])) advance();
    std::string word(s_.substr(b, i_ - b));
    if (i_ < s_.size() && (s_[i_] == '"' || s_[i_] == '\'') && word.size() <= 2) {
      std::string lower;
      for (char c : word) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      bool ok = true;
      for (char c : lower) ok = ok && std::strchr("rbuf", c);
      if (ok) {
        i_ = b, line_ = at.line, col_ = at.col;  // rewind: string() reads prefix and body
        for (size_t k = 0; k < word.size(); ++k) advance();
        string(lower, at);
        return;
      }
    }
    push(TokKind::Name, word, at, word.size());
  }

  void string(const std::string& prefix) { string(prefix, here()); }
  void string(const std::string& prefix, Span at) {
    char q = s_[i_];
    bool triple = i_ + 2 < s_.size() && s_[i_ + 1] == q && s_[i_ + 2] == q;
    size_t quote_len = triple ? 3 : 1;
    for (size_t k = 0; k < quote_len; ++k) advance();
    bool raw_mode = prefix.find('r') != std::string::npos;
    std::string value, raw;
    while (true) {
      if (i_ >= s_.size())
        fail(at, triple ? "unterminated triple-quoted string" : "unterminated string");
      char c = s_[i_];
      if (c == q && (!triple || (i_ + 2 < s_.size() && s_[i_ + 1] == q && s_[i_ + 2] == q))) {
        for (size_t k = 0; k < quote_len; ++k) advance();
        break;
      }
      if (c == '\n' && !triple)
        fail(at, "unterminated string: expected a closing quote on this line");
      if (c == '\\' && i_ + 1 < s_.size()) {
        raw += c;
        advance();
        char e = s_[i_];
        raw += e;
        advance();
        if (raw_mode) {
          value += '\\';
          value += e;
          continue;
        }
        switch (e) {
          case 'n':
            value += '\n';
            break;
          case 't':
            value += '\t';
            break;
          case 'r':
            value += '\r';
            break;
          case '0':
            value += '\0';
            break;
          case '\\':
            value += '\\';
            break;
          case '\'':
            value += '\'';
            break;
          case '"':
            value += '"';
            break;
          case '\n':
            break;     // line continuation inside a string
          case 'x': {  // exactly two hex digits, as CPython requires; the code point in UTF-8
            unsigned code = 0;
            for (int k = 0; k < 2; ++k) {
              if (i_ >= s_.size() || !std::isxdigit(static_cast<unsigned char>(s_[i_])))
                fail(at, "(unicode error) truncated \\xXX escape");
              char h = s_[i_];
              code = code * 16 + static_cast<unsigned>(std::isdigit(static_cast<unsigned char>(h))
                                                           ? h - '0'
                                                           : std::tolower(h) - 'a' + 10);
              raw += h, advance();
            }
            if (code < 0x80) {
              value += static_cast<char>(code);
            } else {
              value += static_cast<char>(0xC0 | (code >> 6));
              value += static_cast<char>(0x80 | (code & 0x3F));
            }
            break;
          }
          default:
            value += '\\', value += e;
            break;  // unknown escapes stay as written
        }
        continue;
      }
      value += c;
      raw += c;
      advance();
    }
    Token t{TokKind::String, value, prefix, raw, at};
    t.span.end_line = line_;
    t.span.end_col = col_;
    toks_.push_back(std::move(t));
  }

  void op() {
    Span at = here();
    for (std::string_view o : kOps) {
      if (s_.substr(i_, o.size()) != o) continue;
      if (o == "(" || o == "[" || o == "{") {
        if (++depth_ > kMaxParenDepth) fail(at, "too many nested parentheses");
        open_.push_back(at);
        open_pos_.push_back(i_);
      } else if (o == ")" || o == "]" || o == "}") {
        if (depth_ == 0) fail(at, "unmatched '" + std::string(o) + "'");
        char want = s_[open_pos_.back()] == '(' ? ')' : s_[open_pos_.back()] == '[' ? ']' : '}';
        if (o[0] != want)
          fail(at, "closing '" + std::string(o) + "' does not match '" + s_[open_pos_.back()] +
                       "' at line " + std::to_string(open_.back().line));
        --depth_;
        open_.pop_back();
        open_pos_.pop_back();
      }
      for (size_t k = 0; k < o.size(); ++k) advance();
      push(TokKind::Op, std::string(o), at, o.size());
      return;
    }
    fail(at, std::string("unexpected character '") + s_[i_] + "'");
  }

  std::string_view s_;
  std::string file_;
  size_t i_ = 0;
  uint32_t line_ = 1, col_ = 1;
  int depth_ = 0;
  std::vector<Span> open_;
  std::vector<size_t> open_pos_;
  std::vector<size_t> indents_, alt_indents_;
  std::vector<Token> toks_;
};

}  // namespace

std::vector<Token> tokenize(std::string_view src, const std::string& file) {
  return Lexer(src, file).run();
}

}  // namespace keq::python
