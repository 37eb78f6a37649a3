// SimCosts and the costs file: calibrated costs of this machine for the simulator.
//
// `augur calibrate --workload W` measures these on the current machine and
// writes them as JSON; `augur sim --costs FILE` reads them back and models
// this machine with them (flags given explicitly override each part). The
// costs actually used by a run are written into its result.json. Plain
// values; the file functions touch only the named path.
#pragma once

#include <nlohmann/json_fwd.hpp>
#include <string>

#include "core/base/status.h"

namespace augur {

struct SimCosts {
  std::string workload;  // what was calibrated ("" = built-in defaults)
  // zipf: worker compute per key access (replaces --compute-per-key).
  // Negative: keep the workload's own --compute-per-key.
  double seconds_per_key = -1;
  // kge|wv|mf: an Augur worker's CPU seconds per training sample on the path a
  // cluster node takes (replaces --compute-per-sample). Negative: keep the flag's.
  double seconds_per_sample = -1;
  // What a sample (zipf: a key access) of a run's first epoch costs beyond
  // seconds_per_sample (seconds_per_key) (start-up: first touches of the
  // rows, page faults).
  double first_epoch_extra_seconds_per_sample = 0;
  // How seconds_per_sample / seconds_per_key were measured (one line).
  std::string worker_cost_source;
  // The same worker cost with the nodes' processes time-sliced: more
  // processes than this machine has cores, as `augur launch --local N` with N
  // above the cores. Switching and sharing the cores' caches make each
  // sample dearer than with a core per process. Measured with
  // time_sliced_processes processes of one worker each; `augur sim
  // --time-sliced` charges it. Negative: not measured.
  double seconds_per_key_time_sliced = -1;
  double seconds_per_sample_time_sliced = -1;
  uint32_t time_sliced_processes = 0;
  std::string time_sliced_cost_source;
  // Protocol-side handling of one incoming message, including the transport's
  // syscalls and wake-ups (of the I/O thread and of the worker parked for
  // the answer, at both ends): fixed + per byte.
  double seconds_per_message = 0;
  double seconds_per_message_byte = 0;
  // How seconds_per_message was measured (one line; "" = not calibrated).
  std::string message_cost_source;
  // A message that reaches a node together with others (read in the same
  // wake-up of its I/O thread: a burst of relocations, a parcel of several
  // frames) costs only its handling, not another wake-up and syscall: fixed
  // part of each message of a parcel after the first (the per-byte part as
  // above). Negative: seconds_per_message (files from before it).
  double seconds_per_coalesced_message = -1;
  // A parcel that was already waiting when the node's protocol context
  // finished the previous one: no wake-up of a sleeping thread (the real I/O
  // thread finds its socket ready at its next epoll_wait), only the socket's
  // syscalls and the handling: fixed part of its first message (the others
  // as coalesced). `augur calibrate` measures it as the handler plus a TCP
  // ping-pong with both ends on one core. Negative: seconds_per_message
  // (files from before it).
  double seconds_per_awake_message = -1;
  // The sender's CPU per byte of a frame that waits for its link to drain
  // (a shaped or saturated link: the kernel wakes the sender chunk by chunk
  // as the link takes them). Not measured by `augur calibrate` (loopback
  // never waits); scripts/bench-fidelity.sh measures it on its shaped
  // namespaces' path (scripts/lib/path_cost.py). 0: not charged.
  double seconds_per_queued_byte = 0;
  // The bytes a node's link takes at once before its sender waits: a token
  // bucket refilled at the link's rate while the link is idle (tc tbf's
  // burst; a NIC's would be the socket's send buffer). 0: every byte waits.
  double queued_byte_burst = 0;
  // How long a message that reaches a node while its workers compute on all
  // its cores waits, on average, before the node handles it: the scheduler
  // has to take a core from a worker for the I/O thread (or the parked
  // worker the answer is for). The simulator draws each such delay from an
  // exponential distribution of this mean (SimCluster::WakeupDelay).
  // Measured from the calibration run's real sync round trips against what
  // the simulator models for them without it. 0: not charged (not measured).
  double wakeup_delay_seconds = 0;
  std::string wakeup_delay_source;  // how it was measured (one line)
  // The same wait on a machine with more nodes' processes than cores (`augur
  // sim --time-sliced`), where a message waits for a core that the other
  // nodes' processes hold, busy or not its own node: every message waits a
  // draw of this mean. Fitted by `augur calibrate` so that the simulated
  // time-sliced run's epochs take as long as the real one's did.
  // Negative: not measured (wakeup_delay_seconds applies, as above).
  double time_sliced_wakeup_delay_seconds = -1;
  std::string time_sliced_wakeup_delay_source;
  uint32_t cores = 0;  // this machine's cores, in [1, 4096]; 0 = not calibrated (field absent)
  // The loopback link (one way): 0 / negative = not calibrated.
  double loopback_bandwidth_bytes_per_second = 0;
  double loopback_latency_seconds = -1;
  // How the latency was measured (one line): a ping-pong between idle cores,
  // or fitted to a real 2-process run (augur calibrate).
  std::string loopback_latency_source;
  std::string machine;     // where it was calibrated
  std::string git_commit;  // by which build

  // Simulated seconds to handle a message of `bytes`: alone, as the first of
  // a parcel that found the protocol context awake, or after the first of
  // the messages that arrived with it.
  double MessageSeconds(uint64_t bytes) const {
    return seconds_per_message + seconds_per_message_byte * static_cast<double>(bytes);
  }
  double AwakeMessageSeconds(uint64_t bytes) const {
    return MessageSecondsWith(seconds_per_awake_message, bytes);
  }
  double CoalescedMessageSeconds(uint64_t bytes) const {
    return MessageSecondsWith(seconds_per_coalesced_message, bytes);
  }
  // `fixed` (negative: seconds_per_message) + the bytes' part.
  double MessageSecondsWith(double fixed, uint64_t bytes) const {
    return (fixed >= 0 ? fixed : seconds_per_message) +
           seconds_per_message_byte * static_cast<double>(bytes);
  }
  nlohmann::json ToJson() const;
  // The fields added with core counts and the loopback link are optional.
  static Result<SimCosts> FromJson(const nlohmann::json& j);
};

// Error names the path and what is wrong with it.
Result<SimCosts> ReadCostsFile(const std::string& path);
Status WriteCostsFile(const std::string& path, const SimCosts& costs);

}  // namespace augur
