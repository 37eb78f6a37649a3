#include "experiments/jobs/quality_floor.h"

#include <cmath>
#include <cstdio>
#include <optional>

namespace augur {

namespace {
// The field's value: none when absent; NaN when not a number (JSON has no
// NaN: a NaN written by the evaluation reads back as null).
std::optional<double> Field(const nlohmann::json& quality, const std::string& field) {
  if (!quality.is_object() || !quality.contains(field)) return std::nullopt;
  const nlohmann::json& v = quality.at(field);
  return v.is_number() ? v.get<double>() : std::nan("");
}
}  // namespace

std::string WorseThanUntrained(const QualityFloor& floor, const nlohmann::json& trained,
                               uint32_t epochs) {
  const std::optional<double> start = Field(floor.untrained, floor.field);
  const std::optional<double> now = Field(trained, floor.field);
  if (!start || !now || std::isnan(*start)) return "";
  if (!std::isnan(*now) && *now <= *start * (1 + QualityFloor::kMargin)) return "";
  char line[256];
  std::snprintf(line, sizeof(line),
                "training diverged: %s %.4g after %u epoch%s is more than %.0f%% worse than "
                "the untrained model's %.4g (its initial rows)",
                floor.field.c_str(), *now, epochs, epochs == 1 ? "" : "s",
                100 * QualityFloor::kMargin, *start);
  return line;
}

void RecordUntrained(const QualityFloor& floor, nlohmann::json* quality) {
  const std::optional<double> start = Field(floor.untrained, floor.field);
  if (!quality->is_object() || !start || std::isnan(*start)) return;
  (*quality)["untrained_" + floor.field] = *start;
}

}  // namespace augur
