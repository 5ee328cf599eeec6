// Reports as protobuf messages (verify/keq.proto), printed with protobuf's JSON printer.
#include <google/protobuf/util/json_util.h>

#include "keq.pb.h"  // generated from verify/keq.proto into the build folder
#include "verify/verify.h"

namespace keq::verify {

namespace {

report::Verdict to_proto(Verdict v) {
  switch (v) {
    case Verdict::Equivalent:
      return report::EQUIVALENT;
    case Verdict::NotEquivalent:
      return report::NOT_EQUIVALENT;
    case Verdict::Unknown:
      return report::UNKNOWN;
    case Verdict::Unsupported:
      return report::UNSUPPORTED;
    case Verdict::Error:
      return report::ERROR;
  }
  return report::VERDICT_UNSPECIFIED;
}

void fill(const Report& r, report::Configuration& c) {
  c.set_verdict(to_proto(r.verdict));
  c.set_reason(r.reason);
  c.set_semantics(std::string(ir::semantics_name(r.semantics)) +
                  (r.nonfinite_inputs ? ", nonfinite inputs" : ""));
  c.set_bound(r.bound);
  if (const auto& x = r.counterexample) {
    report::Counterexample* pc = c.mutable_counterexample();
    pc->set_output(static_cast<uint32_t>(x->output));
    for (int64_t i : x->index) pc->add_index(static_cast<int32_t>(i));
    for (const auto& [name, value] : x->inputs) {
      report::InputValue* iv = pc->add_inputs();
      iv->set_name(name);
      iv->set_value(value);
    }
    pc->set_reference_value(x->ref_value);
    pc->set_candidate_value(x->cand_value);
    pc->set_difference(x->difference);
    pc->set_found_by(x->found_by);
    for (const auto& n : x->names) pc->add_names(n);
  }
  for (const auto& f : r.findings) c.add_findings(f);
  c.set_findings_unlisted(static_cast<uint64_t>(r.findings_unlisted));
  for (const auto& f : r.file_size_findings) c.add_file_size_findings(f);
  for (const auto& n : r.notes) c.add_notes(n);
  for (const auto& w : r.coverage) c.add_coverage(w);
  c.set_explanation(r.explanation);
  report::Stats* s = c.mutable_stats();
  s->set_pairs(static_cast<uint32_t>(r.stats.pairs));
  s->set_deduped_pairs(static_cast<uint32_t>(r.stats.deduped));
  s->set_egraph_proved(static_cast<uint32_t>(r.stats.egraph_proved));
  s->set_egraph_iterations(static_cast<uint32_t>(r.stats.egraph_iterations));
  s->set_egraph_nodes(static_cast<uint32_t>(r.stats.egraph_nodes));
  s->set_egraph_stop(r.stats.egraph_stop);
  s->set_witness_refuted(static_cast<uint32_t>(r.stats.witness_refuted));
  s->set_witness_points(static_cast<uint32_t>(r.stats.witness_points));
  s->set_unknown(static_cast<uint32_t>(r.stats.unknown));
  s->set_seconds(r.stats.seconds);
  s->set_smt_queries(static_cast<uint32_t>(r.stats.smt_queries));
  s->set_smt_refinements(static_cast<uint32_t>(r.stats.smt_refinements));
  s->set_smt_proved(static_cast<uint32_t>(r.stats.smt_proved));
  s->set_smt_refuted(static_cast<uint32_t>(r.stats.smt_refuted));
  s->set_smt_seconds(r.stats.smt_seconds);
  s->set_exhaustion_proved(static_cast<uint32_t>(r.stats.exhaustion_proved));
  s->set_cases_proved(static_cast<uint32_t>(r.stats.cases_proved));
  s->set_branches_proved(static_cast<uint32_t>(r.stats.branches_proved));
  s->set_chains_proved(static_cast<uint32_t>(r.stats.chains_proved));
  for (const auto& [stage, seconds] : r.stats.stage_seconds) {
    report::StageTime* st = s->add_stages();
    st->set_stage(stage);
    st->set_seconds(seconds);
  }
}

}  // namespace

std::string to_json(const std::string& ref_path, const std::string& cand_path,
                    const std::vector<Report>& reports, Verdict overall,
                    const std::string& provenance) {
  report::VerifyRun run;
  run.set_reference(ref_path);
  run.set_candidate(cand_path);
  run.set_verdict(to_proto(overall));
  for (const Report& r : reports) fill(r, *run.add_configurations());
  if (!reports.empty()) {
    size_t d = deciding_report(reports, overall);
    run.set_reason(reports[d].reason);
    run.set_deciding_configuration(static_cast<uint32_t>(d + 1));
  }
  run.set_provenance(provenance);
  google::protobuf::util::JsonPrintOptions opt;
  opt.add_whitespace = true;
  opt.always_print_primitive_fields = true;
  std::string out;
  auto status = google::protobuf::util::MessageToJsonString(run, &out, opt);
  if (!status.ok()) throw std::runtime_error("JSON printing failed: " + status.ToString());
  return out;
}

}  // namespace keq::verify
