"""Names never cut silently (issue 20 item 7): a case name and an expected
file name longer than the results' 128-byte fields are either carried whole
or cut at a UTF-8 character boundary with a visible "...", in the verdict
of `sysnode run`, its --report and the library's Result; Python decodes
them without UnicodeDecodeError."""
import json
import os
import shutil
import subprocess
import tempfile
import unittest

import sysnode

CASES = os.path.join(os.path.dirname(__file__), "..", "..", "artifacts", "compiler")
# 123 ASCII bytes, then 3-byte characters: a cut at 124 bytes would fall inside the first of them
NAME = "n" * 123 + "\u6f22" * 20
FILE = "f" * 123 + "\u6f22" * 20 + ".bin"


class LongNames(unittest.TestCase):
    def setUp(self):
        self.work = tempfile.mkdtemp()
        self.case = os.path.join(self.work, "case")
        shutil.copytree(os.path.join(CASES, "vadd128"), self.case)
        path = os.path.join(self.case, "manifest.json")
        m = json.load(open(path))
        m["name"] = NAME
        out = m["expected_outputs_after_last_round"][0]
        data = bytearray(open(os.path.join(self.case, out["file"]), "rb").read())
        data[5] ^= 1  # a mismatch names the file
        open(os.path.join(self.case, FILE), "wb").write(bytes(data))
        out["file"] = FILE
        out.pop("sha256", None)
        json.dump(m, open(path, "w"), ensure_ascii=False)

    def tearDown(self):
        shutil.rmtree(self.work)

    def assert_marked(self, text, whole):
        """text is whole, or a prefix of it on a character boundary followed by '...'."""
        if text == whole:
            return
        self.assertTrue(text.endswith("..."), text)
        self.assertTrue(whole.startswith(text[:-3]), text)
        self.assertNotIn("\ufffd", text)

    def test_verdict_and_report(self):
        report = os.path.join(self.work, "report.json")
        r = subprocess.run([os.environ["SYSNODE_CLI"], "run", self.case, "--report", report], capture_output=True)
        self.assertEqual(r.returncode, 1, r.stderr)
        line = r.stdout.decode()  # strict: a cut inside a sequence would raise here
        name, rest = line.split(": ", 1)
        self.assert_marked(name, NAME)
        self.assertIn("MISMATCH at ", rest)
        file = rest.split("MISMATCH at ", 1)[1].split(" offset ", 1)[0]
        self.assert_marked(file, FILE)
        self.assert_marked(json.load(open(report, encoding="utf-8"))["case"], NAME)

    def test_library_result(self):
        with sysnode.Device() as dev:
            with self.assertRaises(sysnode.SysNodeError) as cm:
                dev.run_case(self.case)
        self.assertEqual(cm.exception.status_name, "SN_ERR_MISMATCH")
        self.assert_marked(cm.exception.result.diff_file, FILE)
        self.assertEqual(cm.exception.result.diff_offset, 5)


if __name__ == "__main__":
    unittest.main()
