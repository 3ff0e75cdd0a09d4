#!/usr/bin/env python3
"""docs/manifest.schema.json against the loader: every shipped case's
manifest is valid, and each of a set of broken copies of vadd128's manifest
is refused both by the schema and by `sysnode run` (exit 1, naming the member),
so the schema neither misses a rule the loader holds nor invents one.

usage: manifest_schema.py SCHEMA CASES_DIR SYSNODE"""
import copy
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile

import jsonschema


def main():
    schema_path, cases, sysnode = sys.argv[1:4]
    schema = json.load(open(schema_path))
    jsonschema.Draft202012Validator.check_schema(schema)
    valid = jsonschema.Draft202012Validator(schema)
    manifests = sorted(glob.glob(os.path.join(cases, "*", "manifest.json")))
    assert len(manifests) >= 7, manifests
    for m in manifests:
        valid.validate(json.load(open(m)))
    base = json.load(open(os.path.join(cases, "vadd128", "manifest.json")))
    up = "uploads_before_round0"
    broken = {
        "no name": (lambda m: m.pop("name"), '"name"'),
        "hex addr": (lambda m: m[up][0].__setitem__("addr", "0x1000"), "addr"),
        "path in file": (lambda m: m[up][0].__setitem__("file", "../x.bin"), "plain file name"),
        "no artifacts": (lambda m: m.__setitem__("artifacts_in_order", []), '"artifacts_in_order" is empty'),
        "zero nbytes": (lambda m: m[up][0].__setitem__("nbytes", 0), "nbytes"),
        "short sha256": (lambda m: m[up][0].__setitem__("sha256", "ab"), "sha256"),
        "coordinate past 4 bits": (lambda m: m["mesh"]["VC"][0].__setitem__(0, 16), "mesh x"),
        "rounds as text": (lambda m: m.__setitem__("rounds", "1"), '"rounds"'),
    }
    failed = 0
    for what, (edit, named) in broken.items():
        m = copy.deepcopy(base)
        edit(m)
        schema_ok = valid.is_valid(m)
        with tempfile.TemporaryDirectory() as d:
            case = os.path.join(d, "case")
            shutil.copytree(os.path.join(cases, "vadd128"), case)
            json.dump(m, open(os.path.join(case, "manifest.json"), "w"))
            p = subprocess.run([sysnode, "run", case], capture_output=True, text=True)
        if schema_ok or p.returncode != 1 or named not in p.stderr:
            print(f"FAIL {what}: schema {'accepts' if schema_ok else 'refuses'}; sysnode run exit {p.returncode}: "
                  f"{p.stderr.strip()}")
            failed += 1
        else:
            print(f"ok {what}: {p.stderr.strip()}")
    print(f"{len(manifests)} shipped manifests valid, {len(broken) - failed} of {len(broken)} broken ones refused by both")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
