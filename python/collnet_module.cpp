// The Python module `collnet` (docs/guide/python.md): the `collnet run`,
// `check` and `sweep` subcommands as functions taking a scenario dict and
// returning the JSON report as a dict, and schedules written in Python run
// on the cycle-accurate network. Every scenario goes through the same
// loading and checking as the command line (`--set key=value`), so a bad key
// raises collnet.ConfigError with the message the CLI prints after
// "collnet run: error: ". The functions' own arguments are checked here, each
// bad one a ConfigError naming it and what it accepts (never pybind11's
// TypeError listing C++ signatures): the functions take (*args, **kwargs)
// and match them against the parameters their docstrings give. Ctrl-C
// during a run stops it (SignalWatch) and raises KeyboardInterrupt.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "collectives/executor.hpp"
#include "collectives/input_text.hpp"
#include "collectives/params.hpp"
#include "collectives/schedule.hpp"
#include "systemc/kernel/run_progress.hpp"
#include "cli/check.hpp"
#include "cli/run.hpp"
#include "cli/run_collective.hpp"
#include "cli/scenario.hpp"
#include "cli/sweep.hpp"
#include "topology/topology.hpp"

namespace py = pybind11;

namespace {

using collnet::ConfigError;
using collnet::Descriptor;
using collnet::Params;
namespace cli = collnet::cli;
namespace collectives = collnet::collectives;
namespace layout = collnet::descriptor_layout;

/// A run or check that stopped making progress (CLI exit status 3): the
/// message the CLI prints and, when the run produced one, its JSON report.
struct Deadlock {
  std::string message;
  std::string report;  // JSON text; empty: none
};

py::object json_to_python(const std::string& text) { return py::module_::import("json").attr("loads")(text); }

// ---------------------------------------------------------------------------
// Values from Python. Numbers are taken as Python's own conversions take
// them: an integer is anything with __index__ (int, numpy integers), a real
// anything with __float__ (float, numpy floats); a bool is a bool or a
// numpy bool (which has no __index__, and must not pass as a real).

/// A value as shown in a message: its repr, shortened, and its type when
/// the repr does not tell it.
std::string shown(py::handle v) {
  std::string r = py::repr(v).cast<std::string>();
  if (r.size() > 60) r = r.substr(0, 57) + "...";
  if (py::isinstance<py::int_>(v) || py::isinstance<py::float_>(v) || py::isinstance<py::str>(v)) return r;
  return r + " (" + py::str(py::type::of(v).attr("__name__")).cast<std::string>() + ")";
}

/// A Python bool or a numpy bool (numpy is looked up only when loaded: no
/// numpy value exists otherwise).
bool is_bool(py::handle v) {
  if (py::isinstance<py::bool_>(v)) return true;
  const py::dict modules = py::module_::import("sys").attr("modules");
  if (!modules.contains("numpy")) return false;
  return py::isinstance(v, modules["numpy"].attr("bool_"));
}

/// An array of one or more dimensions (numpy's have __index__ and
/// __float__ slots that fail or take their one element): not a scalar.
bool is_array(py::handle v) { return py::hasattr(v, "ndim") && py::int_(v.attr("ndim")).cast<long>() != 0; }

/// The value of an integer (anything __index__ takes, bools aside) as a
/// Python int; nullopt for anything else.
std::optional<py::int_> integer_of(py::handle v) {
  if (is_bool(v) || PyIndex_Check(v.ptr()) == 0 || is_array(v)) return std::nullopt;
  PyObject* i = PyNumber_Index(v.ptr());
  if (i == nullptr) {
    PyErr_Clear();
    return std::nullopt;
  }
  return py::reinterpret_steal<py::int_>(i);
}

/// The value of a real number (anything __float__ takes: not a bool, text
/// or a complex number); nullopt for anything else.
std::optional<double> real_of(py::handle v) {
  if (is_bool(v) || py::isinstance<py::str>(v) || py::isinstance<py::bytes>(v) || PyComplex_Check(v.ptr()) ||
      is_array(v) || !py::hasattr(v, "__float__"))
    return std::nullopt;
  // numpy's complex64 is no Python complex, but a numbers.Complex that is
  // not a numbers.Real.
  const py::module_ numbers = py::module_::import("numbers");
  if (py::isinstance(v, numbers.attr("Complex")) && !py::isinstance(v, numbers.attr("Real"))) return std::nullopt;
  const double x = PyFloat_AsDouble(v.ptr());
  if (x == -1.0 && PyErr_Occurred() != nullptr) {
    PyErr_Clear();
    return std::nullopt;
  }
  return x;
}

/// One scenario value in its text form (what `--set key=value` takes).
std::string value_text(const std::string& key, py::handle v) {
  if (is_bool(v)) return PyObject_IsTrue(v.ptr()) != 0 ? "true" : "false";
  if (py::isinstance<py::str>(v)) return v.cast<std::string>();
  if (const auto i = integer_of(v)) return py::str(py::handle(*i)).cast<std::string>();
  // repr of the Python float: the shortest text that reads back as the same
  // double (numpy 2's repr of its scalars would add "np.float64(...)").
  if (const auto x = real_of(v)) return py::repr(py::float_(*x)).cast<std::string>();
  throw ConfigError("key '" + key + "': expected a str, int, float or bool value (numpy scalars too), got " + shown(v));
}

// ---------------------------------------------------------------------------
// Arguments.

/// One call's arguments matched against the parameters of the function:
/// those that may come by position (in order) and the keyword-only ones.
/// A surplus positional, unknown or repeated keyword, or missing required
/// argument is a ConfigError naming it and listing the parameters. An
/// argument given as None counts as not given (every default is None or a
/// value None stands for).
class Arguments {
 public:
  Arguments(std::string function, const py::args& args, const py::kwargs& kwargs, std::vector<std::string> positional,
            std::vector<std::string> keywords, std::vector<std::string> required, bool extra_keywords = false)
      : function_(std::move(function)), positional_(std::move(positional)), keywords_(std::move(keywords)) {
    if (args.size() > positional_.size())
      fail(fmt::format("takes {} positional argument{} ({}), got {}; the others are keywords: {}", positional_.size(),
                       positional_.size() == 1 ? "" : "s", list(positional_), args.size(), list(keywords_)));
    for (std::size_t i = 0; i < args.size(); ++i) given_[positional_[i]] = args[i];
    for (const auto& [k, v] : kwargs) {
      const std::string name = k.cast<std::string>();
      if (!known(name)) {
        if (extra_keywords) {
          extra_.emplace_back(name, py::reinterpret_borrow<py::object>(v));
          continue;
        }
        const std::string near = collnet::nearest(name, parameters());
        fail("unknown argument '" + name + "'" + (near.empty() ? "" : " (did you mean '" + near + "'?)") +
             "; accepted arguments: " + list(parameters()));
      }
      if (given_.count(name) != 0) fail("argument '" + name + "' given twice (by position and by keyword)");
      given_[name] = py::reinterpret_borrow<py::object>(v);
    }
    for (const auto& r : required)
      if (!has(r)) fail("argument '" + r + "' is required; accepted arguments: " + list(parameters()));
  }

