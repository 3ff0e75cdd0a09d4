"""The library session by the CLI's rules (issue 20 item 3, issue 21 items 3
and 4): the table never lands on live bytes, integers are range-checked
before ctypes, the cycle cap does not wrap, artifact paths are read by the
bounded regular-file rule, a unit read of bytes nothing wrote is named
(warning, or error when strict), and a DRAIN's peer ack must go to the
SysNode. Expected bytes come from artifacts/compiler/."""
import os
import re
import subprocess
import sys
import tempfile
import threading
import unittest
import warnings

import case_session
import sysnode

CASES = os.path.join(os.path.dirname(__file__), "..", "..", "artifacts", "compiler")
CLI = os.environ.get("SYSNODE_CLI", "sysnode")
ADDR_MASK = ((1 << 34) - 1) << 218  # a cluster payload's low DRAM address field, [251:218]


def case(name):
    return case_session.load(os.path.join(CASES, name))


def drain_to(artifact, addr):
    """artifact with its last payload, a DRAIN, writing at addr instead."""
    flits = list(artifact["flits"])
    flits[-1] = flits[-1] & ~ADDR_MASK | addr << 218
    return dict(artifact, flits=flits)


class TableOverLiveBytes(unittest.TestCase):
    def test_later_table_goes_below_an_earlier_output(self):
        uploads, (mm,), ((_, want),) = case("mm4x32")
        out = 0xFFE000  # below the first table's 4 KB at the top, inside a larger one's
        big_uploads, big_artifacts, _ = case("matmul_512x256x512")
        with sysnode.Device() as dev:
            for addr, data in uploads + big_uploads:
                dev.write(addr, data)
            dev.execute(drain_to(mm, out))
            self.assertEqual(dev.read(out, len(want)), want)
            dev.execute(big_artifacts)
            self.assertEqual(dev.read(out, len(want)), want)


    def test_no_free_place_is_refused_naming_both_ranges(self):
        uploads, (mm,), _ = case("mm4x32")
        with sysnode.Device() as dev:
            dev.write(0, bytes(dev.dram_bytes))  # every byte live
            with self.assertRaises(sysnode.SysNodeError) as cm:
                dev.execute(mm)
            self.assertEqual(cm.exception.result.flits, 0)
        d = cm.exception.diagnosis
        m = re.search(r"\[0x([0-9a-f]+), 0x([0-9a-f]+)\) at the top of DRAM.*last at 0x([0-9a-f]+)", d)
        self.assertIsNotNone(m, d)
        lo, hi, live = (int(g, 16) for g in m.groups())
        self.assertEqual(lo, (1 << 24) - 4096)  # the table's 4 KB page at the top
        self.assertEqual(live, hi - 1)  # every byte of its range is live: the last one is named
        self.assertIn("no 4096-aligned place", d)


class Integers(unittest.TestCase):
    def test_address_past_64_bits(self):
        with sysnode.Device() as dev:
            with self.assertRaises(sysnode.SysNodeError) as cm:
                dev.write(2**64 + 0x5000, b"\x11")
            self.assertIn("address", cm.exception.diagnosis)
            self.assertEqual(dev.read(0x5000, 1), b"\x00")

    def test_cu_version_past_32_bits(self):
        with self.assertRaises(sysnode.SysNodeError) as cm:
            sysnode.Device(cu_version=2**32 + 5)
        self.assertIn("cu_version", cm.exception.diagnosis)

    def test_max_cycles_does_not_wrap(self):
        uploads, artifacts, expected = case("vadd128")
        with sysnode.Device(max_cycles=2**64 - 1) as dev:
            for addr, data in uploads:
                dev.write(addr, data)
            dev.execute(artifacts)
            dev.execute(artifacts)  # after a release: the cap is cycles + max, saturated
            for addr, want in expected:
                self.assertEqual(dev.read(addr, len(want)), want)


