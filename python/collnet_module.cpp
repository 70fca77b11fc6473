// The Python module `collnet` (docs/guide/python.md): the `collnet run`,
// `check` and `sweep` subcommands as functions taking a scenario dict and
// returning the JSON report as a dict, and schedules written in Python run
// on the cycle-accurate network. Every scenario goes through the same
// loading and checking as the command line (`--set key=value`), so a bad key
// raises collnet.ConfigError with the message the CLI prints after
// "collnet: error: ".
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "collectives/executor.hpp"
#include "collectives/params.hpp"
#include "collectives/schedule.hpp"
#include "testbench/check.hpp"
#include "testbench/run.hpp"
#include "testbench/run_collective.hpp"
#include "testbench/scenario.hpp"
#include "testbench/sweep.hpp"
#include "topology/topology.hpp"

namespace py = pybind11;

namespace {

using collnet::ConfigError;
using collnet::Descriptor;
using collnet::Params;
namespace cli = collnet::cli;
namespace collectives = collnet::collectives;

/// A run or check that stopped making progress (CLI exit status 3): the
/// message the CLI prints and, when the run produced one, its JSON report.
struct Deadlock {
  std::string message;
  std::string report;  // JSON text; empty: none
};

py::object json_to_python(const std::string& text) { return py::module_::import("json").attr("loads")(text); }

/// One scenario value in its text form (what `--set key=value` takes).
std::string value_text(const std::string& key, py::handle v) {
  if (py::isinstance<py::bool_>(v)) return v.cast<bool>() ? "true" : "false";
  if (py::isinstance<py::int_>(v)) return py::str(v).cast<std::string>();
  if (py::isinstance<py::float_>(v)) return py::repr(v).cast<std::string>();
  if (py::isinstance<py::str>(v)) return v.cast<std::string>();
  throw ConfigError("key '" + key + "': expected a str, int, float or bool value, got a Python " +
                    py::str(py::type::of(v).attr("__name__")).cast<std::string>());
}

/// The scenario dict as `--set key=value` overrides (keys must be str).
std::vector<std::string> overrides_of(const py::dict& scenario) {
  std::vector<std::string> sets;
  for (const auto& [k, v] : scenario) {
    if (!py::isinstance<py::str>(k))
      throw ConfigError("scenario keys are strings; got " + py::repr(k).cast<std::string>());
    const std::string key = k.cast<std::string>();
    sets.push_back(key + "=" + value_text(key, v));
  }
  return sets;
}

py::dict run(const py::dict& scenario) {
  const std::vector<std::string> sets = overrides_of(scenario);
  cli::RunOutcome outcome;
  {
    py::gil_scoped_release release;
    std::vector<std::string> problems;
    const Params params = cli::load_run_scenario("", sets, problems);
    for (auto& p : cli::run_problems(params)) problems.push_back(std::move(p));
    cli::throw_problems(problems);
    try {
      outcome = cli::run_network(params, "");
    } catch (const collectives::ExecutionError& e) {
      throw Deadlock{e.what(), ""};
    }
  }
  if (outcome.exit_status == 3) throw Deadlock{outcome.text, outcome.json.dump()};
  return json_to_python(outcome.json.dump());
}

py::dict check(const py::dict& scenario) {
  const std::vector<std::string> sets = overrides_of(scenario);
  cli::CheckOutcome outcome;
  {
    py::gil_scoped_release release;
    std::vector<std::string> problems;
    const Params params = cli::load_scenario("", sets, problems);
    for (auto& p : cli::algorithm_key_problems(params, false)) problems.push_back(std::move(p));
    cli::throw_problems(problems);
    try {
      outcome = cli::run_check(params);
    } catch (const collectives::ExecutionError& e) {
      throw Deadlock{e.what(), ""};
    }
  }
  return json_to_python(outcome.json.dump());
}

/// The collnet executable the sweep's child processes run: $COLLNET_BINARY,
/// else the one this module was built with.
std::string binary_path() {
  const char* env = std::getenv("COLLNET_BINARY");
  return env != nullptr && *env != '\0' ? std::string(env) : std::string(COLLNET_BINARY_PATH);
}

py::object sweep(const py::dict& spec, int jobs, bool as_frame, double timeout) {
  if (jobs < 0 || jobs > 4096) throw ConfigError("jobs: expected 1..4096 (0: the number of cores), got " + std::to_string(jobs));
  if (timeout < 0) throw ConfigError("timeout: expected seconds >= 0 (0: none)");
  const std::string self = binary_path();
  if (::access(self.c_str(), X_OK) != 0)
    throw ConfigError("sweep: the collnet executable '" + self +
                      "' is missing or not executable (set COLLNET_BINARY to the built collnet)");
  // JSON is YAML: the sweep file is the dict as JSON text.
  const std::string text = py::module_::import("json").attr("dumps")(spec).cast<std::string>();
  std::string dir_template = (std::filesystem::temp_directory_path() / "collnet-sweep-XXXXXX").string();
  if (::mkdtemp(dir_template.data()) == nullptr) throw std::runtime_error("sweep: cannot create a temporary directory");
  const std::filesystem::path dir(dir_template);
  struct Cleanup {
    std::filesystem::path dir;
    ~Cleanup() {
      std::error_code ec;
      std::filesystem::remove_all(dir, ec);
    }
  } cleanup{dir};
  cli::SweepOptions o;
  o.sweep_path = (dir / "sweep.yaml").string();
  o.out = (dir / "sweep.jsonl").string();
  o.jobs = jobs;
  o.timeout_seconds = timeout;
  o.self = self;
  std::ofstream(o.sweep_path) << text << "\n";
  std::vector<std::string> lines;
  {
    py::gil_scoped_release release;
    const int status = cli::run_sweep(o);
    if (status >= 128) throw std::runtime_error("sweep: interrupted by signal " + std::to_string(status - 128));
    std::vector<nlohmann::json> records;
    for (const auto& [hash, r] : cli::read_records(o.out)) records.push_back(r.json);
    std::sort(records.begin(), records.end(), [](const nlohmann::json& a, const nlohmann::json& b) {
      return a.value("index", 0) < b.value("index", 0);
    });
    for (const auto& r : records) lines.push_back(r.dump());
  }
  py::list out;
  for (const auto& l : lines) out.append(json_to_python(l));
  if (!as_frame) return out;
  return py::module_::import("pandas").attr("DataFrame")(out);
}

collnet::ReceiveOp receive_op(const std::string& name) {
  static const std::map<std::string, collnet::ReceiveOp> ops{
      {"copy", collnet::ReceiveOp::copy}, {"sum", collnet::ReceiveOp::sum}, {"product", collnet::ReceiveOp::product},
      {"max", collnet::ReceiveOp::max},   {"min", collnet::ReceiveOp::min}, {"divide", collnet::ReceiveOp::divide}};
  const auto it = ops.find(name);
  if (it == ops.end())
    throw ConfigError("send: op '" + name + "' is not a receive operation; accepted values: copy, sum, product, max, "
                      "min, divide");
  return it->second;
}

/// A schedule written in Python: per rank, a program of SENDs, WAITs and
/// BARRIERs (collectives/descriptor.hpp), END added at the end.
class PySchedule {
 public:
  explicit PySchedule(int ranks, std::optional<std::uint32_t> memory_words, std::string name)
      : memory_words_(memory_words), name_(std::move(name)) {
    if (ranks < 1 || ranks > 65536) throw ConfigError("Schedule: ranks: expected 1..65536, got " + std::to_string(ranks));
    programs_.resize(static_cast<std::size_t>(ranks));
  }

