// Symbolic execution of @triton.jit kernels launched from host code: every program instance of
// the grid runs over term blocks, with concrete index arithmetic and a memory model that records
// findings (out-of-bounds lanes, write-write and read-write races between programs, masked loads
// without other= whose lanes reach an output).
//
// This is the first part of the Triton frontend: elementwise and row-reduction kernels. What it
// does not model is UNSUPPORTED with file:line.
#pragma once

#include "frontends/torch/torch.h"

namespace keq::triton {

// Replaces the torch frontend's Triton stubs with real launches. Call after torch::install.
void install(python::Interp& in, torch::TorchState& state);

}  // namespace keq::triton
