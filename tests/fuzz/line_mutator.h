// A structure-aware mutator for Python sources: half of the mutations move whole lines
// (duplicate, delete, swap, re-indent), which keeps tokens and indentation intact so inputs get
// past the lexer and reach the parser's and interpreter's depths; the other half are
// libFuzzer's own byte mutations.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

extern "C" size_t LLVMFuzzerMutate(uint8_t* data, size_t size, size_t max_size);

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t* data, size_t size, size_t max_size,
                                          unsigned int seed) {
  std::mt19937 rng(seed);
  if (rng() % 2 == 0 || size == 0) return LLVMFuzzerMutate(data, size, max_size);
  std::vector<std::string> lines;
  std::string cur;
  for (size_t k = 0; k < size; ++k) {
    cur += static_cast<char>(data[k]);
    if (data[k] == '\n') lines.push_back(std::move(cur)), cur.clear();
  }
  if (!cur.empty()) lines.push_back(cur);
  size_t n = lines.size(), a = rng() % n, b = rng() % n;
  switch (rng() % 4) {
    case 0:  // duplicate a line somewhere else
      lines.insert(lines.begin() + static_cast<long>(b), lines[a]);
      break;
    case 1:  // delete a line
      if (n > 1) lines.erase(lines.begin() + static_cast<long>(a));
      break;
    case 2:  // swap two lines
      std::swap(lines[a], lines[b]);
      break;
    default:  // indent or dedent a line by four spaces
      if (lines[a].rfind("    ", 0) == 0 && rng() % 2)
        lines[a].erase(0, 4);
      else
        lines[a].insert(0, "    ");
  }
  std::string out;
  for (const std::string& l : lines) out += l;
  if (out.size() > max_size) return LLVMFuzzerMutate(data, size, max_size);
  std::memcpy(data, out.data(), out.size());
  return out.size();
}
