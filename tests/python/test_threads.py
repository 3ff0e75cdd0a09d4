"""sysnode.Device and threads (issue 20 item 4): two Devices in two threads
give the bytes and cycles that `sysnode run` gives in a process of its own,
one Device shared by two threads takes the calls in turn (no crash, the
same results), and a refused Device leaves no traceback behind."""
import contextlib
import os
import re
import subprocess
import sys
import threading
import unittest

import sysnode

CASES = os.path.join(os.path.dirname(__file__), "..", "..", "artifacts", "compiler")
# multi-round cases whose settle plans differ: matmul proves 28 of 29 round ends, mm_silu none
PAIR = ["matmul_512x256x512", "mm_silu_32x128x64"]


def cli_cycles(name):
    """The cycles `sysnode run` reports for a case, in a process of its own."""
    r = subprocess.run([os.environ["SYSNODE_CLI"], "run", os.path.join(CASES, name)], capture_output=True,
                       text=True, check=True)
    return int(re.search(r" (\d+) cycles,", r.stdout).group(1))


def in_threads(fn, args):
    """fn(arg) on one thread per arg, all at once; the results, or the first exception raised."""
    out, errors = [None] * len(args), []

    def work(i):
        try:
            out[i] = fn(args[i])
        except Exception as e:  # noqa: BLE001 - handed to the test's thread
            errors.append(e)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(len(args))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        raise errors[0]
    return out


class Threads(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.want = {name: cli_cycles(name) for name in PAIR}

    def replay_pair_twice(self, device_for):
        """Each case of PAIR replayed 3 times on each of 4 threads (PAIR twice), on the Device
        device_for() yields; every replay must match with the cycles of `sysnode run`."""
        def replay(name):
            with device_for() as dev:
                return [dev.run_case(os.path.join(CASES, name)) for _ in range(3)]

        for name, results in zip(PAIR * 2, in_threads(replay, PAIR * 2)):
            for res in results:
                self.assertTrue(res.match, name)
                self.assertEqual(res.cycles, self.want[name], name)

    def test_two_devices_two_threads(self):
        self.replay_pair_twice(sysnode.Device)

    def test_one_device_shared(self):
        with sysnode.Device() as dev:
            self.replay_pair_twice(lambda: contextlib.nullcontext(dev))

    def test_shared_device_read_write(self):
        """Writes and reads from two threads on one Device: each thread reads back its own bytes."""
        with sysnode.Device() as dev:
            def own_bytes(k):
                data = bytes([k]) * 4096
                for _ in range(200):
                    dev.write(0x100000 * (k + 1), data)
                    if dev.read(0x100000 * (k + 1), len(data)) != data:
                        return False
                return True

            self.assertEqual(in_threads(own_bytes, [1, 2, 3]), [True, True, True])

    def test_mesh_takes_the_lock(self):
        """sysnode.mesh(dev) holds the Device's lock for its call, as every
        method does, so another thread cannot close the handle under it:
        while a thread holds the lock, mesh(dev) waits."""
        with sysnode.Device() as dev:
            done = []
            with dev._lock:
                t = threading.Thread(target=lambda: done.append(sysnode.mesh(dev)))
                t.start()
                t.join(timeout=0.5)
                self.assertTrue(t.is_alive(), "mesh(dev) ran while another thread held the Device")
            t.join()
            self.assertEqual(sorted(done[0]["MG"]), [(1, 1), (2, 1)])

    def test_refused_device_leaves_no_traceback(self):
        code = "import sysnode\ntry:\n    sysnode.Device(cu_version=7)\nexcept sysnode.SysNodeError as e:\n    print(e)\n"
        r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("SN_ERR_", r.stdout)
        self.assertEqual(r.stderr, "")


if __name__ == "__main__":
    unittest.main()
