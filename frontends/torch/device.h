// torch.cuda's device queries, answered as the H200 KernelBench runs on would answer them
// (DESIGN.md, "Host code"); each answer given is recorded in TorchState::host_assumptions.
#pragma once

#include "frontends/python/interp.h"
#include "frontends/torch/torch.h"

namespace keq::torch {

void install_cuda_queries(TorchState& st, const python::Ref& cuda);
// What libraries read about the installation at import: torch.__version__, torch.version,
// torch.amp's decorators, torch.distributed (available, not initialized; no tensor is a DTensor)
// and torch.cuda.device(...) as a context.
void install_host_environment(python::Interp& in, TorchState& st, const python::Ref& torch,
                              const python::Ref& cuda);

}  // namespace keq::torch
