"""sysnode.Device over libsysnode: every case of artifacts/compiler/ as a
live session (uploads, the artifacts one execute at a time, reads) gives the
compiler's expected bytes; run_case replays a folder; errors arrive as
SysNodeError with the runner's or the checker's diagnosis."""
import json
import os
import shutil
import tempfile
import unittest

import case_session
import sysnode

CASES = os.path.join(os.path.dirname(__file__), "..", "..", "artifacts", "compiler")
ALL = ["vadd128", "vadd128_api", "mm4x32", "matmul_8x64x8", "matmul_64x128x64", "mm_silu_32x128x64",
       "matmul_512x256x512"]


class EveryCase(unittest.TestCase):
    def test_sessions_bit_exact(self):
        for name in ALL:
            with self.subTest(case=name), sysnode.Device() as dev:
                for addr, got, want in case_session.run(dev, os.path.join(CASES, name)):
                    self.assertEqual(got, want, "%s: output at 0x%x" % (name, addr))

    def test_fenced_units(self):
        with sysnode.Device(cu_version=5) as dev:
            for addr, got, want in case_session.run(dev, os.path.join(CASES, "mm_silu_32x128x64")):
                self.assertEqual(got, want)

    def test_sessions_on_the_simulated_card(self):
        """device="sim": the same sessions through the card protocol, each
        execute after the first released from the last one's hold, read from
        the runner's DRAM status copy: the compiler's bytes, and the cycles
        of the in-process session."""
        for name in ("mm_silu_32x128x64", "matmul_64x128x64"):
            cycles = {}
            for device in (None, "sim"):
                with self.subTest(case=name, device=device), sysnode.Device(cu_version=5, device=device) as dev:
                    for addr, got, want in case_session.run(dev, os.path.join(CASES, name)):
                        self.assertEqual(got, want, "%s: output at 0x%x" % (name, addr))
                    cycles[device] = dev.last_result.cycles
            self.assertEqual(cycles["sim"], cycles[None], name)

    def test_saturated_counts(self):
        """vadd128's sums are small: no clamp on any unit; a card counts none (None)."""
        with sysnode.Device() as dev:
            case_session.run(dev, os.path.join(CASES, "vadd128"))
            self.assertEqual(set(sysnode.mesh(dev)["saturated"].values()), {0})
        with sysnode.Device(device="sim") as dev:
            case_session.run(dev, os.path.join(CASES, "vadd128"))
            self.assertEqual(set(sysnode.mesh(dev)["saturated"].values()), {None})

    def test_device_spec_refused(self):
        with self.assertRaises(sysnode.SysNodeError) as cm:
            sysnode.Device(device="card0")
        self.assertEqual(cm.exception.diagnosis, 'device "card0": not a device (want sim or xdma:/dev/xdmaN)')
        with self.assertRaises(sysnode.SysNodeError) as cm:
            sysnode.Device(device="xdma:/nonexistent/xdma0")
        self.assertIn("/nonexistent/xdma0_user: cannot open", cm.exception.diagnosis)

    def test_bad_image_leaves_the_card_untouched(self):
        """A card session whose image is refused writes nothing to the card:
        its DRAM is zeroed only once every input is known good (regular
        files stand in for the XDMA device files, the DMA channel empty)."""
        with tempfile.TemporaryDirectory() as tmp:
            prefix = os.path.join(tmp, "xdma0")
            with open(prefix + "_user", "wb") as f:
                f.write(bytes(0x9000))
            open(prefix + "_h2c_0", "wb").close()
            os.symlink(prefix + "_h2c_0", prefix + "_c2h_0")
            with self.assertRaises(sysnode.SysNodeError) as cm:
                sysnode.Device(device="xdma:" + prefix, image=os.path.join(CASES, "vadd128", "manifest.json"))
            self.assertIn("not an ELF file", cm.exception.diagnosis)
            self.assertEqual(os.path.getsize(prefix + "_h2c_0"), 0, "the card's DRAM was written")
            with self.assertRaises(sysnode.SysNodeError) as cm:  # named as the caller gave it
                sysnode.Device(device="xdma:" + prefix, cu_version=4)
            self.assertIn("cu_version 4", cm.exception.diagnosis)
            self.assertNotIn("--cu-version", cm.exception.diagnosis)

    def test_execute_compares_nothing(self):
        with sysnode.Device() as dev:
            res = dev.execute(os.path.join(CASES, "vadd128", "artifact.json"))
            self.assertEqual((res.rounds, res.flits, res.match), (1, 26, None))

    def test_version_is_the_projects(self):
        # python/VERSION is the one place: CMake's project() and
        # pyproject.toml both read it.
        python_dir = os.path.join(CASES, "..", "..", "python")
        want = open(os.path.join(python_dir, "VERSION")).read().strip()
        self.assertRegex(want, r"^\d+\.\d+\.\d+$")
        self.assertEqual(sysnode.__version__, want)
        pyproject = open(os.path.join(python_dir, "pyproject.toml")).read()
        self.assertIn('version = {file = "VERSION"}', pyproject)

    def test_run_case(self):
        with sysnode.Device() as dev:
            res = dev.run_case(os.path.join(CASES, "mm_silu_32x128x64"))
            # mm_silu: 3 rounds, 156 flits, 156 + 16 peer-ack completions (docs/user-guide.md).
            self.assertEqual((res.rounds, res.flits, res.completions, res.match), (3, 156, 172, True))
            # A live session after a replay boots its own runner.
            for addr, got, want in case_session.run(dev, os.path.join(CASES, "vadd128")):
                self.assertEqual(got, want)


