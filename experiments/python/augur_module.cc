// _augur: the compiled part of the Python module `augur` (pybind11).
//
// A thin binding of PythonNode (python_node.h) and core/api/worker.h. Keys
// are 1-D numpy uint64 arrays, values float32 arrays of shape (len(keys),
// length); a wrong dtype raises TypeError, a wrong shape ValueError, a bad
// option ValueError with `augur run`'s message. Every call that may wait
// releases the GIL and stays interruptible: in Python's main thread it runs
// the signal handlers every 50 ms, and when one raises (Ctrl-C:
// KeyboardInterrupt) the node is abandoned (the other nodes see this rank
// lost) and the call raises that exception. A worker is for one thread at a time: a second thread
// entering the same worker raises RuntimeError instead of corrupting it.
// An async ticket keeps its buffers alive and, if dropped unwaited, waits.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <pythread.h>

#include <atomic>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

#include "core/policy/policy.h"
#include "experiments/python/numpy_buffers.h"
#include "experiments/python/python_node.h"

namespace py = pybind11;

namespace augur {
namespace {

struct NodeHandle;

// Python's main thread (where signal handlers run), set at import.
unsigned long main_thread_ident = 0;

// The interrupt check of a thread waiting with the GIL released
// (PythonNode::Join): in the main thread, runs the pending signal handlers;
// true when one raised (KeyboardInterrupt). The exception stays set in the
// thread's state until the call has the GIL back (RaiseIfInterrupted).
bool SignalRaised() {
  if (PyThread_get_thread_ident() != main_thread_ident) return false;
  py::gil_scoped_acquire gil;
  return PyErr_CheckSignals() != 0;
}

// A worker's Python handle; the node outlives it (keep_alive).
struct WorkerHandle {
  NodeHandle* node;
  uint32_t index;
};

struct NodeHandle {
  std::unique_ptr<PythonNode> node;
  std::unique_ptr<std::atomic<bool>[]> busy;  // per worker: a call is in progress
  // Per worker: sample handles prepared and not pulled yet (touched under WorkerCall).
  std::vector<std::unordered_set<uint64_t>> samples;
};

// After a call that waited with the GIL released: a signal handler's
// exception raised meanwhile (SignalRaised) is raised now, once the node is
// abandoned (an interrupted operation may still be in flight; after
// Abandon nothing reaches its buffers).
void RaiseIfInterrupted(NodeHandle& n) {
  if (!PyErr_Occurred()) return;
  n.node->Abandon("interrupted (a signal: Ctrl-C?); the node left the cluster");
  throw py::error_already_set();
}

// Runs `wait` (returning a Status) with the GIL released, then raises an
// interrupt (RaiseIfInterrupted) or the wait's error (CheckWait).
template <typename Wait>
void Blocking(const WorkerHandle& h, Wait wait);

// Marks a worker in use for one call; refuses concurrent use and use after
// finish() or after the node failed (a lost peer, an interrupt).
class WorkerCall {
 public:
  explicit WorkerCall(const WorkerHandle& h) : flag_(h.node->busy[h.index]) {
    if (h.node->node->finished()) throw std::runtime_error("the node has finished");
    if (const Status f = h.node->node->failure(); !f.ok()) throw std::runtime_error(f.message());
    if (flag_.exchange(true))
      throw std::runtime_error("worker " + std::to_string(h.index) +
                               " is used by two threads at once: one worker per thread "
                               "(node.worker(i))");
    worker_ = &h.node->node->worker(h.index);
  }
  ~WorkerCall() { flag_.store(false); }
  Worker& operator*() const { return *worker_; }
  Worker* operator->() const { return worker_; }

 private:
  std::atomic<bool>& flag_;
  Worker* worker_ = nullptr;
};

// A wait that ended with an error (the node lost a peer and cancelled its
// workers) raises RuntimeError with the reason ("rank R: lost rank P: ...").
void CheckWait(const WorkerHandle& h, const Status& s) {
  if (s.ok()) return;
  const Status failure = h.node->node->failure();
  throw std::runtime_error(failure.ok() ? s.message() : failure.message());
}

template <typename Wait>
void Blocking(const WorkerHandle& h, Wait wait) {
  Status s;
  {
    py::gil_scoped_release release;
    s = wait();
  }
  RaiseIfInterrupted(*h.node);
  CheckWait(h, s);
}

// An asynchronous operation: holds its keys and buffer until it completed.
struct TicketHandle {
  WorkerHandle worker;
  Ticket ticket;
  std::vector<Key> keys;
  py::object buffer;
  bool done = false;

