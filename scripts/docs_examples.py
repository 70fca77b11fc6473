#!/usr/bin/env python3
"""Runs the shell examples of the documentation, so that an example that no
longer works fails a test (ctest docs_examples).

The rule: a fenced block of language sh, bash or console whose fence line
directly follows a line `<!-- test -->` (or `<!-- test: exit N -->`, an
example that must end with exit status N) is run, on README.md and every
page under docs/. README.md and every page under docs/guide/ must hold at
least one such block.

- sh / bash blocks run as one bash script (`set -e -o pipefail`); console
  blocks run the lines that start with `$ ` (a trailing `\\` continues
  them), the other lines being output, and the last command's exit status
  is the block's.
- `collnet` resolves to the built binary, as a command on PATH and as
  ./build/collnet; `examples/` and `scripts/` of the repository are
  reachable from the working directory, which is a fresh temporary directory
  per page (a page's blocks run in it in order, so a later block may read
  what an earlier one wrote).
- The first failing block ends the run with exit status 1, naming the page
  and line of its fence and showing its output.

    python3 scripts/docs_examples.py --collnet build/collnet [--root .] [--timeout 300] [PAGE ...]
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

MARKER = re.compile(r"^<!--\s*test(?::\s*exit\s+(\d+))?\s*-->\s*$")
FENCE = re.compile(r"^(`{3,}|~{3,})\s*([\w+-]*)\s*$")
LANGUAGES = {"sh", "bash", "console"}


class Block:
    def __init__(self, page, line, language, text, expect):
        self.page, self.line, self.language, self.text, self.expect = page, line, language, text, expect


def blocks_of(path, shown):
    """The marked shell blocks of one page (markers on other blocks are errors)."""
    lines = open(path, encoding="utf-8").read().split("\n")
    found, errors = [], []
    i = 0
    while i < len(lines):
        m = MARKER.match(lines[i])
        if not m:
            i += 1
            continue
        fence = FENCE.match(lines[i + 1]) if i + 1 < len(lines) else None
        if not fence or fence.group(2) not in LANGUAGES:
            errors.append(f"{shown}:{i + 1}: <!-- test --> must stand directly before a ```sh, ```bash or ```console fence")
            i += 1
            continue
        close = fence.group(1)
        body = []
        j = i + 2
        while j < len(lines) and lines[j].strip() != close:
            body.append(lines[j])
            j += 1
        if j == len(lines):
            errors.append(f"{shown}:{i + 2}: fenced block never closed")
            break
        expect = int(m.group(1)) if m.group(1) else 0
        found.append(Block(shown, i + 2, fence.group(2), "\n".join(body) + "\n", expect))
        i = j + 1
    return found, errors


def console_script(text):
    """The commands of a console block: `$ ` lines, with their continuations."""
    commands, continuing = [], False
    for line in text.split("\n"):
        if continuing:
            commands[-1] += "\n" + line
        elif line.startswith("$ "):
            commands.append(line[2:])
        else:
            continue
        continuing = line.endswith("\\")
    return "\n".join(commands) + "\n"


def run_block(block, workdir, env, timeout):
    if block.language == "console":
        script = "set -o pipefail\n" + console_script(block.text)
    else:
        script = "set -e -o pipefail\n" + block.text
    try:
        r = subprocess.run(["bash", "-c", script], cwd=workdir, env=env, timeout=timeout,
                           stdin=subprocess.DEVNULL, capture_output=True, text=True)
    except subprocess.TimeoutExpired:
        return False, f"did not finish within {timeout} s"
    if r.returncode != block.expect:
        out = (r.stdout[-3000:] + ("\n" if r.stdout else "") + r.stderr[-3000:]).rstrip()
        return False, f"exit status {r.returncode}, expected {block.expect}\n--- output ---\n{out}"
    return True, ""


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
        found, errs = blocks_of(path, page)
        errors += errs
        if not found and needs_example(page):
            errors.append(f"{page}: no example marked <!-- test --> (README.md and every page of docs/guide/ need one)")
        all_blocks.append((page, found))
    if errors:
        print("\n".join(errors), file=sys.stderr)
        return 1

    with tempfile.TemporaryDirectory(prefix="collnet_docs_examples_") as tmp:
        bindir = os.path.join(tmp, "bin")
        os.makedirs(bindir)
        os.symlink(collnet, os.path.join(bindir, "collnet"))
        env = dict(os.environ)
        env["PATH"] = bindir + os.pathsep + env.get("PATH", "")
        env.pop("COLLNET_EVALUATION_ORDER", None)
        ran = 0
        for n, (page, found) in enumerate(all_blocks):
            workdir = os.path.join(tmp, f"page{n}")
            os.makedirs(os.path.join(workdir, "build"))
            os.symlink(collnet, os.path.join(workdir, "build", "collnet"))
            for shared in ("examples", "scripts"):
                os.symlink(os.path.join(root, shared), os.path.join(workdir, shared))
            for block in found:
                ok, why = run_block(block, workdir, env, args.timeout)
                if not ok:
                    print(f"{block.page}:{block.line}: example failed: {why}", file=sys.stderr)
                    return 1
                ran += 1
                print(f"ok {block.page}:{block.line}")
            shutil.rmtree(workdir, ignore_errors=True)
    print(f"docs_examples: {ran} examples of {len(all_blocks)} pages ran")
    return 0


if __name__ == "__main__":
    sys.exit(main())