  void send(int rank, int dst, std::uint32_t src_offset, std::uint32_t dst_offset, std::uint32_t words,
            int controller, int tag, const std::string& op) {
    check_rank("rank", rank);
    check_rank("dst", dst);
    if (words < 1) throw ConfigError("send: words: expected at least 1, got 0");
    if (controller < 0 || controller > 7)
      throw ConfigError("send: controller: expected 0..7, got " + std::to_string(controller));
    check_tag(tag);
    Descriptor d = Descriptor::send(static_cast<std::uint32_t>(dst), src_offset, dst_offset, words,
                                    static_cast<std::uint32_t>(tag));
    d.controller = static_cast<std::uint8_t>(controller);
    d.op = receive_op(op);
    if (!d.fits())
      throw ConfigError("send: an offset or the size does not fit the descriptor (offsets and words < 2^20)");
    programs_[static_cast<std::size_t>(rank)].push_back(d);
  }

  void wait(int rank, const py::object& tags, std::uint32_t count) {
    check_rank("rank", rank);
    if (count < 1) throw ConfigError("wait: count: expected at least 1 message, got 0");
    std::vector<int> list;
    if (py::isinstance<py::int_>(tags)) list.push_back(tags.cast<int>());
    else for (const auto& t : tags) list.push_back(t.cast<int>());
    for (const int t : list) {
      check_tag(t);
      programs_[static_cast<std::size_t>(rank)].push_back(Descriptor::wait(static_cast<std::uint32_t>(t), count));
    }
  }

