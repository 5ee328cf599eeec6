#include "frontends/torch/device.h"

#include <absl/strings/str_split.h>

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace keq::torch {
namespace {

// Every public module of the installed torch 2.11 (scripts/module_names.py submodules).
const std::vector<std::string> kTorchSubmodules = {
#include "frontends/torch/torch_submodules.inc"
};

// dir(torch.distributed) under torch 2.11 (the test venv's), separated by spaces.
constexpr const char* kDistributedNames =
    "AllToAllOptions AllreduceCoalescedOptions AllreduceOptions Backend BackendConfig "
    "BarrierOptions BroadcastOptions BuiltinCommHookType DebugLevel DeviceMesh "
    "DistBackendError DistError DistNetworkError DistStoreError FileStore GatherOptions "
    "GradBucket GroupMember GroupName HashStore Logger P2POp PrefixStore ProcessGroup "
    "ProcessGroupGloo ProcessGroupNCCL QueueEmptyError RankType ReduceOp ReduceOptions "
    "ReduceScatterOptions Reducer ScatterOptions Store TCPStore Work _Backend "
    "_CoalescingManager _ControlCollectives _DEFAULT_FIRST_BUCKET_BYTES _StoreCollectives "
    "_Work __annotations__ __builtins__ __cached__ __doc__ __file__ __loader__ __name__ "
    "__package__ __path__ __spec__ _all_gather_base _breakpoint_cache _broadcast_coalesced "
    "_coalescing_manager _compute_bucket_assignment_by_size _create_process_group_wrapper "
    "_create_store_from_options _get_process_group_name _make_distributed_pdb "
    "_make_nccl_premul_sum _mesh_layout _meta_registrations _pycute _rank_not_in_group "
    "_reduce_scatter_base _register_builtin_comm_hook _register_comm_hook _remote_device "
    "_test_python_store _time_estimator _verify_params_across_processes algorithms "
    "all_gather all_gather_coalesced all_gather_into_tensor all_gather_object all_reduce "
    "all_reduce_coalesced all_to_all all_to_all_single autograd barrier batch_isend_irecv "
    "breakpoint broadcast broadcast_object_list c10d_logger config constants "
    "default_pg_timeout destroy_process_group device_mesh distributed_c10d gather "
    "gather_object get_backend get_backend_config get_debug_level "
    "get_default_backend_for_device get_global_rank get_group_rank get_node_local_rank "
    "get_pg_count get_process_group_ranks get_rank get_world_size group init_device_mesh "
    "init_process_group irecv is_available is_backend_available is_gloo_available "
    "is_initialized is_mpi_available is_nccl_available is_torchelastic_launched "
    "is_ucc_available is_xccl_available isend log logging logging_handlers monitored_barrier "
    "new_group new_subgroups new_subgroups_by_enumeration recv recv_object_list reduce "
    "reduce_op reduce_scatter reduce_scatter_tensor register_rendezvous_handler "
    "remote_device rendezvous rpc scatter scatter_object_list send send_object_list "
    "set_debug_level set_debug_level_from_env shrink_group split_group supports_complex sys "
    "timedelta torch traceback typing utils";

// The space-separated words of `text`.
absl::flat_hash_set<std::string> words(const char* text) {
  return absl::StrSplit(text, ' ', absl::SkipEmpty());
}

// torch.utils._triton's checks, as on the H200 keq models (on a machine without a GPU,
// has_triton() is False): libraries build their Triton kernels only where it is True
// (torchao's blockwise fp8 quantization).
constexpr const char* kUtilsTriton = R"PY(
def has_triton_package():
    return True


def has_triton():
    return True
)PY";
using python::Ref;
using K = python::Value::Kind;

// What torch 2.11 reports for an H200 (compute capability 9.0, 132 SMs, 141 GB of HBM3e).
struct DeviceFacts {
  const char* name = "NVIDIA H200";
  int64_t major = 9, minor = 0, multi_processor_count = 132, warp_size = 32;
  int64_t total_memory = int64_t{150} * 1000 * 1000 * 1000;  // bytes, about what torch reports
  int64_t max_threads_per_multi_processor = 2048, l2_cache_size = 50 * 1024 * 1024;
};

}  // namespace

