#!/usr/bin/env python3
"""Replays the contributor guide (docs/develop/*.md) in a scratch copy of the
tree: every page's toy component is created, built and run as the page
shows it, so that a page whose steps no longer apply, build or print what it
shows fails a test (ctest develop_guide).

Markers (an HTML comment on the line directly before a fenced block):

- `<!-- replay: create PATH -->` then a fenced block (any language): the
  whole content of a new file PATH, relative to the repository root.
- `<!-- replay: patch -->` then a ```diff block: a unified diff in git's
  format (`--- a/PATH`, `+++ b/PATH`, hunks with 3 lines of context),
  applied with `git apply` in the scratch tree.
- `<!-- replay: run -->` then a ```console block: lines starting with `$ `
  are commands (bash, in the scratch tree's root, after it was built;
  `collnet` is the scratch build's build/collnet, as a command on PATH and
  as ./build/collnet); the other lines are what the command before them
  prints, compared as scripts/docs_examples.py compares (its functions:
  `...` inside a line matches any text, a line `...` alone any number of
  lines; figures are never masked).
- `<!-- replay: run exit N -->`: the same, for a block whose last command
  must fail with exit status N (a refused scenario: exit 2); every command
  before it must succeed, and the failing command's message is compared
  like any output.
- `<!-- replay: files N -->` (once per page, anywhere): N is the number of
  files the page's create and patch steps touch outside tests/ and docs/;
  the replay fails when the count differs.

What a replay does:

1. Copies the repository's tracked files (`git ls-files`; a tracked file
   with uncommitted changes is copied as it is in the working tree) into
   the scratch tree R (default build/develop-replay/tree). R is removed
   after the replay unless --keep; a kept R is brought up to date by
   rewriting only the files whose content differs (and removing those that
   are not tracked, outside R/build), so that the next replay rebuilds only
   what changed.
2. Applies the create and patch steps of the pages in sorted page order
   (each page's steps see the pristine tree plus the pages before it) and
   stops at the first step that does not apply, naming the page and line.
3. Counts each page's touched files outside tests/ and docs/ and compares
   the count with its `files` marker.
4. Configures R with its build at R/build, as the main build was
   configured (the build type, COLLNET_WERROR, COLLNET_PYTHON_MODULE and
   the compiler flags read from the main build's CMakeCache.txt, so that
   every compile command is the main build's: COLLNET_PYTHON_MODULE changes
   the libraries' flags, -fPIC, and is kept; the module itself is not
   built), benchmarks off, and builds only target collnet and the test
   executables the run blocks name (`build/tests/test_...`). With ccache (the
   main build's CMAKE_CXX_COMPILER_LAUNCHER), CCACHE_BASEDIR is set to the
   common folder of the repository and R and CCACHE_NOHASHDIR=1, so that R's
   unchanged translation units, compiled with the same relative paths as
   the main build's (R/build beside R as build/ beside the repository), are
   cache hits: a replay after a full build compiles only what the pages
   change. CCACHE_DIR is the environment's, else the main build's
   build/ccache (scripts/test.sh's) when it exists.
5. Runs every page's run blocks in page order and compares their output.

Failures name page:line; the exit status is 1 if any step, count, build or
block failed, 2 for a page whose markers are malformed.

    python3 scripts/develop_replay.py [--pages PAGE ...] [--keep] [--work DIR] [--jobs N]
"""
import argparse
import filecmp
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

SCRIPTS = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, SCRIPTS)
import docs_examples  # noqa: E402  (the shown-output comparison of the documentation's examples)

ROOT = os.path.dirname(SCRIPTS)
PAGES_DIR = os.path.join("docs", "develop")
MARKER = re.compile(r"^<!--\s*replay:\s*(.*?)\s*-->\s*$")
FENCE = docs_examples.FENCE
UNCOUNTED = ("tests/", "docs/")


class ReplayError(Exception):
    """A failure naming page:line."""


