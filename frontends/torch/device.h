// torch.cuda's device queries, answered as the H200 KernelBench runs on would answer them
// (DESIGN.md, "Host code"); each answer given is recorded in TorchState::host_assumptions.
#pragma once

#include "frontends/python/interp.h"
#include "frontends/torch/torch.h"

namespace keq::torch {

void install_cuda_queries(TorchState& st, const python::Ref& cuda);

}  // namespace keq::torch