void install_cuda_timing(const Ref& cuda);

void install_cuda_queries(TorchState& st, const Ref& cuda) {
  static const DeviceFacts kH200;
  auto& t = *cuda->attrs;
  auto def = [&](const std::string& name, const std::string& answer, python::BuiltinFn fn) {
    t[name] = python::builtin(
        "torch.cuda." + name, [&st, name, answer, fn](python::Interp& i2, python::CallArgs& a) {
          st.host_assumptions.insert("torch.cuda." + name + "() is " + answer);
          return fn(i2, a);
        });
  };
  def("current_device", "0", [](python::Interp&, python::CallArgs&) { return python::integer(0); });
  def("device_count", "1", [](python::Interp&, python::CallArgs&) { return python::integer(1); });
  def("get_device_name", kH200.name,
      [](python::Interp&, python::CallArgs&) { return python::string(kH200.name); });
  def("get_device_capability", "(9, 0)", [](python::Interp&, python::CallArgs&) {
    return python::tuple({python::integer(kH200.major), python::integer(kH200.minor)});
  });
  def("get_device_properties", "an H200's (9.0, 132 SMs)", [](python::Interp&, python::CallArgs&) {
    Ref p = python::module_object("torch.cuda._CudaDeviceProperties");
    auto& a = *p->attrs;
    a["name"] = python::string(kH200.name);
    a["major"] = python::integer(kH200.major);
    a["minor"] = python::integer(kH200.minor);
    a["multi_processor_count"] = python::integer(kH200.multi_processor_count);
    a["total_memory"] = python::integer(kH200.total_memory);
    a["warp_size"] = python::integer(kH200.warp_size);
    a["max_threads_per_multi_processor"] = python::integer(kH200.max_threads_per_multi_processor);
    a["L2_cache_size"] = python::integer(kH200.l2_cache_size);
    return p;
  });
  install_cuda_timing(cuda);
}

// Streams and events: one stream, and work done in program order, so they order nothing keq
// models. A timing read by elapsed_time() is not a value keq can know: it may be printed, and a
// comparison of it (a choice among configurations) goes each way in turn (python::TimingChoices).
void install_cuda_timing(const Ref& cuda) {
  auto& t = *cuda->attrs;
  auto inert = [](const std::string& name) {
    return python::builtin(name, [](python::Interp&, python::CallArgs&) { return python::none(); });
  };
  auto object = [inert](const std::string& type) {
    Ref o = python::module_object("torch.cuda." + type);
    auto& a = *o->attrs;
    for (const char* m : {"record", "synchronize", "wait", "wait_event", "wait_stream"})
      a[m] = inert("torch.cuda." + type + "." + m);
    a["query"] =
        python::builtin("torch.cuda." + type + ".query",
                        [](python::Interp&, python::CallArgs&) { return python::boolean(true); });
    a["elapsed_time"] =
        python::builtin("torch.cuda.Event.elapsed_time", [](python::Interp& in, python::CallArgs&) {
          Ref ms = python::floating(1.0);  // printed or logged, it changes nothing
          ms->s = python::kTimingMarker;   // compared, it chooses (TimingChoices)
          ms->i = in.timing().next_timing();
          return ms;
        });
    return o;
  };
  for (const char* type : {"Event", "Stream"})
    t[type] = python::builtin(
        "torch.cuda." + std::string(type),
        [object, type](python::Interp&, python::CallArgs&) { return object(type); });
  t["current_stream"] =
      python::builtin("torch.cuda.current_stream",
                      [object](python::Interp&, python::CallArgs&) { return object("Stream"); });
  t["default_stream"] = t["current_stream"];
  t["stream"] = python::builtin("torch.cuda.stream", [](python::Interp&, python::CallArgs&) {
    return python::module_object("context:stream");
  });
  t["empty_cache"] = inert("torch.cuda.empty_cache");
}

