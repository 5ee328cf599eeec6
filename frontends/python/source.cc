// Reading a source file as CPython 3.11 does before it tokenizes: a regular file of text, UTF-8
// unless a PEP 263 coding line says otherwise, and an AST the compiler can recurse over.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "frontends/python/python.h"
#include "frontends/python/value.h"
#include "ir/sexp.h"

namespace keq::python {
namespace {

[[noreturn]] void reject(const std::string& file, int line, const std::string& what) {
  throw ir::SyntaxError(ir::SourcePos{file, line, 0}, what);
}

// Length of the UTF-8 sequence at s[i], or 0 when it is not valid UTF-8 (overlong forms,
// surrogates and code points past U+10FFFF included, as CPython's decoder refuses them).
size_t utf8_length(std::string_view s, size_t i) {
  auto c = [&](size_t k) { return static_cast<unsigned char>(s[i + k]); };
  auto cont = [&](size_t k) { return i + k < s.size() && (c(k) & 0xC0) == 0x80; };
  unsigned char b = c(0);
  if (b < 0x80) return 1;
  if (b >= 0xC2 && b <= 0xDF) return cont(1) ? 2 : 0;
  if (b >= 0xE0 && b <= 0xEF) {
    if (!cont(1) || !cont(2)) return 0;
    if ((b == 0xE0 && c(1) < 0xA0) || (b == 0xED && c(1) >= 0xA0)) return 0;
    return 3;
  }
  if (b >= 0xF0 && b <= 0xF4) {
    if (!cont(1) || !cont(2) || !cont(3)) return 0;
    if ((b == 0xF0 && c(1) < 0x90) || (b == 0xF4 && c(1) >= 0x90)) return 0;
    return 4;
  }
  return 0;
}

// The encoding a PEP 263 declaration on line 1 or 2 names, lower-cased with '_' as '-'.
std::string declared_encoding(std::string_view s) {
  static const std::regex kCoding(R"(^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+))");
  size_t start = 0;
  for (int line = 0; line < 2 && start <= s.size(); ++line) {
    size_t end = s.find('\n', start);
    std::string text(s.substr(start, end == std::string_view::npos ? s.npos : end - start));
    std::smatch m;
    if (std::regex_search(text, m, kCoding)) {
      std::string e = m[1];
      std::transform(e.begin(), e.end(), e.begin(), [](unsigned char ch) {
        return ch == '_' ? '-' : static_cast<char>(std::tolower(ch));
      });
      return e;
    }
    // Only a comment or blank first line lets the second line declare.
    if (text.find_first_not_of(" \t\f\r") != std::string::npos &&
        text[text.find_first_not_of(" \t\f\r")] != '#')
      break;
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  return "";
}

}  // namespace

std::string decode_source(std::string_view bytes, const std::string& file) {
  if (bytes.find('\0') != std::string_view::npos)
    throw FileUnreadable(file + ": not a text file (it contains NUL bytes)");
  bool bom = bytes.substr(0, 3) == "\xEF\xBB\xBF";
  if (bom) bytes.remove_prefix(3);
  std::string enc = declared_encoding(bytes);
  bool utf8 = enc.empty() || enc == "utf-8" || enc == "utf8" || enc.rfind("utf-8-", 0) == 0;
  bool latin1 = enc == "latin-1" || enc == "iso-8859-1" || enc == "iso8859-1" || enc == "latin1" ||
                enc == "l1" || enc == "iso-latin-1" || enc == "cp819";
  bool ascii = enc == "ascii" || enc == "us-ascii";
  if (bom && !enc.empty() && !utf8) reject(file, 1, "encoding problem: " + enc + " with BOM");
  if (latin1) {  // every byte is a code point: re-encode as UTF-8
    std::string out;
    for (unsigned char b : bytes) {
      if (b < 0x80) {
        out += static_cast<char>(b);
      } else {
        out += static_cast<char>(0xC0 | (b >> 6));
        out += static_cast<char>(0x80 | (b & 0x3F));
      }
    }
    return out;
  }
  if (!utf8 && !ascii)
    throw Unsupported(file + ":1:1: source encoding '" + enc +
                      "' (keq reads UTF-8, Latin-1, ASCII)");
  int line = 1;
  for (size_t i = 0; i < bytes.size();) {
    size_t n = ascii ? (static_cast<unsigned char>(bytes[i]) < 0x80) : utf8_length(bytes, i);
    if (n == 0) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "\\x%02x", static_cast<unsigned char>(bytes[i]));
      if (!enc.empty())
        reject(file, line, "(unicode error) '" + enc + "' codec can't decode byte " + hex);
      reject(file, line,
             std::string("SyntaxError: Non-UTF-8 code starting with '") + hex + "' on line " +
                 std::to_string(line) +
                 ", but no encoding declared; see https://peps.python.org/pep-0263/ for details");
    }
    line += bytes[i] == '\n';
    i += n;
  }
  return std::string(bytes);
}

std::string read_source_file(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::file_status st = fs::status(path, ec);
  if (ec || !fs::exists(st)) throw FileUnreadable(path + ": no such file");
  if (!fs::is_regular_file(st)) throw FileUnreadable(path + ": not a regular file");
  uintmax_t size = fs::file_size(path, ec);
  if (ec) throw FileUnreadable(path + ": cannot read its size");
  if (size > kMaxSourceBytes)
    throw Unsupported(path + ": a source file of " + std::to_string(size) + " bytes (size limit " +
                      std::to_string(kMaxSourceBytes) + ")");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw FileUnreadable(path + ": cannot open it for reading");
  std::stringstream ss;
  ss << in.rdbuf();
  return decode_source(ss.str(), path);
}

void check_depth(const Tree& t) {
  // Iterative: the point is that nothing recurses past this depth afterwards.
  std::vector<std::pair<NodeId, size_t>> stack{{t.root, 1}};
  while (!stack.empty()) {
    auto [id, depth] = stack.back();
    stack.pop_back();
    const Node& n = t.at(id);
    if (depth > kMaxAstDepth)
      throw ir::SyntaxError(
          ir::SourcePos{t.file, static_cast<int>(n.span.line), static_cast<int>(n.span.col)},
          "RecursionError: maximum recursion depth exceeded during compilation");
    for (NodeId k : n.kids)
      if (k != kNoNode) stack.push_back({k, depth + 1});
  }
}

}  // namespace keq::python
