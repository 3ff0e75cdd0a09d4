"""sysnode.Recorder: a recorded session replays through `sysnode run`
bit-exact, host steps between rounds included; the folder's manifest holds
sizes and SHA-256 sums of what was written and read."""
import hashlib
import json
import os
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import unittest
import warnings

import case_session
import sysnode

CASES = os.path.join(os.path.dirname(__file__), "..", "..", "artifacts", "compiler")
SYSNODE = os.environ["SYSNODE_CLI"]


def replay(case_dir):
    return subprocess.run([SYSNODE, "run", case_dir], capture_output=True, text=True)


class Recording(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp()

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def test_compiler_session_replays(self):
        for name in ["mm_silu_32x128x64", "matmul_64x128x64"]:
            with self.subTest(case=name), sysnode.Device() as dev:
                folder = os.path.join(self.tmp, name)
                rec = sysnode.Recorder(dev, folder)
                outputs = case_session.run(rec, os.path.join(CASES, name))
                rec.close()
                for addr, got, want in outputs:
                    self.assertEqual(got, want)
                with open(os.path.join(folder, "manifest.json")) as f:
                    m = json.load(f)
                for x in m["expected_outputs_after_last_round"]:
                    with open(os.path.join(folder, x["file"]), "rb") as f:
                        data = f.read()
                    self.assertEqual((len(data), hashlib.sha256(data).hexdigest()), (x["nbytes"], x["sha256"]))
                run = replay(folder)
                self.assertEqual(run.returncode, 0, run.stdout + run.stderr)
                self.assertRegex(run.stdout, r"^%s: .* match\n$" % name)

    def test_host_step_between_rounds(self):
        """vadd128 twice: c = a + b, the host reads c and writes it back as
        both operands, the second round leaves 2c (exact in FP16)."""
        uploads, artifacts, expected = case_session.load(os.path.join(CASES, "vadd128"))
        out_addr, c = expected[0]
        twice = struct.pack("<128e", *(2 * h for h in struct.unpack("<128e", c)))
        folder = os.path.join(self.tmp, "stepped")
        with sysnode.Device() as dev:
            rec = sysnode.Recorder(dev, folder)
            for addr, data in uploads:
                rec.write(addr, data)
            rec.execute(artifacts[0])
            self.assertEqual(rec.read(out_addr, len(c)), c)
            for addr, _ in uploads:
                rec.write(addr, c)
            rec.execute(artifacts[0])
            self.assertEqual(rec.read(out_addr, len(c)), twice)
            rec.close()
        with open(os.path.join(folder, "manifest.json")) as f:
            m = json.load(f)
        self.assertEqual(m["host_steps"][0]["after_round"], 0)
        self.assertEqual(len(m["host_steps"][0]["uploads"]), 2)
        run = replay(folder)
        self.assertEqual(run.returncode, 0, run.stdout + run.stderr)
        self.assertRegex(run.stdout, r"^stepped: 2 rounds, 52 flits, 52 completions, \d+ cycles, 512 output bytes \(\d+ as before the run\): match\n$")

        # The same folder with the intermediate's expected bytes changed fails after round 0.
        step = m["host_steps"][0]["expected_outputs"][0]
        path = os.path.join(folder, step["file"])
        with open(path, "r+b") as f:
            f.seek(5)
            f.write(bytes([c[5] ^ 1]))
        del step["sha256"]
        with open(os.path.join(folder, "manifest.json"), "w") as f:
            json.dump(m, f)
        run = replay(folder)
        self.assertEqual(run.returncode, 1)
        self.assertIn("MISMATCH after round 0 at %s offset 5" % step["file"], run.stdout)

    def test_merge_and_notes(self):
        """Writes at one point merge (the later wins); what cannot be replayed
        is listed in recorder_notes."""
        uploads, artifacts, expected = case_session.load(os.path.join(CASES, "vadd128"))
        (a_addr, a), (b_addr, b) = uploads
        out_addr, c = expected[0]
        folder = os.path.join(self.tmp, "merged")
        with sysnode.Device() as dev:
            rec = sysnode.Recorder(dev, folder)
            rec.read(0, 4)
            rec.write(a_addr, bytes(len(a)))        # overwritten below
            rec.write(a_addr + 16, a[16:])
            rec.write(a_addr, a[:32])               # overlaps both, joins them
            rec.write(b_addr, b)
            rec.execute(artifacts[0])
            self.assertEqual(rec.read(out_addr, len(c)), c)
            rec.discard(a_addr, 64)
            rec.write(0x8000, b"late")
            rec.close()
        with open(os.path.join(folder, "manifest.json")) as f:
            m = json.load(f)
        ups = m["uploads_before_round0"]
        self.assertEqual([(u["addr"], u["nbytes"]) for u in ups], [(a_addr, len(a)), (b_addr, len(b))])
        with open(os.path.join(folder, ups[0]["file"]), "rb") as f:
            self.assertEqual(f.read(), a)
        self.assertEqual(m["recorder_notes"], [
            "read of 4 bytes at 0x0 before round 0: nothing to check",
            "discard of 64 bytes at 0x%x after round 0: the replay counts them as written" % a_addr,
            "write of 4 bytes at 0x8000 after the last round: nothing runs after it"])
        run = replay(folder)
        self.assertEqual(run.returncode, 0, run.stdout + run.stderr)

    def test_failed_execute_is_noted(self):
        """An execute that fails after its run began is not in the case, and says so in recorder_notes; one
        refused before anything ran (bad JSON) changed nothing and is not noted. The folder replays."""
        uploads, (artifact,), expected = case_session.load(os.path.join(CASES, "vadd128"))
        over = dict(artifact, steps=[s[:3] + [s[3] + 1] if s[0] == "await" else s for s in artifact["steps"]])
        folder = os.path.join(self.tmp, "failed")
        with sysnode.Device() as dev:
            rec = sysnode.Recorder(dev, folder)
            for addr, data in uploads:
                rec.write(addr, data)
            with self.assertRaises(sysnode.SysNodeError) as cm:
                rec.execute(over)
            with self.assertRaises(sysnode.SysNodeError):
                rec.execute("{")
            rec.execute(artifact)
            rec.read(expected[0][0], len(expected[0][1]))
            rec.close()
        m = json.load(open(os.path.join(folder, "manifest.json")))
        self.assertEqual(m["recorder_notes"], [
            "execute of 1 artifact before round 0 failed after %d cycles (SN_ERR_HANG): not in the case, and what "
            "it left in DRAM is not replayed" % cm.exception.result.cycles])
        self.assertGreater(cm.exception.result.cycles, 8000000)  # the runner's hang report comes after 8 M
        run = replay(folder)
        self.assertEqual(run.returncode, 0, run.stdout + run.stderr)

    def test_warning_made_an_error_keeps_the_round(self):
        """A filter that makes SysNodeWarnings errors cannot lose a round that ran: vadd128 with 0x2000 never
        written warns, the warning raises, and the round is still in the case (before, it was missing and the
        read after it was noted as one before round 0)."""
        uploads, (artifact,), expected = case_session.load(os.path.join(CASES, "vadd128"))
        (a_addr, a), (b_addr, b) = uploads
        out_addr, c = expected[0]
        folder = os.path.join(self.tmp, "warned")
        with sysnode.Device() as dev, warnings.catch_warnings():
            warnings.simplefilter("error", sysnode.SysNodeWarning)
            rec = sysnode.Recorder(dev, folder)
            rec.write(a_addr, a)
            with self.assertRaises(sysnode.SysNodeWarning):
                rec.execute(artifact)
            rec.read(out_addr, len(c))
            rec.write(b_addr, b)
            rec.execute(artifact)
            self.assertEqual(rec.read(out_addr, len(c)), c)
            rec.close()
        m = json.load(open(os.path.join(folder, "manifest.json")))
        self.assertEqual(m["rounds"], 2)
        self.assertNotIn("recorder_notes", m)
        self.assertEqual([h["after_round"] for h in m["host_steps"]], [0])

    def test_zero_length_calls(self):
        """A write or read of no bytes records no region (a manifest region holds at least one byte):
        the folder replays."""
        uploads, artifacts, expected = case_session.load(os.path.join(CASES, "vadd128"))
        folder = os.path.join(self.tmp, "empty_calls")
        with sysnode.Device() as dev:
            rec = sysnode.Recorder(dev, folder)
            rec.write(0x4000, b"")
            for addr, data in uploads:
                rec.write(addr, data)
            rec.execute(artifacts)
            self.assertEqual(rec.read(0x5000, 0), b"")
            rec.read(expected[0][0], len(expected[0][1]))
            rec.close()
        m = json.load(open(os.path.join(folder, "manifest.json")))
        regions = m["uploads_before_round0"] + m["expected_outputs_after_last_round"]
        self.assertEqual(sorted(r["nbytes"] for r in regions), sorted([len(d) for _, d in uploads] + [len(expected[0][1])]))
        run = replay(folder)
        self.assertEqual(run.returncode, 0, run.stdout + run.stderr)

    def test_nothing_to_compare(self):
        with sysnode.Device() as dev:
            rec = sysnode.Recorder(dev, os.path.join(self.tmp, "empty"))
            with self.assertRaises(ValueError):
                rec.close()


class Folder(unittest.TestCase):
    """The recording never mixes with or overwrites files already in its
    folder, and a close that fails leaves nothing."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        self.folder = os.path.join(self.tmp, "rec")

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def session(self, dev):
        uploads, artifacts, expected = case_session.load(os.path.join(CASES, "vadd128"))
        rec = sysnode.Recorder(dev, self.folder)
        for addr, data in uploads:
            rec.write(addr, data)
        rec.execute(artifacts)
        rec.read(expected[0][0], len(expected[0][1]))
        return rec

    def test_folder_with_files_is_refused(self):
        os.mkdir(self.folder)
        mine = os.path.join(self.folder, "artifact_000.json")
        with open(mine, "w") as f:
            f.write("mine")
        with sysnode.Device() as dev, self.assertRaises(FileExistsError):
            sysnode.Recorder(dev, self.folder)
        with open(mine) as f:
            self.assertEqual(f.read(), "mine")

    def test_files_that_appear_before_close(self):
        with sysnode.Device() as dev:
            rec = self.session(dev)
            os.mkdir(self.folder)
            with open(os.path.join(self.folder, "upload_p000_00_00001000.bin"), "w") as f:
                f.write("mine")
            with self.assertRaises(FileExistsError):
                rec.close()
        self.assertEqual(sorted(os.listdir(self.tmp)), ["rec"])
        self.assertEqual(os.listdir(self.folder), ["upload_p000_00_00001000.bin"])

    def test_failed_close_leaves_nothing(self):
        real = json.dump

        def full_disk(*args, **kwargs):
            raise OSError(28, "No space left on device")

        with sysnode.Device() as dev:
            rec = self.session(dev)
            json.dump = full_disk
            try:
                with self.assertRaises(OSError):
                    rec.close()
            finally:
                json.dump = real
        self.assertEqual(os.listdir(self.tmp), [])

    def test_sigterm_in_close_leaves_nothing(self):
        """SIGTERM while close() builds the folder: the process dies of it (as with no handler) and leaves no
        .partial folder; before, the half-built folder stayed."""
        child = (
            "import json, os, signal, sys, sysnode, case_session, sysnode.recorder as r\n"
            "uploads, artifacts, expected = case_session.load(sys.argv[1])\n"
            "build = r.Recorder._write\n"
            "def write_then_term(self, folder, rounds):\n"
            "    build(self, folder, rounds)\n"
            "    os.kill(os.getpid(), signal.SIGTERM)\n"
            "r.Recorder._write = write_then_term\n"
            "dev = sysnode.Device()\n"
            "rec = sysnode.Recorder(dev, sys.argv[2])\n"
            "for addr, data in uploads:\n"
            "    rec.write(addr, data)\n"
            "rec.execute(artifacts)\n"
            "rec.read(expected[0][0], len(expected[0][1]))\n"
            "rec.close()\n")
        run = subprocess.run([sys.executable, "-c", child, os.path.join(CASES, "vadd128"),
                              os.path.join(self.tmp, "case")], capture_output=True, text=True, timeout=120)
        self.assertEqual(run.returncode, -signal.SIGTERM, run.stderr)
        self.assertEqual(os.listdir(self.tmp), [])

    def test_call_after_close_is_refused(self):
        """After close() the case is on disk: a call then would change the
        device but not the case, so it is refused and the device untouched."""
        with sysnode.Device() as dev:
            rec = self.session(dev)
            rec.close()
            before = dev.read(0x1000, 16)
            for call in (lambda: rec.write(0x1000, b"\x77" * 16), lambda: rec.read(0x1000, 16),
                         lambda: rec.discard(0x1000, 16), lambda: rec.execute({"flits": [], "steps": []})):
                with self.assertRaisesRegex(ValueError, "the recording is closed"):
                    call()
            self.assertEqual(dev.read(0x1000, 16), before)
        self.assertEqual(replay(self.folder).returncode, 0)

    def test_two_threads_every_write_recorded(self):
        """Two threads writing through one Recorder: every write is in the
        recording (its regions are merged under the Recorder's lock)."""
        import sys
        import threading

        interval = sys.getswitchinterval()
        sys.setswitchinterval(1e-6)  # threads switch inside a merge, as they may on a loaded machine
        self.addCleanup(sys.setswitchinterval, interval)
        with sysnode.Device() as dev:
            rec = sysnode.Recorder(dev, self.folder)

            def writes(k):
                for i in range(300):
                    rec.write(0x100000 * (k + 1) + 128 * i, bytes([k + 1]) * 64)

            threads = [threading.Thread(target=writes, args=(k,)) for k in range(2)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            got = sorted((a, bytes(d)) for a, d in rec.writes[0])
            want = sorted((0x100000 * (k + 1) + 128 * i, bytes([k + 1]) * 64) for k in range(2) for i in range(300))
            self.assertEqual(got, want)

    def test_close_twice_and_empty_folder(self):
        os.mkdir(self.folder)
        with sysnode.Device() as dev:
            rec = self.session(dev)
            rec.close()
            rec.close()
        self.assertEqual(replay(self.folder).returncode, 0)


if __name__ == "__main__":
    unittest.main()
