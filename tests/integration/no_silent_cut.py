#!/usr/bin/env python3
"""No text is cut silently (issue 20 item 7, common/err_text.h): a message
or name formatted into a fixed buffer goes through sn_text_fit, which ends
a cut in "..." at a UTF-8 boundary. An snprintf or vsnprintf whose result
is thrown away (a statement of its own) cuts without a word, so none is
left in the programs' and libraries' sources (host/, sim/, common/) but
err_text.c's own, which the rule is built on. An snprintf whose length is
used (`int n = snprintf(...)`) checks its own fit and is allowed.

usage: no_silent_cut.py REPO_ROOT"""
import os
import re
import sys

from tree_files import tree_files

root = sys.argv[1]
DISCARDED = re.compile(r"^\s*(?:\}\s*else\s*)?(?:\(void\)\s*)?v?snprintf\s*\(")
found = []
for path in tree_files(root):
    if not path.startswith(("host/", "sim/", "common/")) or not path.endswith((".c", ".cpp", ".h")):
        continue
    if path == "common/err_text.c":
        continue
    with open(os.path.join(root, path), encoding="utf-8", errors="replace") as f:
        for n, line in enumerate(f, 1):
            if DISCARDED.match(line):
                found.append(f"{path}:{n}: {line.strip()}")
for x in found:
    print("silent cut (use sn_text_fit, common/err_text.h):", x)
if found:
    sys.exit(f"{len(found)} formatted texts cut without a mark")
print("PASS: every text into a fixed buffer is whole or marked")
