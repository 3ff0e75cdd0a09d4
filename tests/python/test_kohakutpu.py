"""sysnode.kohakutpu against the KohakuTPU compiler named by
$SYSNODE_KOHAKUTPU (a checkout; tested with 7703ee8): each test is skipped
without it. Expected values come from the compiler's own model,
kohakutpu.model.SimDevice, built on the SysNode's mesh."""
import os
import unittest
import warnings

import sysnode
import sysnode.kohakutpu as skt

ROOT = skt.checkout()


@unittest.skipUnless(ROOT, "SYSNODE_KOHAKUTPU names no KohakuTPU checkout")
class Adapter(unittest.TestCase):
    def setUp(self):
        import numpy as np

        self.np = np
        rng = np.random.default_rng(3)
        self.x = (rng.standard_normal((64, 128)) * 0.5).astype(np.float16)
        self.w = (rng.standard_normal((64, 128)) * 0.5).astype(np.float16)

    def model(self):
        return skt.model()

    def observe(self, dev, kern, *arrays, **knobs):
        from kohakutpu import api, sim

        api._device = dev
        return sim.observe(kern, *arrays, dev=dev, **knobs)

    def test_observe_mix_and_result(self):
        from kohakutpu import kernels, ops

        for kern in (ops.matmul, kernels.linear_silu):
            with self.subTest(kernel=kern):
                want = self.observe(self.model(), kern, self.x, self.w)
                dev = skt.device(cu_version=5)
                got = self.observe(dev, kern, self.x, self.w)
                self.assertEqual(got.result.tobytes(), want.result.tobytes())
                self.assertEqual(got.clusters, want.clusters)
                self.assertEqual(got.cores, want.cores)
                self.assertEqual(got.counters, want.counters)
                self.assertGreater(dev.cycles, 0)
                dev.close()

    def test_saturated_as_the_model_counts(self):
        """A matmul of 200s overflows FP16 in every element: the SysNode
        counts the DRAIN's clamps as the model does."""
        from kohakutpu import ops

        big = self.np.full((64, 128), 200, self.np.float16)
        want = self.observe(self.model(), ops.matmul, big, big)
        dev = skt.device()
        got = self.observe(dev, ops.matmul, big, big)
        self.assertEqual(got.result.tobytes(), want.result.tobytes())
        self.assertEqual(want.saturated, 64 * 64)
        self.assertEqual(got.saturated, want.saturated)
        dev.close()

    def test_card_session(self):
        """device="sim": the compiler's session through the card protocol
        (host sync points through the runner's DRAM status copy) gives the
        in-process session's bytes and cycles."""
        from kohakutpu import kernels

        runs = {}
        for device in (None, "sim"):
            dev = skt.device(device=device)
            try:
                out = kernels.linear_silu(dev.tensor(self.x[:32]), dev.tensor(self.w), fuse=True).numpy()
                again = kernels.linear_silu(dev.tensor(out[:, :64].copy()), dev.tensor(self.w[:, :64].copy()), fuse=True).numpy()
                runs[device] = (out.tobytes(), again.tobytes(), dev.cycles)
            finally:
                dev.close()
        self.assertEqual(runs["sim"], runs[None])

    def test_readme_example(self):
        """The README's example, run as written; it prints what it says."""
        import contextlib
        import io

        with open(os.path.join(os.path.dirname(__file__), "..", "..", "README.md")) as f:
            text = f.read()
        block = text[text.index("From a KohakuTPU compiler session"):]
        code = block[block.index("```python\n") + 10:block.index("```\n", block.index("```python\n") + 10)]
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            exec(compile(code, "README.md", "exec"), {})
        said = code.rsplit("# ", 1)[1].strip()
        self.assertEqual(printed.getvalue().strip(), said)

    def flash_warnings(self, strict=False):
        from kohakutpu import kernels

        q = (self.x * 0.18).astype(self.np.float16)
        v = self.np.ascontiguousarray(self.w.T[:64])
        dev = skt.device(strict=strict)
        try:
            with warnings.catch_warnings(record=True) as got:
                warnings.simplefilter("always")
                kernels.flash_attention(dev.tensor(q), dev.tensor(self.w), dev.tensor(v), block=64).numpy()
            return [str(w.message) for w in got if issubclass(w.category, sysnode.SysNodeWarning)]
        finally:
            dev.close()

    def test_flash_attention_reads_named_every_run(self):
        first = self.flash_warnings()
        self.assertTrue(first)
        self.assertTrue(all("flash_attention:0" in m and "(a VFILL)" in m for m in first), first[:2])
        self.assertEqual(first, self.flash_warnings())
        with self.assertRaises(sysnode.SysNodeError) as cm:
            self.flash_warnings(strict=True)
        self.assertEqual(cm.exception.diagnosis.split(" (strict")[0], first[0])

    def test_freed_span_reads_are_named(self):
        from kohakutpu import ops

        dev = skt.device()
        a = dev.tensor(self.x)
        ops.matmul(a, dev.tensor(self.w)).numpy()
        (addr, _), = [(b.addr, b.nbytes) for b in a.buffers.values()]
        a.release()  # the arena frees the span; its bytes stay
        with warnings.catch_warnings(record=True) as got:
            warnings.simplefilter("always")
            dev.sysnode.execute(self.fill_artifact(addr))  # a FILL of the freed span
        msgs = [str(w.message) for w in got if issubclass(w.category, sysnode.SysNodeWarning)]
        self.assertEqual(len(msgs), 1, msgs)
        self.assertIn("payload FILL to the matmul cluster at (1,1) reads 128 bytes at [0x%x, 0x%x)"
                      % (addr, addr + 128), msgs[0])
        dev.close()

    def test_compiler_default_agent_refused(self):
        from kohakuaccel.machinespec import MachineSpec
        from kohakutpu import kernels

        dev = skt.device()
        units, _, inst_depth = skt.machine()
        dev.machine = MachineSpec(name="sysnode", units=units, inst_depth=inst_depth, agent=(1, 1))  # the compiler's default
        with self.assertRaises(sysnode.SysNodeError) as cm:
            kernels.linear_silu(dev.tensor(self.x[:32]), dev.tensor(self.w), fuse=True).numpy()
        e = cm.exception
        self.assertEqual(e.status_name, "SN_ERR_TABLE_NODE")
        for part in ("round 0 slot", "dack_x/dack_y (1,1)", "agent=(0,0)"):
            self.assertIn(part, e.diagnosis)
        dev.close()

    def test_conv2d_refused_naming_both_fills(self):
        from kohakutpu import ops

        rng = self.np.random.default_rng(11)
        x = (rng.standard_normal((8, 8, 32)) * 0.5).astype(self.np.float16)
        k = (rng.standard_normal((32, 32, 3, 3)) * 0.2).astype(self.np.float16)
        dev = skt.device()
        with self.assertRaises(sysnode.SysNodeError) as cm:
            ops.conv2d(dev.tensor(x), dev.tensor(ops.weights_for_k(k, 32)), gm=4, gn=8).numpy()
        d = cm.exception.diagnosis
        self.assertRegex(d, r"the FILLs conv2d:0\[0\]: round 0 slot \d+ \(0x[0-9a-f]+\) and conv2d:0\[0\]: "
                            r"round 0 slot \d+ \(0x[0-9a-f]+\) would write different MXFP7 bytes")
        self.assertIn("no one MXFP7 image serves both", d)
        self.assertEqual(cm.exception.result.flits, 0)
        dev.close()

    def test_refused_record_folder_closes_the_sysnode(self):
        """record= names a folder with files: device() raises and leaves no
        SysNode open, while its error is still held; a recording that
        cannot be written (no artifact ran): close() raises and closes the
        SysNode anyway."""
        import gc
        import tempfile

        def open_devices():
            return [o for o in gc.get_objects() if isinstance(o, sysnode.Device) and o._dev is not None]

        before = len(open_devices())
        with self.assertRaisesRegex(ValueError, "case_dir '': not a folder path"):
            skt.device(record="")  # not "no recording"
        self.assertEqual(len(open_devices()), before)
        with tempfile.TemporaryDirectory() as tmp:
            open(os.path.join(tmp, "theirs"), "w").close()
            try:
                skt.device(record=tmp)
                self.fail("a folder with files was taken")
            except FileExistsError:
                self.assertEqual(len(open_devices()), before, "the refused device() left its SysNode open")
            dev = skt.device(record=os.path.join(tmp, "case"))
            with self.assertRaisesRegex(ValueError, "executed no artifact"):
                dev.close()
            self.assertIsNone(dev.sysnode._dev)

    @staticmethod
    def fill_artifact(addr):
        flit = 1 << 252 | addr << 218 | 1 << 202  # FILL, one entry (sysnode-facts §3.3)
        return {"flits": [flit], "steps": [["seed", 512], ["kick", 1, 1, 0, 1], ["await", 1, 1, 1]]}


if __name__ == "__main__":
    unittest.main()