class Types(unittest.TestCase):
    """An argument of the wrong type is refused naming it, never read as
    something else: bytes(5) is five zero bytes, a list of ints its bytes,
    and a truth test reads strict="no" as on."""

    def refused(self, name, call):
        with self.assertRaises(sysnode.SysNodeError) as cm:
            call()
        self.assertEqual(cm.exception.status_name, "SN_ERR_INPUT")
        self.assertIn(name, cm.exception.diagnosis)

    def test_data_is_bytes_like(self):
        with sysnode.Device() as dev:
            dev.write(0x5000, b"\x11" * 8)
            for bad in (5, [1, 2, 3], "abc", None, 2.5):
                self.refused("data", lambda: dev.write(0x5000, bad))
            self.assertEqual(dev.read(0x5000, 8), b"\x11" * 8)
            dev.write(0x5000, bytearray(b"\x22\x33"))
            dev.write(0x5002, memoryview(b"\x44\x55"))
            self.assertEqual(dev.read(0x5000, 5), b"\x22\x33\x44\x55\x11")

    def test_recorder_data_is_bytes_like(self):
        with sysnode.Device() as dev, tempfile.TemporaryDirectory() as tmp:
            rec = sysnode.Recorder(dev, os.path.join(tmp, "case"))
            self.refused("data", lambda: rec.write(0x5000, 3))
            self.assertEqual(dev.read(0x5000, 3), b"\0\0\0")

    def test_empty_path_is_no_default(self):
        """An empty path is refused, not read as "not given" (the default
        image, no recording)."""
        self.refused("image", lambda: sysnode.Device(image=""))
        with sysnode.Device() as dev:
            with self.assertRaisesRegex(ValueError, "case_dir '': not a folder path"):
                sysnode.Recorder(dev, "")

    def test_flags_are_bools(self):
        for bad in ("no", 1, None):
            self.refused("strict", lambda: sysnode.Device(strict=bad))
        with sysnode.Device() as dev:
            self.refused("digest", lambda: dev.run_case(os.path.join(CASES, "vadd128"), digest="false"))
            self.assertIsNone(dev.last_result)


class Strings(unittest.TestCase):
    """A string with a NUL byte is refused naming the argument: ctypes would
    hand C its head only ("rv64_mesh_2p2\\0x" opened rv64_mesh_2p2, a case
    folder "mlp\\0x" replayed mlp)."""

    def refused(self, name, call):
        with self.assertRaises(sysnode.SysNodeError) as cm:
            call()
        self.assertEqual(cm.exception.status_name, "SN_ERR_INPUT")
        self.assertIn(name, cm.exception.diagnosis)
        self.assertIn("NUL", cm.exception.diagnosis)

    def test_open(self):
        self.refused("mesh", lambda: sysnode.Device(mesh="rv64_mesh_2p2\0x"))
        self.refused("image", lambda: sysnode.Device(image=os.environ.get("SYSNODE_LIB", "lib") + "\0x"))

    def test_calls(self):
        folder = os.path.join(CASES, "vadd128")
        with sysnode.Device() as dev:
            self.refused("case_dir", lambda: dev.run_case(folder + "\0x"))
            self.assertIsNone(dev.last_result)
            self.refused("path", lambda: dev.execute(os.path.join(folder, "artifact.json") + "\0x"))
            self.refused("name", lambda: dev.execute("{}", name="a\0b"))
            self.assertIsNone(dev.last_result)


class WithoutKohakuTPU(unittest.TestCase):
    def test_import_error_says_what_to_install(self):
        try:
            import kohakuaccel  # noqa: F401
            self.skipTest("KohakuTPU is importable here")
        except ImportError:
            pass
        import sysnode.kohakutpu
        with self.assertRaises(ImportError) as cm:
            sysnode.kohakutpu.device()
        for part in ("KohakuTPU", "No module named 'kohakuaccel'", "SYSNODE_KOHAKUTPU", "checkout()"):
            self.assertIn(part, str(cm.exception))


class Checkout(unittest.TestCase):
    """checkout() puts a real checkout's compiler/ and driver/ on sys.path,
    and names $SYSNODE_KOHAKUTPU when it names no checkout."""

    def checkout(self, root):
        import sysnode.kohakutpu
        saved_env, saved_path = os.environ.get("SYSNODE_KOHAKUTPU"), list(sys.path)
        os.environ["SYSNODE_KOHAKUTPU"] = root
        try:
            return sysnode.kohakutpu.checkout(), list(sys.path)
        finally:
            sys.path[:] = saved_path
            if saved_env is None:
                del os.environ["SYSNODE_KOHAKUTPU"]
            else:
                os.environ["SYSNODE_KOHAKUTPU"] = saved_env

    def test_not_a_checkout(self):
        with tempfile.TemporaryDirectory() as tmp:
            os.mkdir(os.path.join(tmp, "compiler"))
            for root, missing in ((os.path.join(tmp, "none"), "compiler/"), (tmp, "driver/")):
                before = list(sys.path)
                with self.assertRaises(sysnode.SysNodeError) as cm:
                    self.checkout(root)
                self.assertEqual(cm.exception.status_name, "SN_ERR_INPUT")
                self.assertIn("SYSNODE_KOHAKUTPU %r" % root, str(cm.exception))
                self.assertIn("no folder " + missing, str(cm.exception))
                self.assertEqual(sys.path, before)

    def test_checkout(self):
        with tempfile.TemporaryDirectory() as tmp:
            for sub in ("compiler", "driver"):
                os.mkdir(os.path.join(tmp, sub))
            root, path = self.checkout(tmp)
            self.assertEqual(root, tmp)
            self.assertEqual(path[:2], [os.path.join(tmp, "driver"), os.path.join(tmp, "compiler")])


