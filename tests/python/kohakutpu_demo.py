"""Runs one of KohakuTPU's demos (demos/kohakutpu/NAME.py of the checkout in
$SYSNODE_KOHAKUTPU) unmodified, on the SysNode (sysnode.kohakutpu.device)
and on the compiler's model built on the SysNode's mesh
(kohakutpu.model.SimDevice with its MG, VC and agent), and compares every
result the demo read back, byte for byte. --device: the SysNode behind a
`sysnode run --device` spec (sim, xdma:PREFIX) instead of the in-process one.

    kohakutpu_demo.py NAME [--cu-version 4|5] [--device SPEC] [--record CASE_DIR] [--runs N]

Prints one line: NAME, the results compared, match or how many differ,
and each side's wall seconds (less the harness's collections) and seconds
inside the device's dispatch (the units' work: the compiler's compile is
outside it), the medians of N runs of each side in one process, the order
alternating; exit 0 on a match, 1 on a difference, 77 (skipped) without
$SYSNODE_KOHAKUTPU or when the demo imports a module that is not installed
(tuning: tinygrad). A demo that stops with an error passes when both sides
stop with the same error, raised by KohakuTPU's own code (memory,
simulator: the compiler's LangError), and fails otherwise."""
import argparse
import contextlib
import gc
import io
import os
import runpy
import statistics
import sys
import time
import traceback

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "python"))
import sysnode.kohakutpu as skt  # noqa: E402


def run(path, make):
    """Runs the demo at path with every device it opens being make()'s;
    returns (results read back as bytes, wall seconds less the collections
    this harness adds, seconds inside the device's dispatch, the device)."""
    from kohakuaccel.rt import Runtime
    from kohakutpu import api, sim

    dev = make()
    api._device = dev
    got = []
    get = Runtime.get

    def keep(self, buffer):
        out = get(self, buffer)
        got.append(bytes(memoryview(out.astype("<f2")).cast("B")))
        return out

    dispatch = type(dev).dispatch
    collecting, dispatching = [0.0], [0.0]

    def collected(self, *a, **kw):
        t = time.perf_counter()
        gc.collect()  # spans freed by the collector are freed before each kernel, the same on both sides
        collecting[0] += time.perf_counter() - t
        t = time.perf_counter()
        try:
            return dispatch(self, *a, **kw)
        finally:
            dispatching[0] += time.perf_counter() - t

    saved = (api.script_device, sim.device, Runtime.get, type(dev).dispatch)
    api.script_device = lambda kind=None: dev
    sim.device = lambda **kw: dev
    Runtime.get = keep
    type(dev).dispatch = collected
    start = time.perf_counter()
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            runpy.run_path(path, run_name="__main__")
    finally:
        api.script_device, sim.device, Runtime.get, type(dev).dispatch = saved
    return got, time.perf_counter() - start - collecting[0], dispatching[0], dev


def attempt(path, make):
    """run(path, make), or None and the exception the demo raised."""
    try:
        return run(path, make), None
    except Exception as e:  # the demo's own error is the verdict's subject
        return None, e


def compilers_own(e, root):
    """Whether KohakuTPU itself raised e: its class is KohakuTPU's and its
    innermost frame lies in the checkout (nothing of sysnode on top)."""
    frames = traceback.extract_tb(e.__traceback__)
    return (type(e).__module__.split(".")[0] in ("kohakutpu", "kohakuaccel") and bool(frames)
            and os.path.realpath(frames[-1].filename).startswith(os.path.realpath(root) + os.sep))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("name")
    ap.add_argument("--cu-version", type=int, default=4)
    ap.add_argument("--device")
    ap.add_argument("--record")
    ap.add_argument("--runs", type=int, default=1)
    args = ap.parse_args()
    root = skt.checkout()
    if not root:
        print("%s: skipped: SYSNODE_KOHAKUTPU names no KohakuTPU checkout" % args.name)
        return 77
    path = os.path.join(root, "demos", "kohakutpu", args.name + ".py")
    makers = {"model": skt.model,
              "SysNode": lambda: skt.device(cu_version=args.cu_version, device=args.device, record=args.record)}
    first = {side: attempt(path, make) for side, make in makers.items()}
    errors = {side: e for side, (_, e) in first.items() if e is not None}
    missing = errors.get("model")
    if isinstance(missing, ImportError) and missing.name and missing.name.split(".")[0] not in ("kohakutpu",
                                                                                                "kohakuaccel"):
        print("%s: skipped: the demo imports %s, which is not installed (%s)" % (args.name, missing.name, missing))
        return 77
    if errors:
        e_model, e_sn = errors.get("model"), errors.get("SysNode")
        same = (e_model is not None and e_sn is not None and type(e_model) is type(e_sn) and str(e_model) == str(e_sn)
                and compilers_own(e_model, root) and compilers_own(e_sn, root))
        print("%s v%d: %s; model: %s; SysNode: %s" % (
            args.name, args.cu_version,
            "both stop with the compiler's own error, unchanged" if same else "DIFFER in how they stop",
            "%s: %s" % (type(e_model).__qualname__, e_model) if e_model else "ran",
            "%s: %s" % (type(e_sn).__qualname__, e_sn) if e_sn else "ran"))
        return 0 if same else 1
    (want, *_), (got, *_) = first["model"][0], first["SysNode"][0]
    if args.record:
        first["SysNode"][0][3].close()
    walls = {side: [out[1]] for side, (out, _) in first.items()}
    inside = {side: [out[2]] for side, (out, _) in first.items()}
    for i in range(1, args.runs):  # the order alternates: neither side always meets warm caches
        for side in (("SysNode", "model") if i % 2 else ("model", "SysNode")):
            if side == "SysNode":
                _, wall, disp, dev = run(path, lambda: skt.device(cu_version=args.cu_version, device=args.device))
                dev.close()
            else:
                _, wall, disp, _ = run(path, skt.model)
            walls[side].append(wall)
            inside[side].append(disp)
    (t_model, t_sn), (d_model, d_sn) = ([statistics.median(x[s]) for s in ("model", "SysNode")] for x in (walls, inside))
    same = sum(a == b for a, b in zip(got, want))
    verdict = "match" if len(got) == len(want) == same else "DIFFER (%d of %d/%d results equal)" % (
        same, len(got), len(want))
    print("%s v%d: %d results: %s; wall%s: model %.3f s, SysNode %.3f s (%.1fx); in dispatch: model %.3f s, "
          "SysNode %.3f s (%.1fx)" % (args.name, args.cu_version, len(want), verdict,
                                      " (median of %d)" % args.runs if args.runs > 1 else "", t_model, t_sn,
                                      t_model / t_sn if t_sn else 0, d_model, d_sn, d_model / d_sn if d_sn else 0))
    return 0 if verdict == "match" else 1


if __name__ == "__main__":
    sys.exit(main())