  [[nodiscard]] bool has(const std::string& name) const {
    const auto it = given_.find(name);
    return it != given_.end() && !it->second.is_none();
  }
  /// The argument, None when not given.
  py::object operator[](const std::string& name) const { return has(name) ? given_.at(name) : py::none(); }
  /// Keywords beyond the parameters (with extra_keywords), in call order.
  [[nodiscard]] const std::vector<std::pair<std::string, py::object>>& extra() const { return extra_; }

  /// A ConfigError about argument `name`: "run: argument 'json': WHAT".
  [[noreturn]] void fail(const std::string& name, const std::string& what) const {
    fail("argument '" + name + "': " + what);
  }
  [[noreturn]] void fail(const std::string& what) const { throw ConfigError(function_ + ": " + what); }

  /// An integer from lo to hi; `fallback` when not given.
  [[nodiscard]] long long integer(const std::string& name, long long lo, long long hi, long long fallback = 0,
                                  const std::string& meaning = "") const {
    if (!has(name)) return fallback;
    return integer_value(name, (*this)[name], lo, hi, meaning);
  }
  [[nodiscard]] long long integer_value(const std::string& name, py::handle v, long long lo, long long hi,
                                        const std::string& meaning = "") const {
    const std::string accepted = fmt::format("an integer from {} to {}{}", lo, hi, meaning);
    const auto i = integer_of(v);
    if (!i) fail(name, "expected " + accepted + ", got " + shown(v));
    int overflow = 0;
    const long long x = PyLong_AsLongLongAndOverflow(i->ptr(), &overflow);
    if (overflow != 0 || x < lo || x > hi) fail(name, "expected " + accepted + ", got " + shown(v));
    return x;
  }
  /// A finite real number from lo to hi; `fallback` when not given.
  [[nodiscard]] double real(const std::string& name, double lo, double hi, double fallback,
                            const std::string& meaning = "") const {
    if (!has(name)) return fallback;
    const py::object v = (*this)[name];
    const std::string accepted = fmt::format("a number from {:g} to {:g}{}", lo, hi, meaning);
    const auto x = real_of(v);
    if (!x || !std::isfinite(*x) || *x < lo || *x > hi) fail(name, "expected " + accepted + ", got " + shown(v));
    return *x;
  }
  /// True or False (numpy bools too); `fallback` when not given.
  [[nodiscard]] bool boolean(const std::string& name, bool fallback) const {
    if (!has(name)) return fallback;
    const py::object v = (*this)[name];
    if (!is_bool(v)) fail(name, "expected True or False, got " + shown(v));
    return PyObject_IsTrue(v.ptr()) != 0;
  }
  /// A str; `fallback` when not given.
  [[nodiscard]] std::string text(const std::string& name, const std::string& fallback) const {
    if (!has(name)) return fallback;
    const py::object v = (*this)[name];
    if (!py::isinstance<py::str>(v)) fail(name, "expected a str, got " + shown(v));
    return v.cast<std::string>();
  }
  /// A file to write: a str or an os.PathLike (pathlib.Path); "" when not given.
  [[nodiscard]] std::string path(const std::string& name) const {
    if (!has(name)) return "";
    const py::object v = (*this)[name];
    const std::string accepted = "expected a file path (a str or a pathlib.Path), got ";
    if (!py::isinstance<py::str>(v) && !py::hasattr(v, "__fspath__")) fail(name, accepted + shown(v));
    const py::object p = py::module_::import("os").attr("fspath")(v);
    if (!py::isinstance<py::str>(p)) fail(name, accepted + shown(v));
    std::string s = p.cast<std::string>();
    if (s.empty()) fail(name, accepted + "''");
    return s;
  }
  /// A dict (any mapping) with str keys.
  [[nodiscard]] py::dict mapping(const std::string& name, const std::string& what) const {
    const py::object v = (*this)[name];
    if (!py::isinstance(v, py::module_::import("collections.abc").attr("Mapping")))
      fail(name, "expected " + what + " (a dict), got " + shown(v));
    return py::dict(v);
  }