namespace {

// torch.amp.custom_fwd/custom_bwd, bare or with keywords: outside an autocast region (KernelBench
// runs none) they call the function unchanged.
Ref amp_decorator(const std::string& name) {
  return python::builtin(name, [name](python::Interp&, python::CallArgs& a) -> Ref {
    if (!a.pos.empty()) return a.pos[0];
    return python::builtin(name + "(...)",
                           [](python::Interp&, python::CallArgs& b) { return b.pos.at(0); });
  });
}

// An object of switches (torch.backends.cuda.matmul, torch.backends.cudnn) at torch 2.11's
// defaults. Setting one is recorded; where the GPU then rounds what keq takes exactly (TF32),
// `noted` says so in the report.
Ref switches(python::Interp& in, TorchState& st, const std::string& name,
             std::vector<std::pair<std::string, Ref>> defaults,
             std::map<std::string, std::string> noted) {
  auto attrs = std::make_shared<absl::flat_hash_map<std::string, Ref>>();
  (*attrs)["__setattr__"] = python::builtin(
      name + ".__setattr__", [&st, name, noted](python::Interp& i2, python::CallArgs& a) {
        const Ref& self = a.pos.at(0);
        const std::string& attr = a.pos.at(1)->s;
        if (auto it = noted.find(attr); it != noted.end() && i2.truthy(a.pos.at(2), a.at))
          st.host_assumptions.insert(name + "." + attr + " is set: " + it->second);
        if (!self->attrs->contains(attr)) self->attr_order.push_back(attr);
        (*self->attrs)[attr] = a.pos.at(2);
        return python::none();
      });
  // A noted switch nobody set is read through a property that names its default in the report:
  // it decides which kernel the host launches (a TF32 path or an exact one).
  for (const auto& entry : defaults) {
    if (!noted.contains(entry.first)) continue;
    Ref read = python::module_object(python::kPropertyTag), value = entry.second;
    std::string note = name + "." + entry.first + " is read as torch 2.11's default, " +
                       (value->b ? "True" : "False") + " (nothing in the files sets it)";
    (*read->attrs)["fget"] = python::builtin(
        name + "." + entry.first, [&st, note, value](python::Interp&, python::CallArgs&) {
          st.host_assumptions.insert(note);
          return value;
        });
    (*attrs)[entry.first] = read;
  }
  Ref cls = in.make_class(name, nullptr, attrs);  // a missing attribute: UNSUPPORTED
  auto obj = std::make_shared<python::Value>();
  obj->kind = K::Instance;
  obj->cls = cls;
  obj->attrs = std::make_shared<absl::flat_hash_map<std::string, Ref>>();
  for (auto& [k, v] : defaults)
    if (!noted.contains(k)) (*obj->attrs)[k] = v;
  return obj;
}

// torch.Generator: a seeded stream of draws. keq's draws are symbolic whatever stream they come
// from (a verdict holds for every value; parameters pair by creation order, as one seed gives
// both models the same draws), so a generator only keeps its seed.
Ref generator_class(python::Interp& in) {
  auto attrs = std::make_shared<absl::flat_hash_map<std::string, Ref>>();
  (*attrs)["__init__"] =
      python::builtin("torch.Generator.__init__", [](python::Interp& i2, python::CallArgs& a) {
        a.get(1, "device");  // any device: nothing keq models depends on it
        i2.setattr(a.pos.at(0), "_seed", python::integer(67280421310721), a.at);  // torch's default
        return python::none();
      });
  (*attrs)["manual_seed"] =
      python::builtin("torch.Generator.manual_seed", [](python::Interp& i2, python::CallArgs& a) {
        i2.setattr(a.pos.at(0), "_seed", python::integer(i2.to_int(a.get(1, "seed"), a.at)), a.at);
        return a.pos[0];  // torch returns the generator itself
      });
  (*attrs)["initial_seed"] =
      python::builtin("torch.Generator.initial_seed", [](python::Interp& i2, python::CallArgs& a) {
        return i2.getattr(a.pos.at(0), "_seed", a.at);
      });
  return in.make_class("Generator", nullptr, attrs);
}

Ref inert(const std::string& name, Ref result) {
  return python::builtin(name, [result](python::Interp&, python::CallArgs&) { return result; });
}

// Switches host code sets at import or in __init__: seeds (inputs are symbolic), determinism
// (nothing keq models depends on it), TF32 and the float32 matmul precision
// (real semantics takes exact products, as for tl.dot's default: noted in the report).
void install_global_switches(python::Interp& in, TorchState& st, const Ref& torch,
                             const Ref& cuda) {
  auto& t = *torch->attrs;
  const std::string tf32 =
      "torch's fp32 matmuls and convolutions may round their inputs to TF32 on the GPU; keq's "
      "real semantics takes the exact products";
  Ref backends = python::module_object("torch.backends");
  Ref backends_cuda = python::module_object("torch.backends.cuda");
  Ref matmul = switches(in, st, "torch.backends.cuda.matmul",
                        {{"allow_tf32", python::boolean(false)},
                         {"allow_fp16_reduced_precision_reduction", python::boolean(true)},
                         {"allow_bf16_reduced_precision_reduction", python::boolean(true)}},
                        {{"allow_tf32", tf32}});
  (*backends_cuda->attrs)["matmul"] = matmul;
  (*backends_cuda->attrs)["is_built"] =
      inert("torch.backends.cuda.is_built", python::boolean(true));
  Ref cudnn = switches(in, st, "torch.backends.cudnn",
                       {{"allow_tf32", python::boolean(true)},
                        {"benchmark", python::boolean(false)},
                        {"deterministic", python::boolean(false)},
                        {"enabled", python::boolean(true)}},
                       {{"allow_tf32", tf32}});
  (*cudnn->attrs)["is_available"] =
      inert("torch.backends.cudnn.is_available", python::boolean(true));
  (*cudnn->attrs)["version"] = inert("torch.backends.cudnn.version", python::integer(91002));
  (*backends->attrs)["cuda"] = backends_cuda;
  (*backends->attrs)["cudnn"] = cudnn;
  t["backends"] = backends;
  in.register_module("torch.backends", backends);
  in.register_module("torch.backends.cuda", backends_cuda);
  in.register_module("torch.backends.cudnn", cudnn);

  for (const char* n : {"manual_seed", "seed", "use_deterministic_algorithms", "set_printoptions"})
    t[n] = inert(std::string("torch.") + n, python::none());
  t["Generator"] = generator_class(in);
  for (const char* n : {"manual_seed", "manual_seed_all", "seed", "seed_all"})
    (*cuda->attrs)[n] = inert(std::string("torch.cuda.") + n, python::none());
  // keq models no autocast region (torch.autocast is UNSUPPORTED), and KernelBench runs none.
  t["is_autocast_enabled"] =
      python::builtin("torch.is_autocast_enabled", [&st](python::Interp&, python::CallArgs&) {
        st.host_assumptions.insert("torch.is_autocast_enabled() is False: no autocast region runs");
        return python::boolean(false);
      });
  t["are_deterministic_algorithms_enabled"] =
      inert("torch.are_deterministic_algorithms_enabled", python::boolean(false));
  auto precision = std::make_shared<std::string>("highest");
  t["set_float32_matmul_precision"] = python::builtin(
      "torch.set_float32_matmul_precision",
      [&st, precision, tf32](python::Interp& i2, python::CallArgs& a) {
        Ref p = a.get(0, "precision");
        if (!p || p->kind != K::Str || (p->s != "highest" && p->s != "high" && p->s != "medium"))
          i2.error(a.at, "torch.set_float32_matmul_precision takes 'highest', 'high' or 'medium'");
        *precision = p->s;
        if (p->s != "highest")
          st.host_assumptions.insert("torch.set_float32_matmul_precision('" + p->s + "'): " + tf32);
        return python::none();
      });
  t["get_float32_matmul_precision"] = python::builtin(
      "torch.get_float32_matmul_precision",
      [precision](python::Interp&, python::CallArgs&) { return python::string(*precision); });
}

}  // namespace

