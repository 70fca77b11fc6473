#!/usr/bin/env python3
"""Puts the scenario-key tables that `collnet list --markdown` generates from
the key declarations into the documentation's key reference,
docs/reference/keys.md, between their markers
(<!-- keys:NAME --> ... <!-- /keys:NAME -->). test_cli ReadmeKeyTables
compares every row of those tables with the declarations and fails while
they differ.

    python3 scripts/readme_key_tables.py [build/collnet] [docs/reference/keys.md]
"""
import re
import subprocess
import sys

collnet = sys.argv[1] if len(sys.argv) > 1 else "build/collnet"
page = sys.argv[2] if len(sys.argv) > 2 else "docs/reference/keys.md"
generated = subprocess.run([collnet, "list", "--markdown"], check=True, capture_output=True, text=True).stdout
text = open(page, encoding="utf-8").read()
for m in re.finditer(r"<!-- keys:(\w+) -->\n.*?<!-- /keys:\1 -->\n", generated, re.S):
    name = m.group(1)
    block = re.compile(r"<!-- keys:%s -->\n.*?<!-- /keys:%s -->\n" % (name, name), re.S)
    if not block.search(text):
        sys.exit(f"{page}: no block <!-- keys:{name} --> ... <!-- /keys:{name} -->")
    text = block.sub(lambda _: m.group(0), text)
open(page, "w", encoding="utf-8").write(text)