class RefusedOpen(unittest.TestCase):
    def test_no_traceback_from_del(self):
        code = ("import sysnode\ntry:\n    sysnode.Device(mesh='rv64_mesh_4x4')\n"
                "except sysnode.SysNodeError as e:\n    print(e.status_name)\n")
        run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
        self.assertEqual(run.stdout.strip(), "SN_ERR_INPUT")
        self.assertEqual(run.stderr, "")


class ArtifactPaths(unittest.TestCase):
    def refused(self, path):
        caught = []

        def run():
            with sysnode.Device() as dev:
                try:
                    dev.execute(path)
                except sysnode.SysNodeError as e:
                    caught.append(e)

        t = threading.Thread(target=run, daemon=True)
        t.start()
        t.join(30)
        self.assertFalse(t.is_alive(), "execute(%s) blocked" % path)
        self.assertEqual(len(caught), 1)
        self.assertIn(path, caught[0].diagnosis)

    def test_fifo(self):
        with tempfile.TemporaryDirectory() as tmp:
            fifo = os.path.join(tmp, "artifact.json")
            os.mkfifo(fifo)
            self.refused(fifo)

    def test_device_file(self):
        self.refused("/dev/zero")


class UnwrittenReads(unittest.TestCase):
    """vadd128 adds the 256 bytes at 0x1000 to those at 0x2000 on the vector
    core at (1,0); its last payload, slot 25, is the RUN."""

    def session(self, dev, skip=None, discard=None):
        uploads, artifacts, _ = case("vadd128")
        for addr, data in uploads:
            if addr != skip:
                dev.write(addr, data)
        if discard:
            dev.discard(*discard)
        dev.execute(artifacts)

    def test_warning_names_round_slot_unit_range(self):
        with sysnode.Device() as dev, warnings.catch_warnings(record=True) as got:
            warnings.simplefilter("always")
            self.session(dev, skip=0x2000)
        msgs = [str(w.message) for w in got if issubclass(w.category, sysnode.SysNodeWarning)]
        self.assertEqual(len(msgs), 1, msgs)
        for part in ("round 0 slot 25", "payload RUN", "vector core at (1,0)", "[0x2000, 0x2100)", "256 of them"):
            self.assertIn(part, msgs[0])

    def test_strict_is_an_error(self):
        uploads, artifacts, expected = case("vadd128")
        with sysnode.Device(strict=True) as dev:
            with self.assertRaises(sysnode.SysNodeError) as cm:
                self.session(dev, skip=0x1000)
            self.assertIn("[0x1000, 0x1100)", cm.exception.diagnosis)
            dev.write(0x1000, dict(uploads)[0x1000])  # the next execute boots afresh, DRAM kept
            dev.execute(artifacts)
            for addr, want in expected:
                self.assertEqual(dev.read(addr, len(want)), want)

    def test_discarded_span_is_not_written(self):
        with sysnode.Device() as dev, warnings.catch_warnings(record=True) as got:
            warnings.simplefilter("always")
            self.session(dev, discard=(0x1080, 0x80))
        msgs = [str(w.message) for w in got if issubclass(w.category, sysnode.SysNodeWarning)]
        self.assertEqual(len(msgs), 1, msgs)
        self.assertIn("128 of them", msgs[0])
        self.assertIn("first 0x1080", msgs[0])

    def test_same_report_every_run(self):
        reports = []
        for _ in range(3):
            with sysnode.Device() as dev, warnings.catch_warnings(record=True) as got:
                warnings.simplefilter("always")
                self.session(dev, skip=0x2000)
            reports.append([str(w.message) for w in got])
        self.assertEqual(reports[0], reports[1])
        self.assertEqual(reports[0], reports[2])

    def test_cli_strict(self):
        with tempfile.TemporaryDirectory() as tmp:
            dst = os.path.join(tmp, "vadd128")
            subprocess.run(["cp", "-r", os.path.join(CASES, "vadd128"), dst], check=True)
            import json
            path = os.path.join(dst, "manifest.json")
            with open(path) as f:
                m = json.load(f)
            m["uploads_before_round0"] = [u for u in m["uploads_before_round0"] if u["addr"] != 0x1000]
            with open(path, "w") as f:
                json.dump(m, f)
            warn = subprocess.run([CLI, "run", dst], capture_output=True, text=True)
            self.assertIn("warning:", warn.stderr)
            self.assertIn("round 0 slot 25", warn.stderr)
            strict = subprocess.run([CLI, "run", "--strict", dst], capture_output=True, text=True)
            self.assertEqual(strict.returncode, 1)
            self.assertIn("strict", strict.stderr)
            self.assertIn("[0x1000, 0x1100)", strict.stderr)


