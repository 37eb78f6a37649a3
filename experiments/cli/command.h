// The augur CLI's subcommands.
//
// Each Add*Command registers one subcommand (its flags bound to its own
// state) on the root app and returns the function that runs it once parsing
// succeeded. A run function returns the process exit code: 0 success,
// 1 run failure (e.g. verification failed, a peer died), 2 bad usage.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>

namespace augur {

using CommandFn = std::function<int()>;

CommandFn AddVersionCommand(CLI::App& root);
CommandFn AddLoopbackCommand(CLI::App& root);
// TCP backend: one node, a launched cluster, the network benchmark.
CommandFn AddRunCommand(CLI::App& root);
CommandFn AddLaunchCommand(CLI::App& root);
CommandFn AddBenchNetCommand(CLI::App& root);
CommandFn AddSimCommand(CLI::App& root);
CommandFn AddCalibrateCommand(CLI::App& root);
CommandFn AddDataCommand(CLI::App& root);
CommandFn AddSingleCommand(CLI::App& root);
// Policy comparisons: a matrix of runs, results.csv, report.md, plots.
CommandFn AddCompareCommand(CLI::App& root);

// The hidden --check-flags of the training commands (single, loopback, sim,
// launch): the command checks its flags as for a run, then exits 0 without
// reading data or training. `augur compare` checks every run it plans this
// way before it starts any.
void AddCheckFlagsFlag(CLI::App& app, bool* check);

// Prints "augur: error: MESSAGE" as one line on stderr; returns 2.
int UsageError(const std::string& message);
// Prints "augur: MESSAGE" on stderr; returns 1.
int RunError(const std::string& message);
// A bad input file: prints "augur: MESSAGE" (MESSAGE is "FILE:LINE: what is
// wrong") on stderr; returns 2, as for bad usage.
int InputError(const std::string& message);

}  // namespace augur