  [[nodiscard]] const std::string& function() const { return function_; }

 private:
  [[nodiscard]] std::vector<std::string> parameters() const {
    std::vector<std::string> all = positional_;
    all.insert(all.end(), keywords_.begin(), keywords_.end());
    return all;
  }
  [[nodiscard]] bool known(const std::string& name) const {
    const auto all = parameters();
    return std::find(all.begin(), all.end(), name) != all.end();
  }
  static std::string list(const std::vector<std::string>& names) {
    std::string s;
    for (const auto& n : names) s += (s.empty() ? "" : ", ") + n;
    return s.empty() ? "none" : s;
  }

  std::string function_;
  std::vector<std::string> positional_, keywords_;
  std::map<std::string, py::object> given_;
  std::vector<std::pair<std::string, py::object>> extra_;
};

/// The scenario dict as `--set key=value` overrides (keys must be str). A
/// None value leaves the key at its default, as a report's null scenario
/// values do for `--from`: a report's `scenario` runs again as it is.
std::vector<std::string> overrides_of(const py::dict& scenario) {
  std::vector<std::string> sets;
  for (const auto& [k, v] : scenario) {
    if (!py::isinstance<py::str>(k))
      throw ConfigError("scenario keys are strings; got " + py::repr(k).cast<std::string>());
    if (v.is_none()) continue;
    const std::string key = k.cast<std::string>();
    sets.push_back(key + "=" + value_text(key, v));
  }
  return sets;
}

/// The output files a run writes, as `collnet run --vcd FILE --trace
/// FILE.csv [--trace-links] --json FILE` writes them; the problems of each
/// name its argument.
struct RunFiles {
  std::string vcd;
  cli::TraceRequest trace;
  std::string json;