class CaseOverSession(unittest.TestCase):
    """run_case replays on the session's DRAM: vadd128's uploads land at
    0x1000 and 0x2000, over the session's own bytes there. Afterwards the
    session takes none of its old bytes for DRAM's: before, a vector core
    read the case's bytes with no word said, while a cluster's FILL was
    converted from the session's old copy."""

    def test_vector_core_read_is_named(self):
        _, artifacts, _ = case("vadd128")
        with sysnode.Device(strict=True) as dev:
            dev.write(0x1000, bytes(512))
            dev.write(0x2000, bytes(512))
            dev.run_case(os.path.join(CASES, "vadd128"))
            with self.assertRaises(sysnode.SysNodeError) as cm:
                dev.execute(artifacts)
        for part in ("round 0 slot 25", "512 of them written by neither", "first 0x1000"):
            self.assertIn(part, cm.exception.diagnosis)

    def test_cluster_fill_is_refused(self):
        uploads, (mm,), _ = case("mm4x32")
        with sysnode.Device() as dev:
            for addr, data in uploads:
                dev.write(addr, data)
            dev.run_case(os.path.join(CASES, "vadd128"))
            with self.assertRaises(sysnode.SysNodeError) as cm:
                dev.execute(mm)
        self.assertIn("round 0 slot 0: FILL of 256 bytes at 0x1000 reads 0x1000, which the host never wrote",
                      cm.exception.diagnosis)


class ResultAfterAnError(unittest.TestCase):
    """An execute that fails in its run keeps what the run did in the
    error's result (before, 0 cycles, 0 flits, 0 completions)."""

    def test_cap_counts_its_cycles(self):
        uploads, artifacts, _ = case("vadd128")
        with sysnode.Device(max_cycles=15000) as dev:  # vadd128 from boot takes more
            for addr, data in uploads:
                dev.write(addr, data)
            with self.assertRaises(sysnode.SysNodeError) as cm:
                dev.execute(artifacts)
        self.assertEqual(cm.exception.status_name, "SN_ERR_HANG")
        self.assertEqual(cm.exception.result.cycles, 15000)

    def test_runner_error_counts_its_flits(self):
        uploads, (artifact,), _ = case("vadd128")
        steps = [s[:3] + [s[3] + 1] if s[0] == "await" else s for s in artifact["steps"]]
        with sysnode.Device() as dev:
            for addr, data in uploads:
                dev.write(addr, data)
            with self.assertRaises(sysnode.SysNodeError) as cm:
                dev.execute(dict(artifact, steps=steps))
        e = cm.exception
        self.assertIn("awaited 27, received 26, owed 1", e.diagnosis)
        m = re.search(r"after (\d+) cycles", e.diagnosis)
        self.assertIsNotNone(m, e.diagnosis)
        self.assertEqual((e.result.flits, e.result.completions, e.result.cycles), (26, 26, int(m.group(1))))


class OverTheStatusCopy(unittest.TestCase):
    """The runner writes its status copy after its table (the top of DRAM)
    at each hold: a DRAIN there is lost. Before, the execute succeeded and a
    read of the tile returned the runner's status block."""

    def test_drain_there_is_refused(self):
        uploads, (mm,), _ = case("mm4x32")
        with sysnode.Device() as dev:
            for addr, data in uploads:
                dev.write(addr, data)
            with self.assertRaises(sysnode.SysNodeError) as cm:
                dev.execute(drain_to(mm, 0xFFF1E0))
        d = cm.exception.diagnosis
        m = re.search(r"over the runner's status copy at \[0x([0-9a-f]+), 0x([0-9a-f]+)\)", d)
        self.assertIsNotNone(m, d)
        lo, hi = int(m.group(1), 16), int(m.group(2), 16)
        self.assertTrue(lo <= 0xFFF1E0 < hi and hi - lo == 256 and lo % 64 == 0, d)
        self.assertIn("payload DRAIN to the matmul cluster at (1,1) writes 32 bytes at [0xfff1e0, 0xfff200)", d)