class Errors(unittest.TestCase):
    def setUp(self):
        self.dev = sysnode.Device()

    def tearDown(self):
        self.dev.close()

    def test_table_rule(self):
        with self.assertRaises(sysnode.SysNodeError) as cm:
            self.dev.execute({"flits": [1], "steps": [["kick", 9, 9, 0, 1]]}, name="bad.json")
        self.assertEqual(cm.exception.status_name, "SN_ERR_TABLE_NODE")
        self.assertIn("bad.json: round 0 step 0", cm.exception.diagnosis)

    def test_fill_of_unwritten_bytes(self):
        with open(os.path.join(CASES, "mm4x32", "artifact.json")) as f:
            artifact = json.load(f)
        with self.assertRaises(sysnode.SysNodeError) as cm:
            self.dev.execute(artifact)
        self.assertEqual(cm.exception.status_name, "SN_ERR_INPUT")
        self.assertIn("which the host never wrote", cm.exception.diagnosis)

    def test_bad_json_and_range(self):
        with self.assertRaises(sysnode.SysNodeError) as cm:
            self.dev.execute('{"flits": [1], "steps": [}')
        self.assertEqual(cm.exception.status_name, "SN_ERR_INPUT")
        with self.assertRaises(sysnode.SysNodeError) as cm:
            self.dev.write(16 * 1024 * 1024 - 1, b"ab")
        self.assertIn("passes the end of DRAM", cm.exception.diagnosis)
        with self.assertRaises(sysnode.SysNodeError):
            self.dev.read(16 * 1024 * 1024, 1)

    def test_runner_diagnosis(self):
        """vadd128 awaiting one completion more than it kicks: the runner's own
        hang report, naming round, step, node and what it was owed."""
        uploads, artifacts, _ = case_session.load(os.path.join(CASES, "vadd128"))
        for addr, data in uploads:
            self.dev.write(addr, data)
        artifact = artifacts[0]
        for step in artifact["steps"]:
            if step[0] == "await":
                step[3] += 1
        with self.assertRaises(sysnode.SysNodeError) as cm:
            self.dev.execute(artifact, name="overawait.json")
        e = cm.exception
        self.assertEqual((e.status, e.status_name), (0x40, "SN_ERR_HANG"))
        self.assertIn("round 0 step 2: hang: no completion for", e.diagnosis)
        self.assertIn("node (1,0): awaited 27, received 26, owed 1", e.diagnosis)
        # The session starts again with the next execute (a fresh BOOT).
        artifact = case_session.load(os.path.join(CASES, "vadd128"))[1][0]
        self.assertEqual(self.dev.execute(artifact).flits, 26)

    def test_mismatch_names_byte(self):
        with self.assertRaises(sysnode.SysNodeError) as cm:
            self.dev.run_case(os.environ["SN_HOST_STEP_DIR"] + "/host_step_wrong")
        e = cm.exception
        self.assertEqual(e.status_name, "SN_ERR_MISMATCH")
        self.assertEqual((e.result.diff_round, e.result.diff_file, e.result.diff_offset),
                         (0, "expected_after_round0.bin", 37))
        self.assertIn("after round 0", e.diagnosis)
        # the one byte host_step_case.py changed, counted as sysnode run counts it
        self.assertRegex(e.diagnosis, r"; 1 of \d+ bytes, 1 of \d+ elements differ$")

    def test_regions_at_the_table(self):
        """The table goes at the top of DRAM: an upload or expected output there
        is refused, naming the file."""
        top = 16 * 1024 * 1024 - 256
        for key in ("uploads_before_round0", "expected_outputs_after_last_round"):
            with self.subTest(member=key), tempfile.TemporaryDirectory() as tmp:
                case = os.path.join(tmp, "case")
                shutil.copytree(os.path.join(CASES, "vadd128"), case)
                path = os.path.join(case, "manifest.json")
                with open(path) as f:
                    m = json.load(f)
                m[key][0]["addr"] = top
                with open(path, "w") as f:
                    json.dump(m, f)
                with self.assertRaises(sysnode.SysNodeError) as cm:
                    self.dev.run_case(case)
                self.assertEqual(cm.exception.status_name, "SN_ERR_INPUT")
                self.assertIn("%s (0x%x, 256 bytes) reaches the top of DRAM" % (m[key][0]["file"], top),
                              cm.exception.diagnosis)

    def test_open_refuses(self):
        with self.assertRaises(sysnode.SysNodeError) as cm:
            sysnode.Device(mesh="rv64_mesh_4x4")
        self.assertIn("rv64_mesh_2p2 only", cm.exception.diagnosis)
        with self.assertRaises(sysnode.SysNodeError):
            sysnode.Device(cu_version=3)
        with self.assertRaises(sysnode.SysNodeError) as cm:
            sysnode.Device(image="/nonexistent/runner.elf")
        self.assertIn("/nonexistent/runner.elf", cm.exception.diagnosis)


if __name__ == "__main__":
    unittest.main()
