#!/usr/bin/env python3
"""check_json_bytes.py SYSNODE SYSNODE_BENCH CASE_DIR WORK: the run report,
the timeline and sysnode-bench --json are valid JSON (UTF-8, RFC 8259) when
the case directory's name holds a byte that is not UTF-8 (0xff), a quote, a
backslash and valid UTF-8 (é): the 0xff is kept as the text \\xff, the rest
as it is."""
import json, os, shutil, subprocess, sys

sysnode, bench, case, work = sys.argv[1:5]
os.makedirs(work, exist_ok=True)
name = b'c\xffs"e\\\xc3\xa9'
odd = os.path.join(os.fsencode(work), name)
if os.path.exists(odd):
    shutil.rmtree(odd)
shutil.copytree(os.fsencode(case), odd)
report, timeline, bench_json = (os.path.join(work, f) for f in ("bytes.report.json", "bytes.timeline.json",
                                                                 "bytes.bench.json"))
subprocess.run([os.fsencode(sysnode), b"run", odd, b"--report", os.fsencode(report), b"--timeline",
                os.fsencode(timeline)], check=True, stdout=subprocess.DEVNULL)
subprocess.run([os.fsencode(bench), odd, b"--json", os.fsencode(bench_json)], check=True, stdout=subprocess.DEVNULL)
want = os.path.join(work, 'c\\xffs"e\\é')
for path in (report, timeline, bench_json):
    with open(path, "rb") as f:
        doc = json.loads(f.read().decode("utf-8"))  # raises on a byte that is not UTF-8
    if path == report:
        assert doc["case_dir"] == want, doc["case_dir"]
    if path == bench_json:
        assert doc["cases"][0]["dir"] == want, doc["cases"][0]
print("report, timeline and bench JSON valid with a non-UTF-8 case directory")
