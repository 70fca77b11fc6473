#!/usr/bin/env python3
"""Puts the scenario-key tables that `collnet list --markdown` generates from
the key declarations into README.md, between their markers
(<!-- keys:NAME --> ... <!-- /keys:NAME -->). test_cli ReadmeKeyTables
fails while README.md differs from them.

    python3 scripts/readme_key_tables.py [build/collnet] [README.md]
"""
import re
import subprocess
import sys

collnet = sys.argv[1] if len(sys.argv) > 1 else "build/collnet"
readme = sys.argv[2] if len(sys.argv) > 2 else "README.md"
generated = subprocess.run([collnet, "list", "--markdown"], check=True, capture_output=True, text=True).stdout
text = open(readme, encoding="utf-8").read()
for m in re.finditer(r"<!-- keys:(\w+) -->\n.*?<!-- /keys:\1 -->\n", generated, re.S):
    name = m.group(1)
    block = re.compile(r"<!-- keys:%s -->\n.*?<!-- /keys:%s -->\n" % (name, name), re.S)
    if not block.search(text):
        sys.exit(f"{readme}: no block <!-- keys:{name} --> ... <!-- /keys:{name} -->")
    text = block.sub(lambda _: m.group(0), text)
open(readme, "w", encoding="utf-8").write(text)