class Step:
    def __init__(self, page, line, kind, body, path=None, expect=0, fence=None, close=None):
        self.page, self.line, self.kind, self.body = page, line, kind, body  # line: 1-based, of the marker
        self.path, self.expect, self.fence, self.close = path, expect, fence, close


class Page:
    def __init__(self, name):
        self.name, self.steps, self.files, self.files_line, self.lines = name, [], None, None, []


def parse_page(root, name):
    """The steps of one page, in page order; malformed markers raise ReplayError."""
    page = Page(name)
    with open(os.path.join(root, name), encoding="utf-8") as f:
        lines = f.read().split("\n")
    page.lines = lines
    i = 0
    while i < len(lines):
        m = MARKER.match(lines[i])
        if not m:
            i += 1
            continue
        where = f"{name}:{i + 1}"
        words = m.group(1).split()
        kind = words[0] if words else ""
        if kind == "files":
            if len(words) != 2 or not words[1].isdigit():
                raise ReplayError(f"{where}: expected <!-- replay: files N -->")
            if page.files is not None:
                raise ReplayError(f"{where}: a second <!-- replay: files --> (the first at line {page.files_line})")
            page.files, page.files_line = int(words[1]), i + 1
            i += 1
            continue
        if kind not in ("create", "patch", "run"):
            raise ReplayError(f"{where}: unknown marker '{m.group(1)}' (create PATH, patch, run, run exit N, files N)")
        fence = FENCE.match(lines[i + 1]) if i + 1 < len(lines) else None
        if not fence:
            raise ReplayError(f"{where}: <!-- replay: {kind} --> must stand directly before a fenced block")
        close = docs_examples.fenced_end(lines, i + 1, fence.group(1))
        if close is None:
            raise ReplayError(f"{name}:{i + 2}: fenced block never closed")
        body = "\n".join(lines[i + 2:close]) + "\n"
        step = Step(name, i + 1, kind, body, fence=i + 1, close=close)
        if kind == "create":
            if len(words) != 2:
                raise ReplayError(f"{where}: expected <!-- replay: create PATH -->")
            path = os.path.normpath(words[1])
            if os.path.isabs(path) or path.startswith(".."):
                raise ReplayError(f"{where}: {words[1]}: a path inside the repository, relative to its root")
            step.path = path
        elif kind == "patch":
            if len(words) != 1 or fence.group(2) != "diff":
                raise ReplayError(f"{where}: expected <!-- replay: patch --> directly before a ```diff block")
        else:
            if words[1:] and not (len(words) == 3 and words[1] == "exit" and words[2].isdigit()):
                raise ReplayError(f"{where}: expected <!-- replay: run --> or <!-- replay: run exit N -->")
            if fence.group(2) != "console":
                raise ReplayError(f"{where}: <!-- replay: run --> must stand directly before a ```console block")
            step.expect = int(words[2]) if words[1:] else 0
        page.steps.append(step)
        i = close + 1
    if page.files is None:
        raise ReplayError(f"{name}: no <!-- replay: files N --> (the files its steps touch outside tests/ and docs/)")
    return page


def patch_paths(step):
    """The files a patch step touches (the b/ side; a/ for a deletion)."""
    paths, old = [], None
    for line in step.body.split("\n"):
        if line.startswith("--- "):
            old = line[4:].split("\t")[0]
        elif line.startswith("+++ "):
            new = line[4:].split("\t")[0]
            path = old if new == "/dev/null" else new
            paths.append(path[2:] if path[:2] in ("a/", "b/") else path)
    return paths


def hunk_line(step, path, old_start):
    """The page line of the hunk of `path` that starts at old line `old_start`."""
    current = None
    for k, line in enumerate(step.body.split("\n")):
        if line.startswith("+++ "):
            p = line[4:].split("\t")[0]
            current = p[2:] if p[:2] in ("a/", "b/") else p
        m = re.match(r"^@@ -(\d+)", line)
        if m and current == path and int(m.group(1)) == old_start:
            return step.fence + 1 + k + 1  # the fence is page line fence+1; body line k follows it
    return step.line


