// augur: the one command-line tool (loopback, and later sim, run, launch, ...).
#include <sys/prctl.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <new>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "core/config/number_text.h"
#include "experiments/cli/command.h"
#include "experiments/report/run_result.h"

namespace augur {

int UsageError(const std::string& message) {
  std::fprintf(stderr, "augur: error: %s\n", message.c_str());
  return 2;
}

int RunError(const std::string& message) {
  std::fprintf(stderr, "augur: %s\n", message.c_str());
  return 1;
}

int InputError(const std::string& message) {
  std::fprintf(stderr, "augur: %s\n", message.c_str());
  return 2;
}

void AddCheckFlagsFlag(CLI::App& app, bool* check) {
  app.add_flag("--check-flags", *check, "Check the flags, then exit without running")
      ->group("");  // hidden: augur compare's
}

CommandFn AddVersionCommand(CLI::App& root) {
  root.add_subcommand("version", "Print the version and git commit");
  return [] {
    std::printf("augur 0.1.0 (commit %s)\n", GitCommit().c_str());
    return 0;
  };
}

namespace {

// The environment variable by which an augur process tells the augur
// processes it starts (launch --local's ranks, compare's and calibrate's
// runs) who their parent is.
constexpr const char* kParentPid = "AUGUR_PARENT_PID";

// A process another augur started ends with it: killed (kill -9 of
// `augur launch` left its ranks training under init), its children get
// SIGTERM from the kernel. Then this process announces itself to its own.
void EndWithParentAugur() {
  if (const char* parent = std::getenv(kParentPid)) {
    char* end = nullptr;
    const long pid = std::strtol(parent, &end, 10);
    if (*end == '\0' && pid > 1 && pid == static_cast<long>(getppid())) {
      prctl(PR_SET_PDEATHSIG, SIGTERM);
      if (getppid() != pid) std::exit(1);  // it died before the line above
    }
  }
  setenv(kParentPid, std::to_string(getpid()).c_str(), /*overwrite=*/1);
}

// "augur sim" / "augur data kg": the deepest subcommand being parsed, whose
// --help a parse error points to.
std::string ParsedCommand(const CLI::App& root) {
  std::string path = "augur";
  const CLI::App* app = &root;
  for (bool deeper = true; deeper;) {
    deeper = false;
    for (const CLI::App* sub : app->get_subcommands({})) {
      if (sub->parsed()) {
        path += " " + sub->get_name();
        app = sub;
        deeper = true;
        break;
      }
    }
  }
  return path;
}

// CLI11 reads a number flag with strtold and narrows it: 1e400 became inf and
// 1e-400 became 0 without a word. Every number flag given is read again with
// ParseNumber, which says which (number_text.h).
Status CheckNumberFlags(const CLI::App& app) {
  for (const CLI::Option* opt : app.get_options()) {
    if (opt->count() == 0 || opt->get_type_name().rfind("FLOAT", 0) != 0) continue;
    for (const std::string& value : opt->results()) {
      if (Result<double> v = ParseNumber(value); !v.ok())
        return v.status().WithContext(opt->get_name());
    }
  }
  for (const CLI::App* sub : app.get_subcommands({})) {
    if (!sub->parsed()) continue;
    if (Status s = CheckNumberFlags(*sub); !s.ok()) return s;
  }
  return Status::Ok();
}

// The one line an exhausted memory ends the process with.
constexpr const char* kOutOfMemory =
    "out of memory (a smaller run: fewer nodes, workers, keys or a lower --dim)";

std::terminate_handler previous_terminate = nullptr;

// What no code caught: a std::bad_alloc thrown on a thread of its own (a
// worker's, a node's I/O thread), whose exceptions end in std::terminate
// rather than in Main's catch, is the same one line and exit code 1, not an
// abort with a core dump. Anything else is a broken invariant: the previous
// handler names it and aborts.
[[noreturn]] void OnTerminate() {
  if (std::exception_ptr e = std::current_exception()) {
    try {
      std::rethrow_exception(e);
    } catch (const std::bad_alloc&) {
      std::fprintf(stderr, "augur: %s\n", kOutOfMemory);
      std::_Exit(1);  // other threads may still run: no destructors, no atexit
    } catch (...) {
    }
  }
  if (previous_terminate != nullptr) previous_terminate();
  std::abort();
}

int Main(int argc, char** argv) {
  previous_terminate = std::set_terminate(OnTerminate);
  EndWithParentAugur();
  CLI::App root(
      "Augur: an adaptive parameter server for sparse ML, on TCP, in SimGrid, or in "
      "one process",
      "augur");
  root.require_subcommand(1);
  std::vector<std::pair<CLI::App*, CommandFn>> commands;
  auto add = [&](CommandFn fn) { commands.emplace_back(root.get_subcommands({}).back(), fn); };
  add(AddVersionCommand(root));
  add(AddLoopbackCommand(root));
  add(AddDataCommand(root));
  add(AddSingleCommand(root));
  add(AddRunCommand(root));
  add(AddLaunchCommand(root));
  add(AddBenchNetCommand(root));
  add(AddSimCommand(root));
  add(AddCalibrateCommand(root));
  add(AddCompareCommand(root));
  try {
    root.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return root.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return root.exit(e);
  } catch (const CLI::ParseError& e) {
    std::string what = e.what();
    if (what.empty()) what = e.get_name();
    // CLI11 says "--keys: At Most 1 required but received 2" for a repeated flag.
    if (const size_t at = what.find(": At Most 1 required but received "); at != std::string::npos)
      what = what.substr(0, at) + " is given " +
             what.substr(at + std::string(": At Most 1 required but received ").size()) +
             " times: give it once";
    for (char& ch : what)
      if (ch == '\n') ch = ' ';
    return UsageError(what + " (see " + ParsedCommand(root) + " --help)");
  }
  if (Status s = CheckNumberFlags(root); !s.ok()) return UsageError(s.message());
  for (auto& [app, fn] : commands) {
    if (!app->parsed()) continue;
    // What the commands do not turn into an error themselves: the machine
    // refused a resource (a thread, memory). One line, not an abort.
    try {
      return fn();
    } catch (const std::system_error& e) {
      return RunError(std::string("the system refused a resource: ") + e.what() +
                      " (fewer --workers or nodes?)");
    } catch (const std::bad_alloc&) {
      return RunError(kOutOfMemory);
    }
  }
  return UsageError("no command given (see augur --help)");
}

}  // namespace
}  // namespace augur

int main(int argc, char** argv) { return augur::Main(argc, argv); }