class Summary(unittest.TestCase):
    """An execute holds only when the runner's summary counts the flits the
    program kicks, as `sysnode run` checks a case's: the floor image (the
    benchmark's reference) keeps no summary at a hold. Before, its execute
    succeeded with 0 flits and 0 completions."""

    def test_image_without_summary_is_refused(self):
        uploads, artifacts, _ = case("vadd128")
        floor = os.path.join(os.path.dirname(os.environ["SYSNODE_LIB"]), "..", "firmware", "runner-floor.elf")
        with sysnode.Device(image=floor) as dev:
            for addr, data in uploads:
                dev.write(addr, data)
            with self.assertRaises(sysnode.SysNodeError) as cm:
                dev.execute(artifacts)
        self.assertEqual(cm.exception.status_name, "SN_ERR_PROTOCOL")
        self.assertIn("with 0 flits sent, but the program kicks 26", cm.exception.diagnosis)


class OverlappingFills(unittest.TestCase):
    """Two FILLs of one sel whose FP16 windows overlap at different offsets
    (conv2d's tapped FILLs): the MXFP7 each needs differs where they meet."""

    def test_refusal_names_both_payloads(self):
        _, (mm,), _ = case("mm4x32")
        flits = list(mm["flits"])
        sel = 1 << 201
        flits[1] = (flits[1] & ~ADDR_MASK & ~sel) | 0x1040 << 218  # B's FILL: now A's window, 64 bytes on
        operands = bytes((i * 37 + 11) % 251 for i in range(0x200))
        with sysnode.Device() as dev:
            dev.write(0x1000, operands)
            with self.assertRaises(sysnode.SysNodeError) as cm:
                dev.execute(dict(mm, flits=flits), name="conv_taps.json")
        d = cm.exception.diagnosis
        for part in ("conv_taps.json: round 0 slot 0 (0x1000)", "conv_taps.json: round 0 slot 1 (0x1040)",
                     "no one MXFP7 image serves both"):
            self.assertIn(part, d)
        self.assertEqual(cm.exception.result.flits, 0)


class Mesh(unittest.TestCase):
    def test_mesh_and_mix(self):
        m = sysnode.mesh()
        self.assertEqual((m["MG"], m["VC"], m["agent"], m["inst_depth"]),
                         (((1, 1), (2, 1)), ((1, 0), (1, 2)), (0, 0), 512))  # DESIGN.md §6
        uploads, artifacts, _ = case("mm4x32")  # FILL A, FILL B, GEMM, DRAIN on (1,1) (sysnode-facts §3.3)
        with sysnode.Device() as dev:
            for addr, data in uploads:
                dev.write(addr, data)
            dev.execute(artifacts)
            dev.execute(artifacts)
            mix = sysnode.mesh(dev)["mix"]
        self.assertEqual(mix[(1, 1)], {"FILL": 4, "GEMM": 2, "DRAIN": 2})
        self.assertEqual(mix[(2, 1)], {"FILL": 0, "GEMM": 0, "DRAIN": 0})
        self.assertEqual(mix[(1, 0)], {"IMEM": 0, "DESC": 0, "RUN": 0})


class PeerAck(unittest.TestCase):
    def test_dack_not_the_sysnode(self):
        uploads, artifacts, _ = case("mm_silu_32x128x64")
        bad = []
        for a in artifacts:
            flits = [f | (1 << 79) | (1 << 83) if f >> 252 & 0xF == 3 and f >> 111 & 1 else f for f in a["flits"]]
            bad.append(dict(a, flits=flits))
        self.assertNotEqual(bad, artifacts)
        with sysnode.Device() as dev:
            for addr, data in uploads:
                dev.write(addr, data)
            with self.assertRaises(sysnode.SysNodeError) as cm:
                dev.execute(bad)
        e = cm.exception
        self.assertEqual(e.status_name, "SN_ERR_TABLE_NODE")
        for part in ("round 0 slot", "dack_x/dack_y (1,1)", "agent=(0,0)"):
            self.assertIn(part, e.diagnosis)
        self.assertEqual(e.result.flits, 0)


if __name__ == "__main__":
    unittest.main()