  explicit RunFiles(const Arguments& a) : vcd(a.path("vcd")), json(a.path("json")) {
    trace.path = a.path("trace");
    trace.links = a.boolean("trace_links", false);
    trace.path_option = "argument 'trace'";
    trace.links_option = "argument 'trace_links'";
  }

  /// Every problem of the files (the scenario's problems come first).
  void add_problems(const Params& params, std::vector<std::string>& problems) const {
    for (const auto& p : {cli::output_path_problem("argument 'json'", json), cli::output_path_problem("argument 'vcd'", vcd),
                          vcd.empty() ? std::string() : cli::output_path_problem("argument 'vcd'", vcd + ".gtkw")})
      if (!p.empty()) problems.push_back(p);
    for (auto& p : cli::trace_problems(params, trace)) problems.push_back(std::move(p));
  }
};

/// Ctrl-C during a run. The run releases the GIL, and the kernel runs in
/// slices of simulated time (systemc/kernel/run_progress.hpp: about 200k
/// router-cycles, tens of milliseconds); after each slice the progress
/// callback takes the GIL back and lets Python run the handlers of the
/// signals that arrived (PyErr_CheckSignals, which runs them in the main
/// thread only, as Python does). A handler that raises (SIGINT's default
/// one: KeyboardInterrupt) asks the kernel to stop: the run ends after that
/// slice with the figures so far (`interrupted`), and the exception is
/// raised once the run has returned, its report attached as `result`.
class SignalWatch {
 public:
  SignalWatch() { collnet::systemc::clear_interrupt(); }  // an earlier run's request stops nothing
  ~SignalWatch() { collnet::systemc::clear_interrupt(); }
  SignalWatch(const SignalWatch&) = delete;
  SignalWatch& operator=(const SignalWatch&) = delete;

  /// The progress callback of the run (called without the GIL).
  [[nodiscard]] collnet::systemc::RunProgressFn callback() {
    return [this](const collnet::systemc::RunSnapshot&) {
      if (error_) return;
      py::gil_scoped_acquire gil;
      if (PyErr_CheckSignals() != 0) {
        error_ = std::make_unique<py::error_already_set>();  // takes the handler's exception
        collnet::systemc::request_interrupt();
      }
    };
  }

  /// With the GIL, after the run: the handler's exception, if one was
  /// raised, with the run's report as its attribute `result`.
  void raise(const nlohmann::json& report) {
    if (!error_) return;
    error_->value().attr("result") = json_to_python(report.dump());
    error_->restore();
    error_.reset();
    throw py::error_already_set();
  }

