// keq's subcommands. Each returns the process exit code.
#pragma once

#include <string>
#include <vector>

#include "frontends/triton/program.h"

namespace keq::cli {

// Exit codes shared by every command (DESIGN.md).
inline constexpr int kExitProved = 0;
inline constexpr int kExitNotProved = 1;
inline constexpr int kExitUnsupported = 3;
inline constexpr int kExitError = 4;

int egraph_command(const std::vector<std::string>& args);
int parse_command(const std::vector<std::string>& args);
int inspect_command(const std::vector<std::string>& args);
int verify_command(const std::vector<std::string>& args);
int rules_command(const std::vector<std::string>& args);  // keq rules check, validate
extern const char* const kEgraphHelp;

}  // namespace keq::cli