  void barrier(int rank, int number) {
    check_rank("rank", rank);
    check_tag(number);
    programs_[static_cast<std::size_t>(rank)].push_back(Descriptor::barrier(static_cast<std::uint32_t>(number)));
  }

  [[nodiscard]] int ranks() const { return static_cast<int>(programs_.size()); }
  [[nodiscard]] const std::string& name() const { return name_; }

  /// Words of memory per rank: the given size, else the highest word a SEND
  /// reads or writes.
  [[nodiscard]] std::uint32_t memory_words() const {
    std::uint32_t words = 1;
    for (const auto& program : programs_)
      for (const Descriptor& d : program)
        if (d.opcode == collnet::Opcode::send)
          words = std::max({words, d.src_offset + d.length, d.dst_offset + d.length});
    if (memory_words_ && *memory_words_ < words)
      throw ConfigError("Schedule: memory_words " + std::to_string(*memory_words_) + " is too small: a SEND uses words up to " +
                        std::to_string(words));
    return memory_words_ ? *memory_words_ : words;
  }

  [[nodiscard]] int controllers() const {
    int highest = 0;
    for (const auto& program : programs_)
      for (const Descriptor& d : program)
        if (d.opcode == collnet::Opcode::send) highest = std::max(highest, static_cast<int>(d.controller));
    return highest + 1;
  }

  [[nodiscard]] py::list program(int rank) const {
    check_rank("rank", rank);
    py::list out;
    for (const Descriptor& d : programs_[static_cast<std::size_t>(rank)]) {
      py::dict e;
      if (d.opcode == collnet::Opcode::send) {
        e["op"] = "send";
        e["dst"] = d.dest;
        e["src_offset"] = d.src_offset;
        e["dst_offset"] = d.dst_offset;
        e["words"] = d.length;
        e["controller"] = static_cast<int>(d.controller);
        e["tag"] = d.tag;
      } else if (d.opcode == collnet::Opcode::wait) {
        e["op"] = "wait";
        e["tag"] = d.tag;
        e["count"] = d.length;
      } else {
        e["op"] = "barrier";
        e["number"] = d.tag;
      }
      out.append(e);
    }
    return out;
  }

  /// The collectives::Schedule: initial memory distinct words (word a of
  /// rank e is payload_word(e, e, a)), expected memory what the functional
  /// executor leaves (empty when it cannot finish: `executor_error`).
  [[nodiscard]] collectives::Schedule build(std::string& executor_error) const {
    collectives::Schedule s;
    s.algorithm = name_;
    s.programs = programs_;
    for (auto& p : s.programs) p.push_back(Descriptor::end());
    s.memory_words = memory_words();
    s.controllers = controllers();
    s.initial = [](collnet::topology::EndpointId e, std::uint32_t a) {
      return collectives::payload_word(static_cast<std::uint64_t>(e), static_cast<std::uint64_t>(e), a);
    };
    std::vector<std::vector<collectives::Word>> memory;
    try {
      memory = collectives::execute(s).memory;
    } catch (const collectives::ExecutionError& e) {
      executor_error = std::string("functional executor: ") + e.what();
    }
    s.expected = [memory](collnet::topology::EndpointId e) {
      std::vector<collectives::Region> regions;
      if (static_cast<std::size_t>(e) < memory.size()) regions.push_back({0, memory[static_cast<std::size_t>(e)]});
      return regions;
    };
    return s;
  }

 private:
  void check_rank(const char* what, int r) const {
    if (r < 0 || r >= ranks())
      throw ConfigError(std::string(what) + ": expected a rank 0.." + std::to_string(ranks() - 1) + ", got " +
                        std::to_string(r));
  }
  static void check_tag(int t) {
    if (t < 0 || t > 65535) throw ConfigError("tag: expected 0..65535, got " + std::to_string(t));
  }

