// torch.autograd.Function as kernel libraries use it (Liger, LLM-written candidates): a subclass's
// Fn.apply(*args) runs its forward(ctx, *args); ctx records what is saved and is otherwise inert;
// backward is read, never run (keq checks the forward computation).
#pragma once

#include "frontends/python/interp.h"
#include "frontends/torch/torch.h"

namespace keq::torch {

// Also grad mode (torch.no_grad() and kin, torch.is_grad_enabled()), kept in `st`.
void install_autograd(python::Interp& in, TorchState& st, const python::Ref& torch_module);

}  // namespace keq::torch
