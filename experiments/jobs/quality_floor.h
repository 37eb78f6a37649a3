// QualityFloor: the held-out quality of a workload's untrained model (its
// initial rows, InitRow), which a trained model must not be worse than.
//
// DivergenceGuard watches the training loss; a run can stay within its bounds
// and still leave a model worse than it started (wv on a Zipf corpus at
// `--lr 0.3`: training loss 1.13, held-out loss 42 against the untrained
// model's 4.16). Such a run diverged too: it is reported as diverged, with
// this check's message, never as a quality. "Worse" means by more than
// kMargin (25%): a model that has barely moved from its start (a short run,
// a small learning rate: mf's tiny test matrix after 2 epochs, test RMSE
// 0.3850 against the untrained 0.3849) is unfinished, not diverged. Used by
// the PS jobs (BatchJob) and the single-node baselines (RunHogwildEpochs) of
// the workloads whose untrained quality is cheap to evaluate (wv: held-out loss, mf: test RMSE;
// not kge, whose ranking of an untrained model would cost a full
// evaluation). Plain value type; any thread.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

namespace augur {

struct QualityFloor {
  static constexpr double kMargin = 0.25;
  std::string field;         // the quality's field compared; lower is better, >= 0
  nlohmann::json untrained;  // the workload's evaluation of its initial rows
};

// The line a run stops with when `trained` (the same evaluation after
// `epochs` epochs) is more than kMargin worse than the floor's untrained
// quality, or NaN: "training diverged: heldout_loss 42.51 after 1 epoch is
// more than 25% worse than the untrained model's 4.159 (its initial rows)".
// Empty when it is not.
// A field missing from either, or not a number, is no verdict (empty).
std::string WorseThanUntrained(const QualityFloor& floor, const nlohmann::json& trained,
                               uint32_t epochs);

// Adds the untrained model's value of the floor's field to a trained
// model's evaluation, as "untrained_<field>" (e.g. untrained_heldout_loss):
// the reference a reader needs to tell a trained model from one that has
// barely moved (reports set the baseline's beside it). No-op if the floor
// has no such number.
void RecordUntrained(const QualityFloor& floor, nlohmann::json* quality);

}  // namespace augur
