// Golden-file tests: every DIR/NAME.py's outcome is compared with DIR/NAME.expected.
// KEQ_UPDATE_GOLDEN=1 rewrites the expectations instead (then read the diff before committing).
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>

namespace keq::test {

// Returns how many .py files the folder holds.
inline size_t check_goldens(
    const std::filesystem::path& dir,
    const std::function<std::string(const std::filesystem::path&)>& outcome) {
  bool update = std::getenv("KEQ_UPDATE_GOLDEN") != nullptr;
  size_t n = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() != ".py") continue;
    ++n;
    std::filesystem::path expected = entry.path();
    expected.replace_extension(".expected");
    std::string got = outcome(entry.path());
    if (update) {
      std::ofstream(expected) << got;
      continue;
    }
    std::ifstream in(expected);
    EXPECT_TRUE(in) << "missing " << expected << " (run with KEQ_UPDATE_GOLDEN=1)";
    std::stringstream want;
    want << in.rdbuf();
    EXPECT_EQ(got, want.str()) << "for " << entry.path().filename();
  }
  return n;
}

// An error message with the golden file's full path shortened to its name, so expectations do
// not depend on where the tree is checked out.
inline std::string relative_message(std::string what, const std::filesystem::path& file) {
  std::string full = file.string();
  if (size_t at = what.find(full); at != std::string::npos)
    what.replace(at, full.size(), file.filename().string());
  return what;
}

}  // namespace keq::test