 private:
  std::unique_ptr<py::error_already_set> error_;
};

/// The report of a finished run: written to the `json` file (also when the
/// run was interrupted or deadlocked, as the CLI does); a signal handler's
/// exception (KeyboardInterrupt) raised; DeadlockError on exit status 3;
/// else the report returned.
py::dict report(cli::RunOutcome& outcome, const std::string& json_path, SignalWatch& watch,
                const std::string& executor_error = "") {
  // As `collnet run`: a run whose compared baseline was cut short says so too.
  if (!outcome.interrupted.empty()) outcome.json["interrupted"] = true;
  {
    py::gil_scoped_release release;
    cli::write_json_report("argument 'json'", json_path, outcome.json);
  }
  watch.raise(outcome.json);
  if (outcome.exit_status == 3) throw Deadlock{outcome.text, outcome.json.dump()};
  if (!executor_error.empty()) throw Deadlock{executor_error, outcome.json.dump()};
  return json_to_python(outcome.json.dump());
}

py::dict run(const py::args& args, const py::kwargs& kwargs) {
  const Arguments a("run", args, kwargs, {"scenario"}, {"vcd", "trace", "trace_links", "json"}, {"scenario"});
  const std::vector<std::string> sets = overrides_of(a.mapping("scenario", "a scenario"));
  const RunFiles files(a);
  cli::RunOutcome outcome;
  SignalWatch watch;
  {
    py::gil_scoped_release release;
    std::vector<std::string> problems;
    const Params params = cli::load_run_scenario("", sets, problems);
    for (auto& p : cli::run_problems(params)) problems.push_back(std::move(p));
    files.add_problems(params, problems);
    cli::throw_problems(problems);
    try {
      outcome = cli::run_network(params, files.vcd, watch.callback(), files.trace);
    } catch (const collectives::ExecutionError& e) {
      throw Deadlock{e.what(), ""};
    }
  }
  return report(outcome, files.json, watch);
}

py::dict check(const py::args& args, const py::kwargs& kwargs) {
  const Arguments a("check", args, kwargs, {"scenario"}, {"json"}, {"scenario"});
  const std::vector<std::string> sets = overrides_of(a.mapping("scenario", "a scenario"));
  const std::string json_path = a.path("json");
  cli::CheckOutcome outcome;
  {
    py::gil_scoped_release release;
    std::vector<std::string> problems;
    const Params params = cli::load_scenario("", sets, problems);
    for (auto& p : cli::algorithm_key_problems(params, false)) problems.push_back(std::move(p));
    if (const auto p = cli::output_path_problem("argument 'json'", json_path); !p.empty()) problems.push_back(p);
    cli::throw_problems(problems);
    try {
      outcome = cli::run_check(params);
    } catch (const collectives::ExecutionError& e) {
      throw Deadlock{e.what(), ""};
    }
    cli::write_json_report("argument 'json'", json_path, outcome.json);
  }
  return json_to_python(outcome.json.dump());
}

/// The collnet executable the sweep's child processes run: $COLLNET_BINARY,
/// else the one this module was built with.
std::string binary_path() {
  const char* env = std::getenv("COLLNET_BINARY");
  return env != nullptr && *env != '\0' ? std::string(env) : std::string(COLLNET_BINARY_PATH);
}

/// json.dumps's `default` for a sweep dict: numpy scalars and arrays as the
/// Python numbers and lists they hold; anything else is not a sweep value.
py::object sweep_json_value(const std::string& function, py::handle v) {
  if (is_bool(v)) return py::bool_(PyObject_IsTrue(v.ptr()) != 0);
  if (const auto i = integer_of(v)) return *i;
  if (const auto x = real_of(v)) return py::float_(*x);
  if (is_array(v) && py::hasattr(v, "tolist")) return v.attr("tolist")();  // a numpy array: its values as a list
  throw ConfigError(function + ": argument 'sweep': expected str, int, float and bool values (numpy scalars and arrays "
                    "too), lists and dicts, got " + shown(v));
}

py::object sweep(const py::args& args, const py::kwargs& kwargs) {
  const Arguments a("sweep", args, kwargs, {"sweep"}, {"jobs", "as_frame", "timeout"}, {"sweep"});
  const py::dict spec = a.mapping("sweep", "a sweep (keys base, axes, zip)");
  cli::SweepOptions o;
  // The ranges of `collnet sweep --jobs` and `--timeout`; no jobs: one per core.
  o.jobs = static_cast<int>(a.integer("jobs", 1, 4096, 0, " (points run at once; None: the number of cores)"));
  o.timeout_seconds = a.real("timeout", 0, 1e9, 0, " (seconds a point may run; 0: no limit)");
  const bool as_frame = a.boolean("as_frame", false);
  const std::string self = binary_path();
  if (::access(self.c_str(), X_OK) != 0)
    throw ConfigError("sweep: the collnet executable '" + self +
                      "' is missing or not executable (set COLLNET_BINARY to the built collnet)");
  // JSON is YAML: the sweep file is the dict as JSON text.
  const py::cpp_function as_json_value([](py::handle v) { return sweep_json_value("sweep", v); });
  const std::string text =
      py::module_::import("json").attr("dumps")(spec, py::arg("default") = as_json_value).cast<std::string>();
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
  o.sweep_path = (dir / "sweep.yaml").string();
  o.out = (dir / "sweep.jsonl").string();
  o.self = self;
  std::ofstream(o.sweep_path) << text << "\n";
  std::vector<std::string> lines;
  int status = 0;
  {
    py::gil_scoped_release release;
    status = cli::run_sweep(o);
    std::vector<nlohmann::json> records;
    for (const auto& [hash, r] : cli::read_records(o.out)) records.push_back(r.json);
    std::sort(records.begin(), records.end(), [](const nlohmann::json& x, const nlohmann::json& y) {
      return x.value("index", 0) < y.value("index", 0);
    });
    for (const auto& r : records) lines.push_back(r.dump());
  }
  // Ctrl-C stops the sweep (its children and the points not started) as it
  // stops `collnet sweep`; here it is the KeyboardInterrupt Python expects.
  if (status == 128 + SIGINT) {
    PyErr_SetNone(PyExc_KeyboardInterrupt);
    throw py::error_already_set();
  }
  if (status >= 128) throw std::runtime_error("sweep: interrupted by signal " + std::to_string(status - 128));
  py::list out;
  for (const auto& l : lines) out.append(json_to_python(l));
  if (!as_frame) return out;
  return py::module_::import("pandas").attr("DataFrame")(out);
}

// ---------------------------------------------------------------------------
// Schedules.

collnet::ReceiveOp receive_op(const Arguments& a) {
  static const std::map<std::string, collnet::ReceiveOp> ops{
      {"copy", collnet::ReceiveOp::copy}, {"sum", collnet::ReceiveOp::sum}, {"product", collnet::ReceiveOp::product},
      {"max", collnet::ReceiveOp::max},   {"min", collnet::ReceiveOp::min}, {"divide", collnet::ReceiveOp::divide}};
  const std::string name = a.text("op", "copy");
  const auto it = ops.find(name);
  if (it == ops.end())
    a.fail("op", "'" + name + "' is not a receive operation; accepted values: copy, sum, product, max, min, divide");
  return it->second;
}

/// The largest value of a descriptor field.
long long field_max(const collnet::DescriptorField& f) { return static_cast<long long>(f.max()); }

/// A schedule written in Python: per rank, a program of SENDs, WAITs and
/// BARRIERs (collectives/descriptor.hpp), END added at the end.
class PySchedule {
 public:
  /// The most ranks a schedule has: the destinations a descriptor can name.
  static constexpr long long kMaxRanks = (1LL << layout::dest.width);
  /// The most words of memory a descriptor can address (offset + words).
  static constexpr long long kMaxMemoryWords = static_cast<long long>(layout::src_offset.max() + layout::length.max());