  std::vector<collectives::Program> programs_;
  std::optional<std::uint32_t> memory_words_;
  std::string name_;
};

py::dict run_schedule(const PySchedule& schedule, const std::string& topology, const py::kwargs& keys) {
  py::dict scenario;
  scenario["topology"] = topology;
  for (const auto& [k, v] : keys) scenario[k] = v;
  const std::vector<std::string> sets = overrides_of(scenario);
  std::string executor_error;
  const collectives::Schedule built = schedule.build(executor_error);
  cli::RunOutcome outcome;
  {
    py::gil_scoped_release release;
    const Params params = cli::without_problems(
        [&](std::vector<std::string>& problems) { return cli::load_scenario("", sets, problems); });
    const auto build = [&built](const collnet::topology::Topology& t) {
      if (static_cast<std::size_t>(t.endpoint_count()) != built.programs.size())
        throw ConfigError("key 'topology': the schedule has " + std::to_string(built.programs.size()) + " ranks but " +
                          t.name() + " has " + std::to_string(t.endpoint_count()) + " endpoints");
      return built;
    };
    try {
      outcome = cli::run_given_schedule(params, schedule.name(), build);
    } catch (const collectives::ExecutionError& e) {
      throw Deadlock{e.what(), ""};
    }
  }
  if (outcome.exit_status == 3) throw Deadlock{outcome.text, outcome.json.dump()};
  if (!executor_error.empty()) throw Deadlock{executor_error, outcome.json.dump()};
  return json_to_python(outcome.json.dump());
}

}  // namespace

PYBIND11_MODULE(collnet, m) {
  m.doc() = "collnet: cycle-accurate collective-communication interconnect models (docs/guide/python.md)";

  static py::exception<ConfigError> config_error(m, "ConfigError", PyExc_ValueError);
  static py::exception<Deadlock> deadlock_error(m, "DeadlockError", PyExc_RuntimeError);
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const ConfigError& e) {
      config_error(e.what());
    } catch (const Deadlock& d) {
      std::string message = d.message;
      while (!message.empty() && message.back() == '\n') message.pop_back();
      py::object err = py::reinterpret_borrow<py::object>(deadlock_error.ptr())(py::str(message));
      err.attr("result") = d.report.empty() ? py::none() : json_to_python(d.report);
      PyErr_SetObject(deadlock_error.ptr(), err.ptr());
    }
  });

  m.def("run", &run, py::arg("scenario"),
        "Run a scenario on the cycle-accurate network (as `collnet run --json`); returns the report as a dict.");
  m.def("check", &check, py::arg("scenario"),
        "Software reference and static checker (as `collnet check --json`); returns the report as a dict.");
  m.def("sweep", &sweep, py::arg("sweep"), py::kw_only(), py::arg("jobs") = 0, py::arg("as_frame") = false,
        py::arg("timeout") = 0.0,
        "Run every point of a sweep (as `collnet sweep`, child collnet processes); returns the records, ordered by "
        "point index, as a list of dicts or, with as_frame=True, a pandas DataFrame.");
  m.def("binary_path", &binary_path, "The collnet executable sweep() runs ($COLLNET_BINARY, else the built one).");

  py::class_<PySchedule>(m, "Schedule", "Per-rank descriptor programs written in Python, run by run_schedule().")
      .def(py::init<int, std::optional<std::uint32_t>, std::string>(), py::arg("ranks"), py::kw_only(),
           py::arg("memory_words") = py::none(), py::arg("name") = "python-schedule")
      .def("send", &PySchedule::send, py::arg("rank"), py::arg("dst"), py::kw_only(), py::arg("src_offset"),
           py::arg("dst_offset"), py::arg("words"), py::arg("controller") = 0, py::arg("tag") = 0,
           py::arg("op") = "copy")
      .def("wait", &PySchedule::wait, py::arg("rank"), py::arg("tags"), py::kw_only(), py::arg("count") = 1)
      .def("barrier", &PySchedule::barrier, py::arg("rank"), py::arg("number"))
      .def("program", &PySchedule::program, py::arg("rank"))
      .def_property_readonly("ranks", &PySchedule::ranks)
      .def_property_readonly("name", &PySchedule::name)
      .def_property_readonly("memory_words", &PySchedule::memory_words);

  m.def("run_schedule", &run_schedule, py::arg("schedule"), py::kw_only(), py::arg("topology"),
        "Run a Schedule on the cycle-accurate network with the given network/NIC keys; the data check compares "
        "every rank's memory with the functional executor running the same programs.");
}