def counted(touched):
    """The files a page's `files` marker counts: those outside tests/ and docs/."""
    return sorted({p for p in touched if not p.startswith(UNCOUNTED)})


def tracked_files(root):
    """The repository's tracked files that exist in the working tree."""
    out = subprocess.run(["git", "ls-files", "-z"], cwd=root, check=True, capture_output=True).stdout
    return [p for p in out.decode().split("\0") if p and os.path.isfile(os.path.join(root, p))]


def sync_tree(root, tree, files):
    """Makes `tree` (outside its build/) hold exactly `files` of `root`,
    rewriting only those whose content differs (their timestamps then tell
    the build what changed)."""
    os.makedirs(tree, exist_ok=True)
    wanted = set(files)
    written = 0
    for rel in files:
        src, dst = os.path.join(root, rel), os.path.join(tree, rel)
        if os.path.islink(src):
            if os.path.islink(dst) and os.readlink(dst) == os.readlink(src):
                continue
            if os.path.lexists(dst):
                os.remove(dst)
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            os.symlink(os.readlink(src), dst)
            written += 1
            continue
        if os.path.isfile(dst) and not os.path.islink(dst) and filecmp.cmp(src, dst, shallow=False):
            continue
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        if os.path.lexists(dst):
            os.remove(dst)
        shutil.copy(src, dst)  # a new timestamp: the scratch build recompiles it (a cache hit if unchanged)
        written += 1
    removed = 0
    for folder, dirs, names in os.walk(tree, topdown=True):
        rel_folder = os.path.relpath(folder, tree)
        if rel_folder == ".":
            dirs[:] = [d for d in dirs if d not in ("build", ".git")]
        for n in names:
            rel = os.path.normpath(os.path.join(rel_folder, n))
            if rel not in wanted:
                os.remove(os.path.join(folder, n))
                removed += 1
    return written, removed


def apply_steps(page, tree, env):
    """Applies a page's create and patch steps; returns the files they touch."""
    touched = []
    for step in page.steps:
        where = f"{step.page}:{step.line}"
        if step.kind == "create":
            dst = os.path.join(tree, step.path)
            if os.path.exists(dst):
                raise ReplayError(f"{where}: create {step.path}: the file exists already (a patch step changes it)")
            os.makedirs(os.path.dirname(dst) or tree, exist_ok=True)
            with open(dst, "w", encoding="utf-8") as f:
                f.write(step.body)
            touched.append(step.path)
        elif step.kind == "patch":
            paths = patch_paths(step)
            if not paths:
                raise ReplayError(f"{where}: the diff names no file (--- a/PATH, +++ b/PATH)")
            with tempfile.NamedTemporaryFile("w", suffix=".diff", delete=False) as f:
                f.write(step.body)
            try:
                r = subprocess.run(["git", "apply", "--whitespace=nowarn", f.name], cwd=tree, env=env,
                                   capture_output=True, text=True)
            finally:
                os.remove(f.name)
            if r.returncode != 0:
                line = step.line
                m = re.search(r"patch failed: (.+):(\d+)", r.stderr)
                if m:
                    line = hunk_line(step, m.group(1), int(m.group(2)))
                raise ReplayError(f"{step.page}:{line}: the patch does not apply to the tree (the pristine tree plus "
                                  f"the pages before this one):\n{r.stderr.rstrip()}")
            touched += paths
    return touched