  explicit PySchedule(int ranks, std::optional<std::uint32_t> memory_words, std::string name)
      : memory_words_(memory_words), name_(std::move(name)) {
    programs_.resize(static_cast<std::size_t>(ranks));
  }

  void send(const Arguments& a) {
    const auto rank = rank_arg(a, "rank");
    const auto dst = rank_arg(a, "dst");
    const auto src_offset = static_cast<std::uint32_t>(a.integer("src_offset", 0, field_max(layout::src_offset)));
    const auto dst_offset = static_cast<std::uint32_t>(a.integer("dst_offset", 0, field_max(layout::dst_offset)));
    const auto words = static_cast<std::uint32_t>(a.integer("words", 1, field_max(layout::length)));
    const auto controller = static_cast<std::uint8_t>(a.integer("controller", 0, field_max(layout::controller)));
    const auto tag = static_cast<std::uint32_t>(a.integer("tag", 0, field_max(layout::tag)));
    Descriptor d = Descriptor::send(dst, src_offset, dst_offset, words, tag);
    d.controller = controller;
    d.op = receive_op(a);
    programs_[rank].push_back(d);
  }

  void wait(const Arguments& a) {
    const auto rank = rank_arg(a, "rank");
    const auto count = static_cast<std::uint32_t>(a.integer("count", 1, field_max(layout::length), 1));
    const py::object tags = a["tags"];
    std::vector<std::uint32_t> list;
    const std::string meaning = " (a tag; tags: one or a list of them)";
    if (integer_of(tags) || !py::isinstance<py::iterable>(tags) || py::isinstance<py::str>(tags)) {
      list.push_back(static_cast<std::uint32_t>(a.integer_value("tags", tags, 0, field_max(layout::tag), meaning)));
    } else {
      for (const auto& t : tags)
        list.push_back(static_cast<std::uint32_t>(a.integer_value("tags", t, 0, field_max(layout::tag), meaning)));
    }
    for (const std::uint32_t t : list) programs_[rank].push_back(Descriptor::wait(t, count));
  }

