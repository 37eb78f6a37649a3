// ProcessCpuSeconds: this process's CPU time so far (user + system, every
// thread; getrusage RUSAGE_SELF), in seconds. What a real runtime reports as
// its node's CPU (one node per process, TcpRuntime::CpuSeconds) and what
// `augur sim` reports as its own cost. Thread-safe.
#pragma once

namespace augur {

double ProcessCpuSeconds();

}  // namespace augur
