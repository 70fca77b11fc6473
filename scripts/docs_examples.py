#!/usr/bin/env python3
"""Runs the shell examples of the documentation and compares the output the
pages show with what the commands print, so that an example that no longer
works, or a figure a page shows that its command no longer gives, fails a
test (ctest docs_examples).

Which blocks run: a fenced block of language sh, bash or console whose fence
line directly follows a line `<!-- test -->` (or `<!-- test: exit N -->`, an
example that must end with exit status N), on README.md and every page under
docs/. README.md and every page under docs/guide/ must hold at least one.

- Every block runs as one bash script under `set -e -o pipefail`: every
  command counts, and the block ends at the first one that fails. An sh or
  bash block runs as written; a console block runs its lines that start with
  `$ ` (a trailing `\\` continues them).
- `collnet` resolves to the built binary, as a command on PATH and as
  ./build/collnet; `examples/` and `scripts/` of the repository are
  reachable from the working directory, which is a fresh temporary directory
  per page (a page's blocks run in it in order, so a later block may read
  what an earlier one wrote).

Shown output, compared with what the commands print (standard output and
standard error as one stream, in the order written):

- A console block's other lines are output: the lines after a `$ ` command,
  up to the next command, are what that command prints.
- An sh or bash block may be followed by a line `<!-- output -->` (only blank
  lines between the block's closing fence and it) and directly after it a
  ```text block: what the whole block prints.
- Trailing spaces and blank lines at the start and end are ignored; every
  other line must match, in order, line for line.
- Masks, for what varies from run to run or machine to machine (speeds,
  seconds, dates, temporary paths, thread counts): `...` inside a shown line
  matches any text (none included) at that place, so `  took ... s` matches
  `  took 0.42 s`; a shown line that is `...` alone matches any number of
  printed lines (none included), for output the page leaves out. Figures
  (cycles, latencies, counts) are never masked: they are what the test
  checks.

Pictures: every image a page shows (`![...](FILE.png)`) is followed (after
blank lines and further images) by an italic caption (`*...*`) that names
the committed command making it, as `Made by `COMMAND``; the scripts/ and
examples/ paths in it must exist.

Failures name the page and line (the fence of a block that failed, the shown
line that differs) with the expected and the printed line; every block runs
(a page's later blocks are skipped after one of its blocks failed), and the
exit status is 1 if any failed.

`--update` rewrites the shown output of the pages' blocks from what their
commands printed (a shown line that still matches, masks included, is kept
as written; a masked line whose figures changed is rewritten with its masks
kept; `...` lines keep standing for what they stood for) instead of failing
on it; review the diff before committing it.

    python3 scripts/docs_examples.py --collnet build/collnet [--root .] [--timeout 300] [--update] [PAGE ...]
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import uuid

MARKER = re.compile(r"^<!--\s*test(?::\s*exit\s+(\d+))?\s*-->\s*$")
OUTPUT_MARKER = re.compile(r"^<!--\s*output\s*-->\s*$")
FENCE = re.compile(r"^(`{3,}|~{3,})\s*([\w+-]*)\s*$")
LANGUAGES = {"sh", "bash", "console"}
IMAGE = re.compile(r"!\[[^\]]*\]\(([^)\s]+\.(?:png|svg|jpg|jpeg|gif))\)")
ELISION = "..."


class Shown:
    """Shown output: lines of a page (index into the page's lines) that a
    command or a block is to print."""

    def __init__(self, first, lines):
        self.first, self.lines = first, lines  # first: index of the first line in the page


class Block:
    def __init__(self, page, fence, close, language, text, expect):
        self.page, self.fence, self.close = page, fence, close  # indexes of the fence lines
        self.language, self.text, self.expect = language, text, expect
        self.commands = []  # console: (command text, Shown)
        self.shown = None  # sh/bash: Shown of the <!-- output --> block
        self.output_fence = None  # sh/bash: index of the ```text fence


def fenced_end(lines, start, close):
    """Index of the line closing the fence opened at `start`, or None."""
    j = start + 1
    while j < len(lines) and lines[j].strip() != close:
        j += 1
    return j if j < len(lines) else None


def console_commands(lines, first):
    """The commands of a console block and the output each shows: `$ ` lines
    (with their `\\` continuations) and the lines up to the next command.
    `first` is the index of the block's first line in the page."""
    commands, continuing = [], False
    for k, line in enumerate(lines):
        if continuing or line.startswith("$ "):
            if continuing:
                commands[-1][0].append(line)
            else:
                commands.append(([line[2:]], None))
            commands[-1] = (commands[-1][0], Shown(first + k + 1, []))  # output starts below the command
            continuing = line.endswith("\\")
        elif commands:
            commands[-1][1].lines.append(line)
        else:
            return None  # output before any command
    return [("\n".join(c), s) for c, s in commands]


def blocks_of(path, shown_name):
    """The marked shell blocks of one page with the output they show (markers
    anywhere else are errors)."""
    lines = open(path, encoding="utf-8").read().split("\n")
    found, errors = [], []
    i = 0
    while i < len(lines):
        if OUTPUT_MARKER.match(lines[i]):
            errors.append(f"{shown_name}:{i + 1}: <!-- output --> must follow a <!-- test --> sh or bash block "
                          "(only blank lines between)")
            i += 1
            continue
        m = MARKER.match(lines[i])
        if not m:
            i += 1
            continue
        fence = FENCE.match(lines[i + 1]) if i + 1 < len(lines) else None
        if not fence or fence.group(2) not in LANGUAGES:
            errors.append(f"{shown_name}:{i + 1}: <!-- test --> must stand directly before a ```sh, ```bash or "
                          "```console fence")
            i += 1
            continue
        j = fenced_end(lines, i + 1, fence.group(1))
        if j is None:
            errors.append(f"{shown_name}:{i + 2}: fenced block never closed")
            break
        body = lines[i + 2:j]
        block = Block(shown_name, i + 1, j, fence.group(2), "\n".join(body) + "\n",
                      int(m.group(1)) if m.group(1) else 0)
        i = j + 1
        if block.language == "console":
            block.commands = console_commands(body, block.fence + 1)
            if not block.commands:
                errors.append(f"{shown_name}:{block.fence + 2}: a console block must start with a `$ ` command line")
        # An <!-- output --> block after it (blank lines between).
        k = i
        while k < len(lines) and not lines[k].strip():
            k += 1
        if k < len(lines) and OUTPUT_MARKER.match(lines[k]):
            out_fence = FENCE.match(lines[k + 1]) if k + 1 < len(lines) else None
            if block.language == "console":
                errors.append(f"{shown_name}:{k + 1}: a console block shows its output inline, not in "
                              "an <!-- output --> block")
            elif not out_fence or out_fence.group(2) != "text":
                errors.append(f"{shown_name}:{k + 1}: <!-- output --> must stand directly before a ```text fence")
            else:
                end = fenced_end(lines, k + 1, out_fence.group(1))
                if end is None:
                    errors.append(f"{shown_name}:{k + 2}: fenced block never closed")
                    break
                block.output_fence = k + 1
                block.shown = Shown(k + 2, lines[k + 2:end])
                i = end + 1
        found.append(block)
    return lines, found, errors


def trimmed(lines):
    """Lines without trailing spaces, blank lines at both ends dropped."""
    out = [line.rstrip() for line in lines]
    while out and not out[0]:
        out.pop(0)
    while out and not out[-1]:
        out.pop()
    return out


def pattern(line):
    """A shown line as a regular expression: `...` matches any text."""
    return re.compile(".*".join(re.escape(part) for part in line.split(ELISION)))


def align(shown, got):
    """The cheapest alignment of shown lines (with masks) and printed lines:
    a list of (op, shown index, got index), op one of "match", "elide" (a
    printed line an `...` line stands for), "missing" (a shown line nothing
    printed matches) and "extra" (a printed line the page does not show).
    Every "missing" and "extra" costs 1, the rest nothing."""
    n, m = len(shown), len(got)
    elision = [s.strip() == ELISION for s in shown]
    regex = [None if e else pattern(s) for s, e in zip(shown, elision)]
    inf = n + m + 1
    cost = [[inf] * (m + 1) for _ in range(n + 1)]
    cost[n][m] = 0
    for i in range(n, -1, -1):
        for j in range(m, -1, -1):
            if i == n and j == m:
                continue
            best = inf
            if i < n and elision[i]:
                best = min(best, cost[i + 1][j])
                if j < m:
                    best = min(best, cost[i][j + 1])
            if i < n and j < m and not elision[i] and regex[i].fullmatch(got[j]):
                best = min(best, cost[i + 1][j + 1])
            if i < n and not elision[i]:
                best = min(best, 1 + cost[i + 1][j])
            if j < m:
                best = min(best, 1 + cost[i][j + 1])
            cost[i][j] = best
    ops, i, j = [], 0, 0
    while i < n or j < m:
        here = cost[i][j]
        if i < n and j < m and not elision[i] and regex[i].fullmatch(got[j]) and cost[i + 1][j + 1] == here:
            ops.append(("match", i, j))
            i, j = i + 1, j + 1
        elif i < n and elision[i] and j < m and cost[i][j + 1] == here:
            ops.append(("elide", i, j))
            j += 1
        elif i < n and elision[i] and cost[i + 1][j] == here:
            i += 1
        elif i < n and not elision[i] and 1 + cost[i + 1][j] == here:
            ops.append(("missing", i, j))
            i += 1
        else:
            ops.append(("extra", i, j))
            j += 1
    return ops


def differences(page, shown, got, limit=8):
    """The lines where shown output and printed output differ, each naming the
    page line: empty when they agree."""
    lines = trimmed(shown.lines)
    offset = next((k for k, line in enumerate(shown.lines) if line.strip()), 0)
    got = trimmed(got)

    def where(i):
        """The page line of shown line i (past the end: the last one)."""
        return f"{page}:{shown.first + offset + max(min(i, len(lines) - 1), 0) + 1}"

    out, pending = [], []
    for op, i, j in align(lines, got) + [("end", len(lines), len(got))]:
        if op in ("missing", "extra"):
            pending.append((op, i, j))
            continue
        # A run of differences: each missing line paired with a printed one.
        missing = [p for p in pending if p[0] == "missing"]
        extra = [p for p in pending if p[0] == "extra"]
        for k in range(max(len(missing), len(extra))):
            if k < len(missing) and k < len(extra):
                out.append(f"{where(missing[k][1])}: shown output differs from what the command printed\n"
                           f"    expected: {lines[missing[k][1]]!r}\n    got:      {got[extra[k][2]]!r}")
            elif k < len(missing):
                out.append(f"{where(missing[k][1])}: shown line the command did not print\n"
                           f"    expected: {lines[missing[k][1]]!r}\n    got:      nothing in its place")
            else:
                i0, j0 = extra[k][1], extra[k][2]
                side = "before" if i0 < len(lines) else "after"
                out.append(f"{where(i0)}: the command printed a line the page does not show ({side} this line)\n"
                           f"    expected: nothing\n    got:      {got[j0]!r}")
        pending = []
    if len(out) > limit:
        out = out[:limit] + [f"... and {len(out) - limit} more differences"]
    return out


def remasked(shown, printed):
    """A printed line that replaces a shown line with masks: the printed line
    with `...` again where the shown line had it, when the two differ only in
    figures (numbers) outside the masks; else None."""
    if ELISION not in shown or shown.strip() == ELISION:
        return None
    fixed = [re.sub(r"[0-9][0-9.,]*", lambda m: "\0", part) for part in shown.split(ELISION)]
    regex = "(.*)".join("".join(r"[0-9][0-9.,]*" if token == "\0" else re.escape(token)
                                for token in re.split(r"(\0)", part)) for part in fixed)
    m = re.fullmatch(regex, printed)
    if not m:
        return None
    out = printed
    for k in range(len(m.groups()), 0, -1):
        out = out[:m.start(k)] + ELISION + out[m.end(k):]
    return out


def updated(shown_lines, got):
    """The shown output rewritten from what was printed: shown lines that
    still match (masks included) kept as written, `...` lines kept where they
    stand for printed lines, a masked line whose figures changed rewritten
    with its masks kept, every other printed line as printed."""
    lines = trimmed(shown_lines)
    got = trimmed(got)
    out, last_elision, missing = [], None, []
    for op, i, j in align(lines, got):
        if op == "missing":
            missing.append(i)
            continue
        if op == "extra":
            # A printed line in place of a shown one: keep the shown line's masks.
            kept = remasked(lines[missing.pop(0)], got[j]) if missing else None
            out.append(kept if kept is not None else got[j])
            continue
        missing = []
        if op == "match":
            out.append(lines[i])
        elif op == "elide":
            if last_elision != i:
                out.append(lines[i])
            last_elision = i
    return out


def run_script(script, workdir, env, timeout):
    """Runs a bash script: (exit status or None on timeout, what it printed)."""
    try:
        r = subprocess.run(["bash", "-c", script], cwd=workdir, env=env, timeout=timeout, stdin=subprocess.DEVNULL,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    except subprocess.TimeoutExpired:
        return None, ""
    return r.returncode, r.stdout.decode("utf-8", errors="replace")


def run_block(block, workdir, env, timeout):
    """Runs one block: (failures, the block's printed output split per shown
    part: one entry per console command, or one for an sh block)."""
    if block.language == "console":
        # A line of its own after every command splits the stream per command.
        separator = f"collnet-docs-examples-{uuid.uuid4().hex}"
        script = "set -e -o pipefail\n" + "".join(f"{command}\nprintf '\\n%s\\n' {separator}\n"
                                                   for command, _ in block.commands)
    else:
        separator = None
        script = "set -e -o pipefail\n" + block.text
    status, printed = run_script(script, workdir, env, timeout)
    if status is None:
        return [f"{block.page}:{block.fence + 1}: example failed: did not finish within {timeout} s"], None
    parts = printed.split(f"\n{separator}\n") if separator else [printed]
    if status != block.expect:
        shown = printed.replace(f"\n{separator}\n", "\n") if separator else printed
        return [f"{block.page}:{block.fence + 1}: example failed: exit status {status}, expected {block.expect}\n"
                f"--- output ---\n{shown[-6000:].rstrip()}"], parts
    return [], parts


def compare_block(block, parts):
    """Differences between what the block shows and what it printed."""
    if block.language == "console":
        out = []
        for (command, shown), printed in zip(block.commands, parts):
            out += differences(block.page, shown, printed.split("\n"))
        return out
    if block.shown is None:
        return []
    return differences(block.page, block.shown, parts[0].split("\n"))


def update_block(lines, block, parts):
    """Rewrites the block's shown output in `lines` (a page's lines) from what
    it printed; returns the number of lines added (negative: removed)."""
    if block.language == "console":
        new_body = []
        for (command, shown), printed in zip(block.commands, parts):
            new_body += ["$ " + command.split("\n")[0]] + command.split("\n")[1:]
            new_body += updated(shown.lines, printed.split("\n"))
        lines[block.fence + 1:block.close] = new_body
        return len(new_body) - (block.close - block.fence - 1)
    if block.shown is None:
        return 0
    new = updated(block.shown.lines, parts[0].split("\n"))
    first, end = block.shown.first, block.shown.first + len(block.shown.lines)
    lines[first:end] = new
    return len(new) - (end - first)


def caption_problems(root, page, lines):
    """Images without a caption that names the committed command making them."""
    problems = []
    in_fence = None
    for k, line in enumerate(lines):
        f = FENCE.match(line)
        if f and (in_fence is None or line.strip() == in_fence):
            in_fence = f.group(1) if in_fence is None else None
            continue
        if in_fence is not None or not IMAGE.search(line):
            continue
        if k + 1 < len(lines) and IMAGE.search(lines[k + 1]):
            continue  # a run of images shares the caption after the last
        c = k + 1
        while c < len(lines) and not lines[c].strip():
            c += 1
        caption = []
        while c < len(lines) and lines[c].strip():
            caption.append(lines[c].strip())
            c += 1
        text = " ".join(caption)
        commands = re.findall(r"Made by `([^`]+)`", text)
        if not text.startswith("*") or not commands:
            problems.append(f"{page}:{k + 1}: picture without a caption naming the command that makes it "
                            "(an italic paragraph after it with Made by `COMMAND`)")
            continue
        for command in commands:
            for path in re.findall(r"(?:^|[\s=])(?:\./)?((?:scripts|examples)/[\w./-]+)", command):
                if not os.path.exists(os.path.join(root, path)):
                    problems.append(f"{page}:{k + 1}: the caption's command names {path}, which is not in the "
                                    "repository")
    return problems


def default_pages(root):
    """README.md and every page under docs/ (README.md and docs/guide/ first)."""
    pages = ["README.md"]
    docs = os.path.join(root, "docs")
    found = []
    for folder, _, files in os.walk(docs):
        found += [os.path.relpath(os.path.join(folder, f), root) for f in files if f.endswith(".md")]
    guide = sorted(p for p in found if p.startswith(os.path.join("docs", "guide", "")))
    return pages + guide + sorted(p for p in found if p not in guide)


def needs_example(page):
    """README.md and the guide pages must each hold a tested example."""
    return page == "README.md" or page.startswith(os.path.join("docs", "guide", ""))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--collnet", required=True, help="the built collnet binary")
    ap.add_argument("--root", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."),
                    help="repository root (default: this script's parent folder)")
    ap.add_argument("--timeout", type=float, default=300, help="seconds one block may take")
    ap.add_argument("--skip", action="append", default=[], metavar="PAGE",
                    help="leave this page out (repeatable; e.g. a page whose examples need a part this build lacks)")
    ap.add_argument("--update", action="store_true",
                    help="rewrite the pages' shown output from what the commands print instead of failing on it")
    ap.add_argument("pages", nargs="*", help="pages relative to the root (default: README.md and every docs/ page)")
    args = ap.parse_args()

    root = os.path.abspath(args.root)
    collnet = os.path.abspath(args.collnet)
    if not os.access(collnet, os.X_OK):
        sys.exit(f"docs_examples: --collnet {args.collnet}: no executable there")
    pages = [p for p in (args.pages or default_pages(root)) if p not in args.skip]

    all_blocks, errors = [], []
    for page in pages:
        path = os.path.join(root, page)
        if not os.path.isfile(path):
            errors.append(f"{page}: no such page")
            continue
        lines, found, errs = blocks_of(path, page)
        errors += errs + caption_problems(root, page, lines)
        if not found and needs_example(page):
            errors.append(f"{page}: no example marked <!-- test --> (README.md and every page of docs/guide/ need one)")
        all_blocks.append((page, lines, found))
    if errors:
        print("\n".join(errors), file=sys.stderr)
        return 1

    failures, ran, compared, rewritten = [], 0, 0, []
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="collnet_docs_examples_") as tmp:
        bindir = os.path.join(tmp, "bin")
        os.makedirs(bindir)
        os.symlink(collnet, os.path.join(bindir, "collnet"))
        env = dict(os.environ)
        env["PATH"] = bindir + os.pathsep + env.get("PATH", "")
        env.pop("COLLNET_EVALUATION_ORDER", None)
        for n, (page, lines, found) in enumerate(all_blocks):
            workdir = os.path.join(tmp, f"page{n}")
            os.makedirs(os.path.join(workdir, "build"))
            os.symlink(collnet, os.path.join(workdir, "build", "collnet"))
            for shared in ("examples", "scripts"):
                os.symlink(os.path.join(root, shared), os.path.join(workdir, shared))
            shift, page_failed = 0, False
            for block in found:
                if page_failed:
                    failures.append(f"{page}:{block.fence + 1}: not run: an earlier example of the page failed")
                    continue
                t0 = time.monotonic()
                failed, parts = run_block(block, workdir, env, args.timeout)
                ran += 1
                if failed:
                    failures += failed
                    page_failed = True
                    continue
                shows = block.language == "console" or block.shown is not None
                compared += shows
                diffs = compare_block(block, parts)
                if diffs and args.update:
                    for attr in ("fence", "close"):
                        setattr(block, attr, getattr(block, attr) + shift)
                    for _, s in block.commands + ([(None, block.shown)] if block.shown else []):
                        s.first += shift
                    shift += update_block(lines, block, parts)
                    rewritten.append(f"{page}:{block.fence + 1}")
                elif diffs:
                    failures += diffs
                    continue
                print(f"ok {page}:{block.fence + 1}{' (output compared)' if shows else ''} "
                      f"{time.monotonic() - t0:.1f} s")
            if rewritten and rewritten[-1].startswith(page + ":"):
                with open(os.path.join(root, page), "w", encoding="utf-8") as f:
                    f.write("\n".join(lines))
            shutil.rmtree(workdir, ignore_errors=True)
    for r in rewritten:
        print(f"updated the shown output of {r}")
    if failures:
        print("\n".join(failures), file=sys.stderr)
        print(f"docs_examples: {len(failures)} failures", file=sys.stderr)
        return 1
    print(f"docs_examples: {ran} examples of {len(all_blocks)} pages ran, {compared} with their output compared, "
          f"in {time.monotonic() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
