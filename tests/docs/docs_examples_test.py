#!/usr/bin/env python3
"""Tests of scripts/docs_examples.py (ctest docs_examples_checker): pages
written here, run against a stand-in `collnet` whose output is known, so
that each rule of the checker (every command counts, shown output compared
line by line, the masks, the picture captions, --update) is held against
what it must accept and what it must refuse."""
import os
import subprocess
import sys
import tempfile
import textwrap
import unittest

SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts", "docs_examples.py")

# The stand-in: fixed figures, one line that varies from run to run, and a
# failing subcommand.
FAKE_COLLNET = """#!/usr/bin/env bash
case "$1" in
  run)
    echo "collnet run: a2a-hopgroup on torus:4x4 (16 nodes)"
    echo "  cycles            1058"
    echo "  efficiency        0.484"
    echo "  speed             $RANDOM.$RANDOM router-cycles/s"
    echo "  data check        pass";;
  list)
    echo "Topologies:"; echo "  torus"; echo "  mesh"; echo "  fattree"; echo "Routing:"; echo "  nca-adaptive";;
  speed)
    echo "  speed             $RANDOM.$RANDOM M router-cycles/s (1 thread), 4096 flit-hops";;
  bad)
    echo "collnet: error: key 'bogus': unknown" >&2; exit 2;;
  fail)
    exit 3;;
esac
"""

RUN_SHOWN = """\
collnet run: a2a-hopgroup on torus:4x4 (16 nodes)
  cycles            1058
  efficiency        0.484
  speed             ... router-cycles/s
  data check        pass
"""


class DocsExamplesTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.root = self.tmp.name
        for folder in ("docs/guide", "scripts", "examples", "bin"):
            os.makedirs(os.path.join(self.root, folder))
        self.collnet = os.path.join(self.root, "bin", "collnet")
        with open(self.collnet, "w") as f:
            f.write(FAKE_COLLNET)
        os.chmod(self.collnet, 0o755)
        with open(os.path.join(self.root, "scripts", "draw.py"), "w") as f:
            f.write("")

    def tearDown(self):
        self.tmp.cleanup()

    def page(self, text, name="docs/guide/page.md"):
        with open(os.path.join(self.root, name), "w") as f:
            f.write(textwrap.dedent(text))
        return name

    def check(self, *extra):
        r = subprocess.run([sys.executable, SCRIPT, "--collnet", self.collnet, "--root", self.root, *extra,
                            "docs/guide/page.md"], capture_output=True, text=True)
        return r.returncode, r.stdout + r.stderr

    def test_shown_output_that_matches_passes_with_masks(self):
        self.page("# Page\n\n<!-- test -->\n```sh\ncollnet run\n```\n\n<!-- output -->\n```text\n"
                  + RUN_SHOWN + "```\n\n<!-- test -->\n```console\n$ collnet list\nTopologies:\n...\nRouting:\n"
                  "  nca-adaptive\n```\n")
        status, out = self.check()
        self.assertEqual(status, 0, out)
        self.assertIn("2 with their output compared", out)

    def test_a_stale_figure_fails_naming_page_line_expected_and_got(self):
        self.page("# Page\n\n<!-- test -->\n```sh\ncollnet run\n```\n\n<!-- output -->\n```text\n"
                  + RUN_SHOWN.replace("1058", "1055") + "```\n")
        status, out = self.check()
        self.assertEqual(status, 1, out)
        # Line 11 of the page is the shown cycles line.
        self.assertIn("docs/guide/page.md:11: shown output differs from what the command printed", out)
        self.assertIn("expected: '  cycles            1055'", out)
        self.assertIn("got:      '  cycles            1058'", out)

    def test_a_stale_figure_in_a_console_block_fails(self):
        self.page("# Page\n\n<!-- test -->\n```console\n$ collnet list\nTopologies:\n  torus\n  mesh\n"
                  "Routing:\n  nca-adaptive\n```\n")
        status, out = self.check()
        self.assertEqual(status, 1, out)
        self.assertIn("docs/guide/page.md:9: the command printed a line the page does not show (before this line)",
                      out)
        self.assertIn("got:      '  fattree'", out)

    def test_a_shown_line_nothing_printed_fails(self):
        self.page("# Page\n\n<!-- test -->\n```sh\ncollnet run\n```\n\n<!-- output -->\n```text\n"
                  + RUN_SHOWN + "  barriers          15\n```\n")
        status, out = self.check()
        self.assertEqual(status, 1, out)
        self.assertIn("docs/guide/page.md:15: shown line the command did not print", out)

    def test_a_failing_first_command_fails_the_block(self):
        for fence in ("sh", "console"):
            with self.subTest(fence=fence):
                prefix = "$ " if fence == "console" else ""
                self.page(f"# Page\n\n<!-- test -->\n```{fence}\n{prefix}collnet fail\n{prefix}collnet list > /dev/null\n"
                          "```\n")
                status, out = self.check()
                self.assertEqual(status, 1, out)
                self.assertIn("docs/guide/page.md:4: example failed: exit status 3, expected 0", out)

    def test_an_expected_exit_status_and_its_message(self):
        self.page("# Page\n\n<!-- test: exit 2 -->\n```console\n$ collnet bad\n"
                  "collnet: error: key 'bogus': unknown\n```\n")
        self.assertEqual(self.check()[0], 0)
        self.page("# Page\n\n<!-- test: exit 2 -->\n```console\n$ collnet bad\n"
                  "collnet: error: key 'bogus': not known\n```\n")
        status, out = self.check()
        self.assertEqual(status, 1, out)
        self.assertIn("docs/guide/page.md:6: shown output differs", out)

    def test_update_rewrites_the_figure_and_keeps_the_masks(self):
        name = self.page("# Page\n\n<!-- test -->\n```sh\ncollnet run\n```\n\n<!-- output -->\n```text\n"
                         + RUN_SHOWN.replace("1058", "1055") + "```\n\nAfter.\n")
        status, out = self.check("--update")
        self.assertEqual(status, 0, out)
        with open(os.path.join(self.root, name)) as f:
            text = f.read()
        self.assertIn(RUN_SHOWN, text)  # the figure as printed, the speed line still masked
        self.assertTrue(text.endswith("```\n\nAfter.\n"))
        self.assertEqual(self.check()[0], 0)

    def test_update_keeps_the_mask_of_a_line_whose_figure_changed(self):
        name = self.page("# Page\n\n<!-- test -->\n```sh\ncollnet speed\n```\n\n<!-- output -->\n```text\n"
                         "  speed             ..., 12288 flit-hops\n```\n")
        self.assertEqual(self.check()[0], 1)
        status, out = self.check("--update")
        self.assertEqual(status, 0, out)
        with open(os.path.join(self.root, name)) as f:
            self.assertIn("```text\n  speed             ..., 4096 flit-hops\n```\n", f.read())
        self.assertEqual(self.check()[0], 0)

    def test_output_marker_without_a_tested_block_is_refused(self):
        self.page("# Page\n\n<!-- test -->\n```sh\ncollnet list\n```\n\nText.\n\n<!-- output -->\n```text\nx\n```\n")
        status, out = self.check()
        self.assertEqual(status, 1, out)
        self.assertIn("docs/guide/page.md:10: <!-- output --> must follow a <!-- test --> sh or bash block", out)

    def test_a_picture_needs_a_caption_naming_an_existing_command(self):
        body = "# Page\n\n<!-- test -->\n```sh\ncollnet list\n```\n\n![a figure](../fig.png)\n\n"
        self.page(body + "A paragraph.\n")
        status, out = self.check()
        self.assertEqual(status, 1, out)
        self.assertIn("docs/guide/page.md:8: picture without a caption naming the command that makes it", out)
        self.page(body + "*The figure. Made by `scripts/missing.py --out docs/fig.png`.*\n")
        status, out = self.check()
        self.assertEqual(status, 1, out)
        self.assertIn("names scripts/missing.py, which is not in the repository", out)
        self.page(body + "*The figure. Made by `scripts/draw.py --out docs/fig.png`.*\n")
        self.assertEqual(self.check()[0], 0)


if __name__ == "__main__":
    unittest.main()
