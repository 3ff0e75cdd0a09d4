"""A compiler session rebuilt from a case folder of artifacts/compiler/: the
host uploads the case's operands, executes its artifacts one by one (as
kohakuaccel.runtime.execute receives them) and reads the outputs. The test
suite cannot import the compiler, so these sessions stand in for it."""
import json
import os


def load(case_dir):
    with open(os.path.join(case_dir, "manifest.json")) as f:
        m = json.load(f)

    def data(region):
        with open(os.path.join(case_dir, region["file"]), "rb") as f:
            return f.read()

    uploads = [(u["addr"], data(u)) for u in m["uploads_before_round0"]]
    artifacts = []
    for name in m["artifacts_in_order"]:
        with open(os.path.join(case_dir, name)) as f:
            artifacts.append(json.load(f))
    expected = [(x["addr"], data(x)) for x in m["expected_outputs_after_last_round"]]
    return uploads, artifacts, expected


def run(target, case_dir):
    """Runs the case's session on target (a Device or a Recorder); returns
    [(addr, bytes read, bytes expected)] per expected output."""
    uploads, artifacts, expected = load(case_dir)
    for addr, data in uploads:
        target.write(addr, data)
    for artifact in artifacts:
        target.execute(artifact)
    return [(addr, target.read(addr, len(want)), want) for addr, want in expected]
