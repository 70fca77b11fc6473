#!/usr/bin/env python3
"""Tests of scripts/develop_replay.py's rules (ctest develop_replay_checker),
on pages and trees written here and a stand-in `collnet` whose output is
known: the markers it accepts and refuses (each refusal naming page:line),
a patch that does not apply named at its hunk, the file count, the tree
copy, and run blocks with an expected exit status. The replay of the real
guide (build included) is ctest develop_guide."""
import os
import sys
import tempfile
import textwrap
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))
import develop_replay as replay  # noqa: E402

FAKE_COLLNET = """#!/usr/bin/env bash
case "$1" in
  list) echo "Algorithms:"; echo "  ring  [std] a ring";;
  bad) echo "collnet check: error: key 'toy': 'x' is not accepted; accepted values: a, b" >&2; exit 2;;
esac
"""


def read(*path):
    with open(os.path.join(*path), encoding="utf-8") as f:
        return f.read()


class ReplayRulesTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.root = self.tmp.name

    def tearDown(self):
        self.tmp.cleanup()

    def page(self, text, name="docs/develop/p.md"):
        path = os.path.join(self.root, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(textwrap.dedent(text))
        return name

    def refused(self, text, where, words):
        with self.assertRaises(replay.ReplayError) as e:
            replay.parse_page(self.root, self.page(text))
        self.assertTrue(str(e.exception).startswith(where), str(e.exception))
        for w in words:
            self.assertIn(w, str(e.exception))

    def test_markers_are_parsed_in_page_order(self):
        p = replay.parse_page(self.root, self.page("""\
            # P
            <!-- replay: files 1 -->
            <!-- replay: create src/a.cpp -->
            ```cpp
            int a;
            ```
            <!-- replay: patch -->
            ```diff
            --- a/src/b.cpp
            +++ b/src/b.cpp
            @@ -1 +1 @@
            -int b;
            +int b = 1;
            ```
            <!-- replay: run exit 2 -->
            ```console
            $ collnet bad
            ```
            """))
        self.assertEqual(p.files, 1)
        self.assertEqual([(s.kind, s.line) for s in p.steps], [("create", 3), ("patch", 7), ("run", 15)])
        self.assertEqual(p.steps[0].path, "src/a.cpp")
        self.assertEqual(p.steps[0].body, "int a;\n")
        self.assertEqual(p.steps[2].expect, 2)
        self.assertEqual(replay.patch_paths(p.steps[1]), ["src/b.cpp"])

    def test_malformed_markers_are_refused_naming_page_and_line(self):
        self.refused("text\n", "docs/develop/p.md:", ["no <!-- replay: files N -->"])
        self.refused("<!-- replay: files 1 -->\n<!-- replay: files 2 -->\n", "docs/develop/p.md:2:",
                     ["a second", "line 1"])
        self.refused("<!-- replay: files 0 -->\n<!-- replay: patch -->\n```cpp\nx\n```\n", "docs/develop/p.md:2:",
                     ["```diff"])
        self.refused("<!-- replay: files 0 -->\n<!-- replay: run -->\n```sh\nx\n```\n", "docs/develop/p.md:2:",
                     ["```console"])
        self.refused("<!-- replay: files 0 -->\n<!-- replay: run exit -->\n```console\n$ x\n```\n",
                     "docs/develop/p.md:2:", ["run exit N"])
        self.refused("<!-- replay: files 0 -->\n\n<!-- replay: create -->\n```\nx\n```\n", "docs/develop/p.md:3:",
                     ["create PATH"])
        self.refused("<!-- replay: files 0 -->\n<!-- replay: delete a -->\n```\nx\n```\n", "docs/develop/p.md:2:",
                     ["unknown marker"])
        self.refused("<!-- replay: files 0 -->\n<!-- replay: create ../x -->\n```\nx\n```\n", "docs/develop/p.md:2:",
                     ["inside the repository"])
        self.refused("<!-- replay: files 0 -->\n<!-- replay: create a -->\n\n```\nx\n```\n", "docs/develop/p.md:2:",
                     ["directly before a fenced block"])

    def test_steps_apply_and_a_failing_hunk_is_named_at_its_line(self):
        tree = os.path.join(self.root, "tree")
        os.makedirs(os.path.join(tree, "src"))
        with open(os.path.join(tree, "src", "b.cpp"), "w") as f:
            f.write("one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\n")
        env = dict(os.environ, GIT_CEILING_DIRECTORIES=self.root)
        good = replay.parse_page(self.root, self.page("""\
            <!-- replay: files 2 -->
            <!-- replay: create src/a.cpp -->
            ```
            new
            ```
            <!-- replay: patch -->
            ```diff
            --- a/src/b.cpp
            +++ b/src/b.cpp
            @@ -1,3 +1,4 @@
             one
            +one and a half
             two
             three
            ```
            <!-- replay: create tests/t.cpp -->
            ```
            t
            ```
            """, "docs/develop/good.md"))
        touched = replay.apply_steps(good, tree, env)
        self.assertEqual(replay.counted(touched), ["src/a.cpp", "src/b.cpp"])
        self.assertEqual(read(tree, "src", "b.cpp").split("\n")[:3],
                         ["one", "one and a half", "two"])
        self.assertEqual(read(tree, "src", "a.cpp"), "new\n")
        # The second hunk's context is not in the file: the failure names its @@ line.
        bad = replay.parse_page(self.root, self.page("""\
            <!-- replay: files 1 -->
            <!-- replay: patch -->
            ```diff
            --- a/src/b.cpp
            +++ b/src/b.cpp
            @@ -1,2 +1,3 @@
             one
            +zero
             one and a half
            @@ -6,3 +7,4 @@
             five
            +five and a half
             not six
             seven
            ```
            """, "docs/develop/bad.md"))
        with self.assertRaises(replay.ReplayError) as e:
            replay.apply_steps(bad, tree, env)
        self.assertTrue(str(e.exception).startswith("docs/develop/bad.md:10:"), str(e.exception))
        self.assertIn("does not apply", str(e.exception))
        # A create step never overwrites a file.
        again = replay.parse_page(self.root, self.page("<!-- replay: files 1 -->\n<!-- replay: create src/a.cpp -->\n"
                                                       "```\nx\n```\n", "docs/develop/again.md"))
        with self.assertRaises(replay.ReplayError) as e:
            replay.apply_steps(again, tree, env)
        self.assertTrue(str(e.exception).startswith("docs/develop/again.md:2:"), str(e.exception))

    def test_the_tree_holds_exactly_the_tracked_files_and_keeps_its_build(self):
        src, tree = os.path.join(self.root, "src"), os.path.join(self.root, "tree")
        os.makedirs(os.path.join(src, "d"))
        for rel, text in (("a", "a\n"), ("d/b", "b\n")):
            with open(os.path.join(src, rel), "w") as f:
                f.write(text)
        os.makedirs(os.path.join(tree, "build"))
        os.makedirs(os.path.join(tree, "d"))
        for rel, text in (("build/keep", "k"), ("stale", "s"), ("d/b", "old\n")):
            with open(os.path.join(tree, rel), "w") as f:
                f.write(text)
        self.assertEqual(replay.sync_tree(src, tree, ["a", "d/b"]), (2, 1))
        self.assertEqual(read(tree, "d", "b"), "b\n")
        self.assertFalse(os.path.exists(os.path.join(tree, "stale")))
        self.assertTrue(os.path.exists(os.path.join(tree, "build", "keep")))
        self.assertEqual(replay.sync_tree(src, tree, ["a", "d/b"]), (0, 0))  # nothing differs: nothing rewritten

    def run_block(self, text):
        bindir = os.path.join(self.root, "bin")
        os.makedirs(bindir, exist_ok=True)
        with open(os.path.join(bindir, "collnet"), "w") as f:
            f.write(FAKE_COLLNET)
        os.chmod(os.path.join(bindir, "collnet"), 0o755)
        env = dict(os.environ, PATH=bindir + os.pathsep + os.environ["PATH"])
        p = replay.parse_page(self.root, self.page("<!-- replay: files 0 -->\n" + textwrap.dedent(text)))
        return replay.run_step(p.steps[0], self.root, env, 60)

    def test_run_blocks_compare_output_and_the_expected_exit_status(self):
        self.assertEqual(self.run_block("""\
            <!-- replay: run -->
            ```console
            $ collnet list
            Algorithms:
              ring ... a ring
            ```
            """), [])
        self.assertEqual(self.run_block("""\
            <!-- replay: run exit 2 -->
            ```console
            $ collnet list | grep -c ring
            1
            $ collnet bad
            collnet check: error: key 'toy': 'x' is not accepted; accepted values: a, b
            ```
            """), [])
        # Output that differs is named at its page line.
        failed = self.run_block("""\
            <!-- replay: run exit 2 -->
            ```console
            $ collnet bad
            collnet check: error: key 'toy': 'x' is not accepted; accepted values: a, b, c
            ```
            """)
        self.assertEqual(len(failed), 1)
        self.assertTrue(failed[0].startswith("docs/develop/p.md:5:"), failed)
        # A block that must succeed fails on exit 2; one that must exit 2 fails on exit 0.
        self.assertIn("exit status 2, expected 0", self.run_block(
            "<!-- replay: run -->\n```console\n$ collnet bad\n...\n```\n")[0])
        self.assertIn("exit status 0, expected 2", self.run_block(
            "<!-- replay: run exit 2 -->\n```console\n$ collnet list\n...\n```\n")[0])
        # The failing command comes last: commands after it would never run.
        failed = self.run_block("""\
            <!-- replay: run exit 2 -->
            ```console
            $ collnet bad
            ...
            $ collnet list
            ...
            ```
            """)
        self.assertEqual(len(failed), 1)
        self.assertIn("did not run", failed[0])


if __name__ == "__main__":
    unittest.main()