  void barrier(const Arguments& a) {
    const auto rank = rank_arg(a, "rank");
    programs_[rank].push_back(
        Descriptor::barrier(static_cast<std::uint32_t>(a.integer("number", 0, field_max(layout::tag)))));
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

  [[nodiscard]] py::list program(const Arguments& a) const {
    py::list out;
    for (const Descriptor& d : programs_[rank_arg(a, "rank")]) {
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
  [[nodiscard]] std::size_t rank_arg(const Arguments& a, const std::string& name) const {
    if (!a.has(name)) a.fail("argument '" + name + "' is required");
    return static_cast<std::size_t>(a.integer_value(name, a[name], 0, ranks() - 1, " (a rank of the schedule)"));
  }

  std::vector<collectives::Program> programs_;
  std::optional<std::uint32_t> memory_words_;
  std::string name_;
};

PySchedule make_schedule(const py::args& args, const py::kwargs& kwargs) {
  const Arguments a("Schedule", args, kwargs, {"ranks"}, {"memory_words", "name"}, {"ranks"});
  const auto ranks = static_cast<int>(a.integer("ranks", 1, PySchedule::kMaxRanks));
  std::optional<std::uint32_t> memory_words;
  if (a.has("memory_words"))
    memory_words = static_cast<std::uint32_t>(a.integer("memory_words", 1, PySchedule::kMaxMemoryWords, 1,
                                                        " (the words a descriptor can address)"));
  return PySchedule(ranks, memory_words, a.text("name", "python-schedule"));
}

py::dict run_schedule(const py::args& args, const py::kwargs& kwargs) {
  const Arguments a("run_schedule", args, kwargs, {"schedule"}, {"topology", "vcd", "trace", "trace_links", "json"},
                    {"schedule", "topology"}, true);
  if (!py::isinstance<PySchedule>(a["schedule"]))
    a.fail("schedule", "expected a collnet.Schedule, got " + shown(a["schedule"]));
  const auto& schedule = a["schedule"].cast<const PySchedule&>();
  py::dict scenario;
  scenario["topology"] = a["topology"];
  for (const auto& [k, v] : a.extra()) scenario[py::str(k)] = v;
  const std::vector<std::string> sets = overrides_of(scenario);
  const RunFiles files(a);
  std::string executor_error;
  const collectives::Schedule built = schedule.build(executor_error);
  cli::RunOutcome outcome;
  SignalWatch watch;
  {
    py::gil_scoped_release release;
    std::vector<std::string> problems;
    Params params = cli::load_scenario("", sets, problems);
    // The trace is of a collective run (the check of a synthetic scenario).
    Params as_collective = params;
    as_collective.set("algorithm", schedule.name());
    files.add_problems(as_collective, problems);
    cli::throw_problems(problems);
    const auto build = [&built](const collnet::topology::Topology& t) {
      if (static_cast<std::size_t>(t.endpoint_count()) != built.programs.size())
        throw ConfigError("key 'topology': the schedule has " + std::to_string(built.programs.size()) + " ranks but " +
                          t.name() + " has " + std::to_string(t.endpoint_count()) + " endpoints");
      return built;
    };
    try {
      outcome = cli::run_given_schedule(params, schedule.name(), build, files.vcd, watch.callback(), files.trace);
    } catch (const collectives::ExecutionError& e) {
      throw Deadlock{e.what(), ""};
    }
  }
  return report(outcome, files.json, watch, executor_error);
}

/// A function taking (*args, **kwargs), checked by Arguments.
template <typename F>
auto variadic(F f) {
  return [f](const py::args& args, const py::kwargs& kwargs) { return f(args, kwargs); };
}

/// A method of Schedule whose arguments after self Arguments checks.
template <typename R>
auto method(const char* name, std::vector<std::string> positional, std::vector<std::string> keywords,
            std::vector<std::string> required, R (PySchedule::*m)(const Arguments&)) {
  return [=](PySchedule& s, const py::args& args, const py::kwargs& kwargs) {
    return (s.*m)(Arguments(name, args, kwargs, positional, keywords, required));
  };
}
template <typename R>
auto method(const char* name, std::vector<std::string> positional, std::vector<std::string> keywords,
            std::vector<std::string> required, R (PySchedule::*m)(const Arguments&) const) {
  return [=](const PySchedule& s, const py::args& args, const py::kwargs& kwargs) {
    return (s.*m)(Arguments(name, args, kwargs, positional, keywords, required));
  };
}

}  // namespace

PYBIND11_MODULE(collnet, m) {
  m.doc() = "collnet: cycle-accurate collective-communication interconnect models (docs/guide/python.md)";
  // The docstrings give the signatures (every function takes *args,
  // **kwargs and checks them itself); "--" ends CPython's text signature,
  // which inspect.signature() and help() read.
  py::options options;
  options.disable_function_signatures();

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

  m.def("run", variadic(run),
        "run(scenario, *, vcd=None, trace=None, trace_links=False, json=None)\n--\n\n"
        "Run a scenario on the cycle-accurate network (as `collnet run`); returns the report `--json` writes, as a "
        "dict. vcd, trace, trace_links and json write the files of `collnet run --vcd FILE --trace FILE.csv "
        "--trace-links --json FILE`. Ctrl-C ends the run and raises KeyboardInterrupt, the report of the cycles run "
        "so far as its attribute result.");
  m.def("check", variadic(check),
        "check(scenario, *, json=None)\n--\n\n"
        "Software reference and static checker (as `collnet check`); returns the report as a dict, and writes it "
        "to the file json when given.");
  m.def("sweep", variadic(sweep),
        "sweep(sweep, *, jobs=None, as_frame=False, timeout=0)\n--\n\n"
        "Run every point of a sweep (as `collnet sweep`, child collnet processes, jobs at once: 1..4096, None: one "
        "per core); returns the records, ordered by point index, as a list of dicts or, with as_frame=True, a pandas "
        "DataFrame.");
  m.def("binary_path", &binary_path,
        "binary_path()\n--\n\nThe collnet executable sweep() runs ($COLLNET_BINARY, else the built one).");

  py::class_<PySchedule>(m, "Schedule", "Per-rank descriptor programs written in Python, run by run_schedule().")
      .def(py::init([](const py::args& args, const py::kwargs& kwargs) { return make_schedule(args, kwargs); }),
           "__init__(self, ranks, *, memory_words=None, name='python-schedule')\n--\n\n"
           "A schedule of `ranks` ranks (1..65536), each with an empty program.")
      .def("send",
           method("Schedule.send", {"rank", "dst"},
                  {"src_offset", "dst_offset", "words", "controller", "tag", "op"},
                  {"rank", "dst", "src_offset", "dst_offset", "words"}, &PySchedule::send),
           "send(self, rank, dst, *, src_offset, dst_offset, words, controller=0, tag=0, op='copy')\n--\n\n"
           "Append a SEND of `words` words from src_offset of `rank` to dst_offset of `dst`.")
      .def("wait", method("Schedule.wait", {"rank", "tags"}, {"count"}, {"rank", "tags"}, &PySchedule::wait),
           "wait(self, rank, tags, *, count=1)\n--\n\n"
           "Append a WAIT for `count` messages of each tag in `tags` (a tag or a list of tags).")
      .def("barrier", method("Schedule.barrier", {"rank", "number"}, {}, {"rank", "number"}, &PySchedule::barrier),
           "barrier(self, rank, number)\n--\n\nAppend a BARRIER `number` (every rank must join it).")
      .def("program", method("Schedule.program", {"rank"}, {}, {"rank"}, &PySchedule::program),
           "program(self, rank)\n--\n\nThe rank's program as a list of dicts.")
      .def_property_readonly("ranks", &PySchedule::ranks)
      .def_property_readonly("name", &PySchedule::name)
      .def_property_readonly("memory_words", &PySchedule::memory_words);

  m.def("run_schedule", variadic(run_schedule),
        "run_schedule(schedule, *, topology, vcd=None, trace=None, trace_links=False, json=None, **keys)\n--\n\n"
        "Run a Schedule on the cycle-accurate network with the given network/NIC keys; the data check compares "
        "every rank's memory with the functional executor running the same programs. vcd, trace, trace_links and "
        "json: as for run().");
}
