#!/usr/bin/env python3
"""Tests of scripts/doc_tables.py (ctest doc_tables): pages written here with
table markers, a small collnet bench report and a stand-in scripts/synth.sh
whose output is known, so that the marker rules (text outside the markers
kept, unpaired markers and unknown tables refused before anything runs), the
rendering of a report and the replacement of one block's synthesis rows are
held against what they must give."""
import json
import os
import subprocess
import sys
import tempfile
import textwrap
import unittest

SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts", "doc_tables.py")

PAGE = """\
# Performance

Text before.

<!-- table: collectives -->
| stale | table |
|---|---|
| 1 | 2 |
<!-- end table -->

Text after.
"""

# Two points: A2AT 32x32 over its time target by 20 % and within its memory
# target (390,000 KiB = 399.36 MB < 400 MB); twotree p=16 within 60 s.
REPORT = {
    "collective_runs": [
        {"point": "a2at-torus:32x32", "cycles": 1000, "flit_hops": 4000, "run_seconds": 36.0,
         "sim_cpu_seconds": 30.0, "ns_per_flit_hop": 7500000.0, "router_evaluations": 1000,
         "nic_evaluations": 500, "peak_rss_kib": 390000},
        {"point": "twotree-hier-leafspine:p=16", "cycles": 20, "flit_hops": 100, "run_seconds": 59.5,
         "sim_cpu_seconds": 50.0, "ns_per_flit_hop": 12.25, "router_evaluations": 90,
         "nic_evaluations": 66, "peak_rss_kib": 1024},
    ],
    "load_average_before": "0.50 0.40 0.30", "load_average_after": "1.25 0.50 0.30",
    "machine": "a test machine", "date": "2026-01-02",
}

SYNTH_PAGE = """\
# Synthesis

<!-- table: synthesis-blocks -->
*old caption*

| block | target | LUTs | FFs | RAM | Fmax (median of 5 seeds) | seeds' range (MHz) |
|---|---|---:|---:|---|---:|---:|
| packet_pacer | iCE40 HX8K | 99 | 31 | 0 SB_RAM40_4K | 176.15 MHz | 159.80-177.68 |
| tree_bcast_rule | iCE40 HX8K | 169 | 65 | 0 SB_RAM40_4K | 147.17 MHz (seed 1) | - |
| tree_bcast_rule | Xilinx 7-series | 151 | 65 | 0 BRAM18, 0 LUTRAM | - | - |
<!-- end table -->

Notes.
"""

# The stand-in synth.sh prints the rows of the blocks it is given (as the
# real one does with --markdown), and records its arguments.
FAKE_SYNTH = """#!/usr/bin/env bash
echo "$@" > "$(dirname "$0")/synth.args"
echo "| block | target | LUTs | FFs | RAM | Fmax (median of 5 seeds) | seeds' range (MHz) |"
echo "|---|---|---:|---:|---|---:|---:|"
echo "| tree_bcast_rule | iCE40 HX8K | 170 | 65 | 0 SB_RAM40_4K | 150.00 MHz | 140.00-155.00 |"
echo "| tree_bcast_rule | Xilinx 7-series | 151 | 65 | 0 BRAM18, 0 LUTRAM | - | - |"
"""


class DocTablesTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.root = self.tmp.name
        for folder in ("docs", "scripts", "rtl"):
            os.makedirs(os.path.join(self.root, folder))
        self.write("docs/performance.md", PAGE)
        self.write("docs/synthesis.md", SYNTH_PAGE)
        self.write("report.json", json.dumps(REPORT))
        self.write("scripts/synth.sh", FAKE_SYNTH)
        for block in ("packet_pacer", "tree_bcast_rule", "collnet_descriptor_pkg"):
            self.write(f"rtl/{block}.sv", "module m; endmodule\n")

    def tearDown(self):
        self.tmp.cleanup()

    def write(self, path, text):
        with open(os.path.join(self.root, path), "w") as f:
            f.write(text)

    def read(self, path):
        with open(os.path.join(self.root, path)) as f:
            return f.read()

    def run_script(self, *args):
        return subprocess.run([sys.executable, SCRIPT, "--root", self.root, *args],
                              capture_output=True, text=True)

    def render_report(self, *extra):
        return self.run_script("--table", "collectives", "--from-report", os.path.join(self.root, "report.json"),
                               *extra)

    def test_report_rendered_between_the_markers_and_the_rest_kept(self):
        r = self.render_report()
        self.assertEqual(r.returncode, 0, r.stderr)
        page = self.read("docs/performance.md")
        before, rest = page.split("<!-- table: collectives -->\n")
        body, after = rest.split("<!-- end table -->\n")
        self.assertEqual(before, "# Performance\n\nText before.\n\n")
        self.assertEqual(after, "\nText after.\n")
        self.assertNotIn("stale", body)
        # the command beside the table, the machine, date and load of the report
        self.assertIn("`python3 scripts/doc_tables.py --table collectives`", body)
        self.assertIn("measured on a test machine, 2026-01-02, load average 0.50 to 1.25", body)
        # 36 s against 30 s is 20 % over; 390,000 KiB is 399.36 MB, within 400 MB;
        # 1000 router and 500 NIC evaluations over 4000 flit-hops: 0.25 and 0.12(5)
        self.assertIn("| a2at-torus:32x32 | 1,000 | 4,000 | 36.00 (target 30 s: 20 % over) | 30.00 | "
                      "7,500,000.0 | 0.25 | 0.12 | 380.9 (target 400 MB: met) |", body)
        self.assertIn("| twotree-hier-leafspine:p=16 | 20 | 100 | 59.50 (target 60 s: met) | 50.00 | 12.2 | "
                      "0.90 | 0.66 | 1.0 |", body)

    def test_regenerating_twice_gives_the_same_page(self):
        self.render_report()
        first = self.read("docs/performance.md")
        self.render_report()
        self.assertEqual(self.read("docs/performance.md"), first)

    def test_dry_run_prints_the_table_and_leaves_the_page(self):
        r = self.render_report("--dry-run")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(self.read("docs/performance.md"), PAGE)
        self.assertIn("| a2at-torus:32x32 | 1,000 |", r.stdout)

    def test_a_table_without_its_end_marker_is_refused_naming_the_line(self):
        self.write("docs/performance.md", PAGE.replace("<!-- end table -->\n", ""))
        r = self.render_report()
        self.assertEqual(r.returncode, 2)
        self.assertIn("docs/performance.md:5: table 'collectives' has no '<!-- end table -->'", r.stderr)

    def test_an_end_marker_without_a_table_is_refused(self):
        self.write("docs/performance.md", PAGE.replace("<!-- table: collectives -->\n", ""))
        r = self.render_report()
        self.assertEqual(r.returncode, 2)
        self.assertIn("docs/performance.md:8: '<!-- end table -->' without a '<!-- table: NAME -->'", r.stderr)

    def test_a_table_the_page_lacks_is_refused_listing_what_it_has(self):
        self.write("docs/performance.md", PAGE.replace("table: collectives", "table: synthetic"))
        r = self.render_report()
        self.assertEqual(r.returncode, 2)
        self.assertIn("docs/performance.md: no table 'collectives'", r.stderr)
        self.assertIn("the page has: synthetic", r.stderr)
        self.assertIn("<!-- table: synthetic -->", self.read("docs/performance.md"))

    def test_an_unknown_table_is_refused_with_the_accepted_names(self):
        r = self.run_script("--table", "bogus")
        self.assertEqual(r.returncode, 2)
        self.assertIn("--table bogus: unknown table (accepted: synthesis-blocks, callgrind,", r.stderr)

    def test_a_report_that_is_not_a_bench_report_is_refused(self):
        self.write("report.json", json.dumps({"cycles": 3}))
        r = self.render_report()
        self.assertEqual(r.returncode, 2)
        self.assertIn("not a collnet bench --collectives report", r.stderr)
        self.assertEqual(self.read("docs/performance.md"), PAGE)

    def test_one_blocks_synthesis_rows_replaced_the_others_kept(self):
        r = self.run_script("--table", "synthesis-blocks", "--block", "tree_bcast_rule")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(self.read("scripts/synth.args").split(), ["--markdown", "tree_bcast_rule"])
        page = self.read("docs/synthesis.md")
        rows = [line for line in page.splitlines() if line.startswith("| ") and ("HX8K" in line or "7-series" in line)]
        self.assertEqual(rows, [
            "| packet_pacer | iCE40 HX8K | 99 | 31 | 0 SB_RAM40_4K | 176.15 MHz | 159.80-177.68 |",
            "| tree_bcast_rule | iCE40 HX8K | 170 | 65 | 0 SB_RAM40_4K | 150.00 MHz | 140.00-155.00 |",
            "| tree_bcast_rule | Xilinx 7-series | 151 | 65 | 0 BRAM18, 0 LUTRAM | - | - |"])
        self.assertNotIn("old caption", page)
        self.assertIn("`python3 scripts/doc_tables.py --table synthesis-blocks`", page)
        self.assertTrue(page.endswith("<!-- end table -->\n\nNotes.\n"))

    def test_an_unknown_block_is_refused_before_synthesis_runs(self):
        r = self.run_script("--table", "synthesis-blocks", "--block", "no_such_block")
        self.assertEqual(r.returncode, 2)
        self.assertIn("--block no_such_block: no rtl/no_such_block.sv (accepted: packet_pacer, tree_bcast_rule)",
                      r.stderr)
        self.assertFalse(os.path.exists(os.path.join(self.root, "scripts/synth.args")))


if __name__ == "__main__":
    unittest.main()