void install_host_environment(python::Interp& in, TorchState& st, const Ref& torch,
                              const Ref& cuda) {
  install_global_switches(in, st, torch, cuda);
  auto& t = *torch->attrs;
  t["__version__"] = python::string("2.11.0");
  Ref version = python::module_object("torch.version");
  (*version->attrs)["cuda"] = python::string("13.0");
  (*version->attrs)["hip"] = python::none();
  (*version->attrs)["__version__"] = python::string("2.11.0");
  // As torch 2.11.0's wheels have them (torchao's __init__ tests hasattr(.., "git_version")).
  (*version->attrs)["git_version"] = python::string("70d99e998b4955e0049d13a98d77ae1b14db1f45");
  (*version->attrs)["debug"] = python::boolean(false);
  (*version->attrs)["rocm"] = python::none();
  (*version->attrs)["xpu"] = python::none();
  t["version"] = version;
  Ref amp = python::module_object("torch.amp");
  (*amp->attrs)["custom_fwd"] = amp_decorator("torch.amp.custom_fwd");
  (*amp->attrs)["custom_bwd"] = amp_decorator("torch.amp.custom_bwd");
  t["amp"] = amp;
  // torch.jit.script/ignore/unused and torch.compile, bare or with keywords: the function (or
  // module) itself. A compiled function computes what eager torch does over the reals; its
  // fp32 rounding may differ (inductor fuses and reorders), which the report says.
  Ref jit = python::module_object("torch.jit");
  for (const char* n : {"script", "ignore", "unused", "export"})
    (*jit->attrs)[n] = amp_decorator(std::string("torch.jit.") + n);
  t["jit"] = jit;
  in.register_module("torch.jit", jit);
  // torch.compiler.disable / assume_constant_result: run as eager torch does.
  Ref compiler = python::module_object("torch.compiler");
  for (const char* n : {"disable", "assume_constant_result", "allow_in_graph"})
    (*compiler->attrs)[n] = amp_decorator(std::string("torch.compiler.") + n);
  (*compiler->attrs)["is_compiling"] =
      python::builtin("torch.compiler.is_compiling",
                      [](python::Interp&, python::CallArgs&) { return python::boolean(false); });
  t["compiler"] = compiler;
  in.register_module("torch.compiler", compiler);
  Ref compile = amp_decorator("torch.compile");
  t["compile"] = python::builtin(
      "torch.compile", [&st, compile](python::Interp& i2, python::CallArgs& a) -> Ref {
        st.host_assumptions.insert(
            "torch.compile runs as eager torch (inductor's fp32 rounding and reduction order may "
            "differ: real semantics is unaffected)");
        return i2.call(compile, a);
      });
  Ref cuda_amp = python::module_object("torch.cuda.amp");
  (*cuda_amp->attrs)["custom_fwd"] = amp_decorator("torch.cuda.amp.custom_fwd");
  (*cuda_amp->attrs)["custom_bwd"] = amp_decorator("torch.cuda.amp.custom_bwd");
  (*cuda->attrs)["amp"] = cuda_amp;
  // torch.cuda.device(d): the device is already the current one (device_count() is 1).
  (*cuda->attrs)["device"] = python::builtin(
      "torch.cuda.device",
      [](python::Interp&, python::CallArgs&) { return python::module_object("context:device"); });
  Ref dist = python::module_object("torch.distributed"),
      dtensor = python::module_object("torch.distributed.tensor");
  auto answer = [&](const char* name, bool v) {
    (*dist->attrs)[name] =
        python::builtin(std::string("torch.distributed.") + name,
                        [v](python::Interp&, python::CallArgs&) { return python::boolean(v); });
  };
  answer("is_available", true);
  answer("is_initialized", false);
  (*dtensor->attrs)["DTensor"] =
      in.make_class("DTensor", nullptr, std::make_shared<absl::flat_hash_map<std::string, Ref>>());
  // Tensor parallelism's classes and functions, which libraries import at module level for the
  // parallel styles they define (fla's NormParallel): the names exist, a class can be a base
  // or an isinstance test (keq makes no DTensor), and making or calling one is UNSUPPORTED.
  Ref tensor_parallel = python::module_object("torch.distributed.tensor.parallel");
  auto unmodelled = [](const std::string& what) {
    return python::builtin(what, [what](python::Interp& i2, python::CallArgs& a) -> Ref {
      i2.unsupported(a.at, what + " (distributed tensors are not modelled)");
    });
  };
  auto opaque = [&](const Ref& module, const std::string& name) {
    auto attrs = std::make_shared<absl::flat_hash_map<std::string, Ref>>();
    (*attrs)["__init__"] = unmodelled(module->s + "." + name + "(...)");
    (*module->attrs)[name] = in.make_class(name, nullptr, attrs);
  };
  opaque(dist, "DeviceMesh");
  for (const char* name : {"Placement", "Replicate", "Shard", "Partial"}) opaque(dtensor, name);
  for (const char* name : {"ParallelStyle", "ColwiseParallel", "RowwiseParallel",
                           "SequenceParallel", "PrepareModuleInput", "PrepareModuleOutput"})
    opaque(tensor_parallel, name);
  for (const char* name : {"distribute_module", "distribute_tensor"})
    (*dtensor->attrs)[name] = unmodelled(std::string("torch.distributed.tensor.") + name);
  (*tensor_parallel->attrs)["parallelize_module"] =
      unmodelled("torch.distributed.tensor.parallel.parallelize_module");
  (*dtensor->attrs)["parallel"] = tensor_parallel;
  (*dist->attrs)["tensor"] = dtensor;
  t["distributed"] = dist;
  in.register_module("torch.distributed", dist);
  // Every name dir(torch.distributed) lists under torch 2.11 (private ones too): flash-attn
  // tests `"all_gather_into_tensor" not in dir(torch.distributed)` at import.
  in.set_real_names("torch.distributed", words(kDistributedNames));
  in.set_names_complete("torch.distributed");
  in.register_model_source("torch.utils", "");
  in.register_model_source("torch.utils._triton", kUtilsTriton);
  in.register_model_attribute("torch", "utils", "torch.utils");
  in.add_library_submodules(kTorchSubmodules);
  in.set_real_names(
      "torch.utils",
      words("ThroughputBenchmark backcompat backend_registration checkpoint cmake_prefix_path "
            "collect_env cpp_backtrace data deterministic dlpack "
            "generate_methods_for_privateuse1_backend get_cpp_backtrace hooks "
            "rename_privateuse1_backend set_module swap_tensors throughput_benchmark weak"));
  in.set_real_names("torch.utils._triton",
                    words("get_triton_version has_datacenter_blackwell_tma_device has_triton "
                          "has_triton_experimental_host_tma has_triton_package "
                          "has_triton_stable_tma_api has_triton_tensor_descriptor_host_tma "
                          "has_triton_tma has_triton_tma_device triton_backend "
                          "triton_hash_with_backend"));
  in.register_module("torch.distributed.tensor", dtensor);
  in.register_module("torch.distributed.tensor.parallel", tensor_parallel);
  in.register_module("torch.amp", amp);
  in.register_module("torch.cuda", cuda);
  in.register_module("torch.cuda.amp", cuda_amp);
}

}  // namespace keq::torch