  void Wait() {
    if (done) return;
    {
      WorkerCall w(worker);
      Blocking(worker, [&] { return w->Wait(ticket); });
    }
    done = true;
    buffer = py::none();
  }
  ~TicketHandle() {
    // Finished or abandoned (a lost peer, an interrupt): nothing writes to the buffers any more.
    if (done || worker.node->node->finished() || !worker.node->node->failure().ok()) return;
    try {
      Wait();
    } catch (const std::runtime_error& e) {
      // The worker is in a call on another thread: waiting here would race
      // with it. The operation may still write, so its buffers stay alive.
      std::fprintf(stderr,
                   "augur: a ticket dropped unwaited could not wait (%s); its buffers "
                   "are kept\n",
                   e.what());
      buffer.release();
      new std::vector<Key>(std::move(keys));  // intentionally kept: the operation reads them
    }
  }
};

std::unique_ptr<TicketHandle> StartAsync(const WorkerHandle& h, bool pull,
                                         const py::handle& keys_obj, const py::handle& buf_obj) {
  py::array hold;
  std::span<const Key> keys = Keys(keys_obj, &hold);
  py::array buf = Floats(buf_obj, pull ? "out" : "values");
  const ValueLayout& layout = h.node->node->layout();
  auto t = std::make_unique<TicketHandle>();
  t->worker = h;
  t->keys.assign(keys.begin(), keys.end());
  WorkerCall w(h);
  const size_t total = w->TotalLength(t->keys);
  CheckValues(layout, t->keys, total, buf, pull ? "out" : "values");
  if (pull) {
    if (!(buf.flags() & py::array::c_style) || !buf.writeable())
      throw py::value_error("out must be C-contiguous and writeable (it is written in place)");
    t->buffer = buf;
    std::span<float> out(static_cast<float*>(buf.mutable_data()), total);
    py::gil_scoped_release release;
    t->ticket = w->Pull(t->keys, out);
  } else {
    py::array c = py::array_t<float, py::array::c_style>::ensure(buf);
    t->buffer = c;
    std::span<const float> in(static_cast<const float*>(c.data()), total);
    CheckFinite(layout, t->keys, in, "values");
    py::gil_scoped_release release;
    t->ticket = w->Push(t->keys, in);
  }
  return t;
}

// Push or Set, waited for.
void Write(const WorkerHandle& h, bool set, const py::handle& keys_obj,
           const py::handle& values_obj) {
  py::array hold;
  std::span<const Key> keys = Keys(keys_obj, &hold);
  py::array v = Floats(values_obj, "values");
  WorkerCall w(h);
  const size_t total = w->TotalLength(keys);
  CheckValues(h.node->node->layout(), keys, total, v, "values");
  py::array c = py::array_t<float, py::array::c_style>::ensure(v);
  std::span<const float> in(static_cast<const float*>(c.data()), total);
  CheckFinite(h.node->node->layout(), keys, in, "values");
  if (keys.empty()) return;
  Blocking(h, [&] { return w->Wait(set ? w->Set(keys, in) : w->Push(keys, in)); });
}

py::array Pull(const WorkerHandle& h, const py::handle& keys_obj) {
  py::array hold;
  std::span<const Key> keys = Keys(keys_obj, &hold);
  std::optional<uint32_t> len = UniformLength(h.node->node->layout(), keys);
  if (!len)
    throw py::value_error(
        "keys have values of different lengths: pull them apart, or use "
        "pull_async with a flat out array");
  py::array_t<float> out({static_cast<py::ssize_t>(keys.size()), static_cast<py::ssize_t>(*len)});
  if (keys.empty()) return out;
  WorkerCall w(h);
  std::span<float> o(out.mutable_data(), keys.size() * *len);
  Blocking(h, [&] { return w->Wait(w->Pull(keys, o)); });
  return out;
}

py::object JsonToPython(const nlohmann::json& j) {
  return py::module_::import("json").attr("loads")(j.dump());
}

nlohmann::json PythonToJson(const py::handle& obj) {
  const std::string text = py::module_::import("json").attr("dumps")(obj).cast<std::string>();
  return nlohmann::json::parse(text);
}

std::unique_ptr<NodeHandle> Join(uint32_t dim,
                                 const std::vector<std::tuple<Key, Key, uint32_t>>& layout,
                                 const std::vector<std::pair<std::string, std::string>>& options,
                                 const std::string& optimizer, double lr,
                                 double initial_accumulator, double init_scale,
                                 std::optional<std::pair<Key, Key>> sample_range,
                                 const std::string& workload) {
  JoinRequest r;
  r.dim = dim;
  for (const auto& [first, last, length] : layout) r.layout.push_back({first, last, length});
  r.options = options;
  r.optimizer = optimizer;
  r.lr = lr;
  r.initial_accumulator = initial_accumulator;
  r.init_scale = init_scale;
  r.sample_range = sample_range;
  r.workload = workload;
  Result<JoinOptions> o = ParseJoinOptions(r);
  if (!o.ok()) throw py::value_error(o.status().message());
  Result<std::unique_ptr<PythonNode>> node = [&] {
    py::gil_scoped_release release;
    return PythonNode::Join(std::move(*o), SignalRaised);
  }();
  if (PyErr_Occurred()) throw py::error_already_set();  // interrupted: the join failed
  if (!node.ok()) throw std::runtime_error(node.status().message());
  auto h = std::make_unique<NodeHandle>();
  h->node = std::move(*node);
  h->busy = std::make_unique<std::atomic<bool>[]>(h->node->num_workers());
  h->samples.resize(h->node->num_workers());
  return h;
}

}  // namespace
}  // namespace augur

