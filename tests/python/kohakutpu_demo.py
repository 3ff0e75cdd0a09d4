"""Runs one of KohakuTPU's demos (demos/kohakutpu/NAME.py of the checkout in
$SYSNODE_KOHAKUTPU) unmodified, on the SysNode (sysnode.kohakutpu.device)
and on the compiler's model built on the SysNode's mesh
(kohakutpu.model.SimDevice with its MG, VC and agent), and compares every
result the demo read back, byte for byte.

    kohakutpu_demo.py NAME [--cu-version 4|5] [--record CASE_DIR]

Prints one line: NAME, the results compared, match or how many differ,
and each side's wall seconds (less the harness's collections) and seconds
inside the device's dispatch (the units' work: the compiler's compile is
outside it); exit 0 on a match, 1 on a
difference, 77 (skipped) without $SYSNODE_KOHAKUTPU."""
import argparse
import contextlib
import gc
import io
import os
import runpy
import sys
import time

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


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("name")
    ap.add_argument("--cu-version", type=int, default=4)
    ap.add_argument("--record")
    args = ap.parse_args()
    root = skt.checkout()
    if not root:
        print("%s: skipped: SYSNODE_KOHAKUTPU names no KohakuTPU checkout" % args.name)
        return 77
    path = os.path.join(root, "demos", "kohakutpu", args.name + ".py")
    want, t_model, d_model, _ = run(path, skt.model)
    got, t_sn, d_sn, dev = run(path, lambda: skt.device(cu_version=args.cu_version, record=args.record))
    if args.record:
        dev.close()
    same = sum(a == b for a, b in zip(got, want))
    verdict = "match" if len(got) == len(want) == same else "DIFFER (%d of %d/%d results equal)" % (
        same, len(got), len(want))
    print("%s v%d: %d results: %s; wall: model %.2f s, SysNode %.2f s (%.1fx); in dispatch: model %.2f s, "
          "SysNode %.2f s (%.1fx)" % (args.name, args.cu_version, len(want), verdict, t_model, t_sn,
                                      t_model / t_sn if t_sn else 0, d_model, d_sn, d_model / d_sn if d_sn else 0))
    return 0 if verdict == "match" else 1


if __name__ == "__main__":
    sys.exit(main())