def cache_value(cache, name):
    """A variable of a CMakeCache.txt, or None."""
    if not os.path.isfile(cache):
        return None
    with open(cache, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = re.match(r"^%s(?::\w+)?=(.*)$" % re.escape(name), line.rstrip("\n"))
            if m:
                return m.group(1)
    return None


def configure_args(main_build):
    """The scratch build's cmake options: the main build's where they change
    compile commands, benchmarks off."""
    cache = os.path.join(main_build, "CMakeCache.txt")
    args = ["-G", "Ninja", "-DCOLLNET_BUILD_BENCHMARKS=OFF"]
    defaults = {"CMAKE_BUILD_TYPE": "RelWithDebInfo"}
    for name in ("CMAKE_BUILD_TYPE", "COLLNET_WERROR", "COLLNET_PYTHON_MODULE", "CMAKE_CXX_COMPILER",
                 "CMAKE_C_COMPILER", "CMAKE_CXX_FLAGS", "COLLNET_TEST_CODE_OPTIONS", "CMAKE_CXX_COMPILER_LAUNCHER",
                 "CMAKE_C_COMPILER_LAUNCHER"):
        value = cache_value(cache, name)
        if value is None:
            value = defaults.get(name)
        if value is not None and (value or name == "CMAKE_CXX_FLAGS"):
            args.append(f"-D{name}={value}")
    if cache_value(cache, "CMAKE_CXX_COMPILER_LAUNCHER") is None and shutil.which("ccache"):
        args += ["-DCMAKE_CXX_COMPILER_LAUNCHER=ccache", "-DCMAKE_C_COMPILER_LAUNCHER=ccache"]
    return args


def ccache_env(env, root, tree, main_build):
    """ccache's settings for the scratch build (see the module docstring)."""
    env = dict(env)
    base = os.path.commonpath([os.path.realpath(root), os.path.realpath(tree)])
    given = env.get("CCACHE_BASEDIR")
    if not given or os.path.commonpath([os.path.realpath(given), base]) != os.path.realpath(given):
        env["CCACHE_BASEDIR"] = base
    env["CCACHE_NOHASHDIR"] = "1"
    if not env.get("CCACHE_DIR") and os.path.isdir(os.path.join(main_build, "ccache")):
        env["CCACHE_DIR"] = os.path.join(main_build, "ccache")
    return env


def targets_of(pages):
    """collnet and the test executables the run blocks name (build/tests/test_...)."""
    targets = ["collnet"]
    for page in pages:
        for step in page.steps:
            if step.kind == "run":
                for t in re.findall(r"\bbuild/tests/(test_\w+)", step.body):
                    if t not in targets:
                        targets.append(t)
    return targets


def run_step(step, tree, env, timeout):
    """Runs one run block; returns its failures (page:line)."""
    lines = step.body.split("\n")[:-1]
    block = docs_examples.Block(step.page, step.fence, step.close, "console", step.body, step.expect)
    block.commands = docs_examples.console_commands(lines, step.fence + 1)
    if not block.commands:
        return [f"{step.page}:{step.fence + 2}: a console block must start with a `$ ` command line"]
    failed, parts = docs_examples.run_block(block, tree, env, timeout)
    if failed:
        return failed
    if step.expect != 0 and len(parts) < len(block.commands):
        return [f"{step.page}:{step.fence + 1}: command {len(parts)} of the block exited {step.expect}, "
                f"so the {len(block.commands) - len(parts)} after it did not run (the failing command comes last)"]
    if step.expect == 0 and len(parts) <= len(block.commands) - 1:
        return [f"{step.page}:{step.fence + 1}: the block ended before its last command"]
    return docs_examples.compare_block(block, parts)


def main():
    first, _, rest = __doc__.partition("\n\n")
    ap = argparse.ArgumentParser(description=" ".join(first.split()),
                                 formatter_class=argparse.RawDescriptionHelpFormatter, epilog=rest)
    ap.add_argument("--pages", nargs="+", metavar="PAGE",
                    help="replay only these pages (docs/develop/NAME.md or NAME.md), in sorted order "
                         "(default: every page of docs/develop/)")
    ap.add_argument("--keep", action="store_true",
                    help="leave the scratch tree and its build in place (to look at, or for the next replay, which "
                         "then rewrites only the files that differ and rebuilds only what they change); by default "
                         "the scratch tree is removed after the replay")
    ap.add_argument("--work", default=None, metavar="DIR",
                    help="working folder: the scratch tree is DIR/tree, built in DIR/tree/build "
                         "(default: build/develop-replay of the repository)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1, metavar="N",
                    help="parallel compile jobs of the scratch build (default: the machine's CPUs)")
    ap.add_argument("--main-build", default=os.path.join(ROOT, "build"), metavar="DIR",
                    help="the build whose configuration and compiler cache the scratch build reuses "
                         "(default: build/ of the repository)")
    ap.add_argument("--timeout", type=float, default=600, help="seconds one run block may take")
    args = ap.parse_args()

    started = time.monotonic()
    root = ROOT
    work = os.path.abspath(args.work or os.path.join(root, "build", "develop-replay"))
    tree = os.path.join(work, "tree")
    names = sorted(p for p in os.listdir(os.path.join(root, PAGES_DIR)) if p.endswith(".md"))
    if args.pages:
        chosen = []
        for p in args.pages:
            base = os.path.basename(p)
            if base not in names:
                ap.error(f"--pages {p}: no page {os.path.join(PAGES_DIR, base)}")
            chosen.append(base)
        names = sorted(set(chosen))
    try:
        pages = [parse_page(root, os.path.join(PAGES_DIR, n)) for n in names]
    except ReplayError as e:
        print(f"develop_replay: {e}", file=sys.stderr)
        return 2

    env = dict(os.environ)
    env.pop("COLLNET_EVALUATION_ORDER", None)
    # git apply in the scratch tree works on its files alone, never on the repository around it.
    env["GIT_CEILING_DIRECTORIES"] = os.path.dirname(tree)
    written, removed = sync_tree(root, tree, tracked_files(root))
    print(f"develop_replay: scratch tree {tree}: {written} files written, {removed} removed")

    failures = []
    try:
        for page in pages:
            touched = apply_steps(page, tree, env)
            outside = counted(touched)
            if len(outside) != page.files:
                failures.append(f"{page.name}:{page.files_line}: the page says its steps touch {page.files} files "
                                f"outside tests/ and docs/; they touch {len(outside)}: {', '.join(outside) or 'none'}")
            print(f"develop_replay: {page.name}: {len(page.steps)} steps, {len(outside)} files outside tests/ and "
                  f"docs/ ({', '.join(outside) or 'none'})")
    except ReplayError as e:
        print(f"develop_replay: {e}", file=sys.stderr)
        return 1

    build = os.path.join(tree, "build")
    build_env = ccache_env(env, root, tree, args.main_build)
    t0 = time.monotonic()
    steps = [["cmake", "-S", tree, "-B", build] + configure_args(args.main_build),
             ["cmake", "--build", build, "-j", str(args.jobs), "--target"] + targets_of(pages)]
    for command in steps:
        r = subprocess.run(command, env=build_env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if r.returncode != 0:
            print(r.stdout[-12000:], file=sys.stderr)
            print(f"develop_replay: the scratch tree does not build with the pages' steps "
                  f"({', '.join(p.name for p in pages)}): {' '.join(command)} exited {r.returncode}", file=sys.stderr)
            return 1
    print(f"develop_replay: built {', '.join(targets_of(pages))} in {time.monotonic() - t0:.0f} s")

    with tempfile.TemporaryDirectory(prefix="collnet_develop_replay_") as tmp:
        bindir = os.path.join(tmp, "bin")
        os.makedirs(bindir)
        os.symlink(os.path.join(build, "collnet"), os.path.join(bindir, "collnet"))
        run_env = dict(env)
        run_env["PATH"] = bindir + os.pathsep + env.get("PATH", "")
        for page in pages:
            for step in page.steps:
                if step.kind != "run":
                    continue
                t1 = time.monotonic()
                found = run_step(step, tree, run_env, args.timeout)
                failures += found
                if not found:
                    print(f"ok {step.page}:{step.line} {time.monotonic() - t1:.1f} s")

    if not args.keep:
        shutil.rmtree(tree, ignore_errors=True)
    if failures:
        print("\n".join(failures), file=sys.stderr)
        print(f"develop_replay: {len(failures)} failures", file=sys.stderr)
        return 1
    print(f"develop_replay: {len(pages)} pages replayed in {time.monotonic() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