PYBIND11_MODULE(_augur, m) {
  using namespace augur;
  main_thread_ident =
      py::module_::import("threading").attr("main_thread")().attr("ident").cast<unsigned long>();
  m.doc() = "Augur parameter server: the compiled core (use the `augur` package)";
  m.def("join", &Join, py::arg("dim"), py::arg("layout"), py::arg("options"), py::arg("optimizer"),
        py::arg("lr"), py::arg("initial_accumulator"), py::arg("init_scale"),
        py::arg("sample_range"), py::arg("workload"));
  m.def("option_names", &JoinOptionNames);
  m.def("policy_names", &PolicyNames);

  py::class_<NodeHandle>(m, "Node")
      .def_property_readonly("rank", [](const NodeHandle& n) { return n.node->rank(); })
      .def_property_readonly("num_nodes", [](const NodeHandle& n) { return n.node->num_nodes(); })
      .def_property_readonly("num_workers",
                             [](const NodeHandle& n) { return n.node->num_workers(); })
      .def_property_readonly("dim",
                             [](const NodeHandle& n) { return n.node->layout().default_length(); })
      .def_property_readonly(
          "optimizer",
          [](const NodeHandle& n) {
            return std::string(OptimizerKindName(n.node->options().node.optimizer.kind));
          })
      .def_property_readonly(
          "lr", [](const NodeHandle& n) { return n.node->options().node.optimizer.learning_rate; })
      .def_property_readonly("finished", [](const NodeHandle& n) { return n.node->finished(); })
      .def("length", [](const NodeHandle& n, Key k) { return n.node->layout().Length(k); })
      .def_property_readonly("layout",
                             [](const NodeHandle& n) {
                               std::vector<std::tuple<Key, Key, uint32_t>> out;
                               for (const ValueLayout::Range& r : n.node->layout().ranges())
                                 out.emplace_back(r.begin, r.end - 1, r.length);
                               return out;
                             })
      .def(
          "worker",
          [](NodeHandle& n, uint32_t i) {
            if (i >= n.node->num_workers())
              throw py::value_error(
                  "worker " + std::to_string(i) + " does not exist: the node has " +
                  std::to_string(n.node->num_workers()) + " (augur.join(workers=...))");
            return WorkerHandle{&n, i};
          },
          py::keep_alive<0, 1>())
      .def("metrics", [](NodeHandle& n) { return JsonToPython(n.node->Metrics()); })
      .def(
          "finish",
          [](NodeHandle& n, std::vector<double> epoch_seconds, uint64_t samples,
             std::optional<bool> verified, py::object extra, bool drain) {
            PythonReport r;
            r.epoch_seconds = std::move(epoch_seconds);
            r.samples = samples;
            r.verified = verified;
            if (!extra.is_none()) r.extra = PythonToJson(extra);
            if (!r.extra->is_object()) throw py::value_error("extra must be a dict");
            if (Status s = n.node->CheckReport(r); !s.ok()) throw py::value_error(s.message());
            for (uint32_t i = 0; i < n.node->num_workers(); ++i)
              if (n.busy[i].load())
                throw std::runtime_error("finish() while a worker is in a call");
            Result<nlohmann::json> j = [&] {
              py::gil_scoped_release release;
              return n.node->Finish(r, drain);
            }();
            if (PyErr_Occurred()) throw py::error_already_set();  // interrupted while draining
            if (!j.ok()) throw std::runtime_error(j.status().message());
            return JsonToPython(*j);
          },
          py::arg("epoch_seconds"), py::arg("samples"), py::arg("verified"), py::arg("extra"),
          py::arg("drain"))
      .def(
          "abandon",
          [](NodeHandle& n, const std::string& why) {
            if (!n.node->finished()) n.node->Abandon(why);
          },
          py::arg("why"));

  py::class_<TicketHandle>(m, "Ticket").def_property_readonly("done", [](const TicketHandle& t) {
    return t.done;
  });

  py::class_<WorkerHandle>(m, "Worker")
      .def_property_readonly("id", [](const WorkerHandle& h) { return h.index; })
      .def_property_readonly("rank", [](const WorkerHandle& h) { return h.node->node->rank(); })
      .def_property_readonly("node",
                             [](const WorkerHandle& h) {
                               return py::cast(h.node, py::return_value_policy::reference);
                             })
      .def_property_readonly("clock",
                             [](const WorkerHandle& h) { return (*WorkerCall(h)).clock(); })
      .def_property_readonly("uses_intent",
                             [](const WorkerHandle& h) { return (*WorkerCall(h)).UsesIntent(); })
      .def("pull", &Pull, py::arg("keys"))
      .def(
          "push", [](const WorkerHandle& h, py::handle k, py::handle v) { Write(h, false, k, v); },
          py::arg("keys"), py::arg("values"))
      .def(
          "set", [](const WorkerHandle& h, py::handle k, py::handle v) { Write(h, true, k, v); },
          py::arg("keys"), py::arg("values"))
      .def(
          "pull_async",
          [](const WorkerHandle& h, py::handle k, py::handle out) {
            return StartAsync(h, true, k, out);
          },
          py::arg("keys"), py::arg("out"), py::keep_alive<0, 1>())
      .def(
          "push_async",
          [](const WorkerHandle& h, py::handle k, py::handle v) {
            return StartAsync(h, false, k, v);
          },
          py::arg("keys"), py::arg("values"), py::keep_alive<0, 1>())
      .def(
          "wait",
          [](const WorkerHandle& h, TicketHandle& t) {
            if (t.worker.node != h.node || t.worker.index != h.index)
              throw py::value_error("the ticket belongs to another worker");
            t.Wait();
          },
          py::arg("ticket"))
      .def(
          "intent",
          [](const WorkerHandle& h, py::handle k, Clock start, Clock end) {
            if (end <= start)
              throw py::value_error("intent: end (" + std::to_string(end) +
                                    ") must be after start (" + std::to_string(start) + ")");
            py::array hold;
            std::span<const Key> keys = Keys(k, &hold);
            WorkerCall w(h);
            py::gil_scoped_release release;
            w->Intent(keys, start, end);
          },
          py::arg("keys"), py::arg("start"), py::arg("end"))
      .def("advance_clock",
           [](const WorkerHandle& h) {
             WorkerCall w(h);
             py::gil_scoped_release release;
             w->AdvanceClock();
           })
      .def("barrier",
           [](const WorkerHandle& h) {
             WorkerCall w(h);
             Blocking(h, [&] { return w->Barrier(); });
           })
      .def("wait_sync",
           [](const WorkerHandle& h) {
             WorkerCall w(h);
             Blocking(h, [&] { return w->WaitSync(); });
           })
      .def("wait_all",
           [](const WorkerHandle& h) {
             WorkerCall w(h);
             Blocking(h, [&] { return w->WaitAll(); });
           })
      .def(
          "prepare_sample",
          [](const WorkerHandle& h, uint32_t k, Clock start, Clock end) {
            if (!h.node->node->options().node.sampling.draw)
              throw std::runtime_error(
                  "prepare_sample needs a distribution: augur.join(sample_range=(first, last))");
            if (end <= start) throw py::value_error("prepare_sample: end must be after start");
            WorkerCall w(h);
            uint64_t id;
            {
              py::gil_scoped_release release;
              id = w->PrepareSample(k, start, end).id;
            }
            RaiseIfInterrupted(*h.node);
            h.node->samples[h.index].insert(id);
            return id;
          },
          py::arg("k"), py::arg("start"), py::arg("end"))
      .def(
          "pull_sample",
          [](const WorkerHandle& h, uint64_t id) {
            std::vector<Key> keys;
            std::vector<float> values;
            {
              WorkerCall w(h);
              if (h.node->samples[h.index].erase(id) == 0)
                throw py::value_error("sample handle " + std::to_string(id) +
                                      " is unknown or already pulled (by this worker)");
              {
                py::gil_scoped_release release;
                w->PullSample(SampleHandle{id}, &keys, &values);
              }
              RaiseIfInterrupted(*h.node);
            }
            py::array_t<uint64_t> k(static_cast<py::ssize_t>(keys.size()), keys.data());
            std::optional<uint32_t> len = UniformLength(h.node->node->layout(), keys);
            py::array_t<float> v =
                len ? py::array_t<float>(
                          {static_cast<py::ssize_t>(keys.size()), static_cast<py::ssize_t>(*len)},
                          values.data())
                    : py::array_t<float>(static_cast<py::ssize_t>(values.size()), values.data());
            return py::make_tuple(k, v);
          },
          py::arg("handle"));
}
