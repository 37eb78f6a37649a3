#include "core/store/optimizer.h"

namespace augur {

Result<OptimizerKind> ParseOptimizerKind(const std::string& name) {
  if (name == "sum") return OptimizerKind::kSum;
  if (name == "sgd") return OptimizerKind::kSgd;
  if (name == "adagrad") return OptimizerKind::kAdaGrad;
  return Status::Error("unknown optimizer '" + name + "' (expected sum|sgd|adagrad)");
}

const char* OptimizerKindName(OptimizerKind kind) {
  switch (kind) {
    case OptimizerKind::kSum:
      return "sum";
    case OptimizerKind::kSgd:
      return "sgd";
    case OptimizerKind::kAdaGrad:
      return "adagrad";
  }
  return "?";
}

}  // namespace augur
