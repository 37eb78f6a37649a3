#include "experiments/cli/run_flags.h"

#include "core/config/units.h"

namespace augur {

void AddRunFlags(CLI::App& app, RunConfig* c) {
  app.add_option("--nodes", c->nodes, "Number of nodes")->capture_default_str();
  app.add_option("--workers", c->workers, "Worker threads per node")->capture_default_str();
  app.add_option("--workload", c->workload, "Workload: zipf")->capture_default_str();
  app.add_option("--policy", c->policy, "Parameter management policy: classic")
      ->capture_default_str();
  app.add_option("--epochs", c->epochs, "Training epochs")->capture_default_str();
  app.add_option("--seed", c->seed, "Run seed (every random choice derives from it)")
      ->capture_default_str();
  app.add_option("--out", c->out_dir, "Directory for result.json");
  app.add_flag("--verify", c->verify,
               "Push integer updates and check every key's final value exactly (sum invariant)");
  app.add_option("--pattern", c->pattern, "zipf access pattern: uniform|hot|partitioned|mixed")
      ->capture_default_str();
  app.add_option("--keys", c->zipf.keys, "zipf: number of keys")->capture_default_str();
  app.add_option("--dim", c->zipf.dim, "zipf: floats per value")->capture_default_str();
  app.add_option("--batch-size", c->zipf.batch_size, "zipf: key accesses per mini-batch")
      ->capture_default_str();
  app.add_option("--batches", c->zipf.batches_per_epoch, "zipf: mini-batches per worker per epoch")
      ->capture_default_str();
  app.add_option("--skew", c->zipf.skew, "zipf: Zipf exponent of hot accesses")
      ->capture_default_str();
  app.add_option("--lookahead", c->zipf.lookahead, "zipf: clocks of intent signalled ahead")
      ->capture_default_str();
  app.add_option("--compute-per-key", c->zipf.compute_seconds_per_key,
                 "zipf: modelled compute seconds per key access")
      ->capture_default_str();
}

void AddNetworkModelFlags(CLI::App& app, RunFlagText* t) {
  app.add_option("--latency", t->latency, "Network model: one-way latency (e.g. 5us)")
      ->capture_default_str();
  app.add_option("--bandwidth", t->bandwidth, "Network model: per-node NIC bandwidth (e.g. 10Gbps)")
      ->capture_default_str();
  app.add_option("--jitter", t->jitter,
                 "Network model: random extra latency in [0, jitter) that reorders messages "
                 "across senders (seeded)")
      ->capture_default_str();
}

Status FinishRunConfig(const RunFlagText& t, RunConfig* c) {
  Result<double> latency = ParseDuration(t.latency);
  if (!latency.ok()) return latency.status().WithContext("--latency");
  Result<double> jitter = ParseDuration(t.jitter);
  if (!jitter.ok()) return jitter.status().WithContext("--jitter");
  Result<double> bandwidth = ParseBandwidth(t.bandwidth);
  if (!bandwidth.ok()) return bandwidth.status().WithContext("--bandwidth");
  c->network.latency_seconds = *latency;
  c->network.jitter_seconds = *jitter;
  c->network.bandwidth_bytes_per_second = *bandwidth;
  return c->Validate();
}

}  // namespace augur
