"""sysnode.Recorder: records a Device session as a case folder that
`sysnode run` replays (artifacts/FORMAT.md §9, the manifest's host steps).

A session's points in time are numbered by the rounds run before them:
writes before the first execute are the uploads before round 0; writes and
reads after round r, before the next execute, are the host step after round
r; reads after the last execute are the expected outputs after the last
round. Writes at one point are merged into contiguous regions, a later
write winning. A read of bytes the host wrote at the same point is not
recorded (it would check the host's own bytes, and a host step compares
before it uploads); nor are reads before the first round or writes after
the last one (nothing runs after them), nor discards (a case has no way to
say a span was freed: its replay counts those bytes as written), nor an
execute that failed after its run began (its units may have written DRAM;
one refused before anything ran changed nothing). Each of
those is listed, with its address and size, in the manifest's
"recorder_notes" (a descriptive member `sysnode run` ignores), so nothing
is left out silently."""
import contextlib
import hashlib
import json
import os
import secrets
import shutil
import signal
import threading

from .device import SysNodeError, artifact_text, as_bytes, issued


class _Terminated(BaseException):
    """SIGTERM while a case folder is built (_sigterm_unwinds)."""


@contextlib.contextmanager
def _sigterm_unwinds():
    """While the block runs, a SIGTERM that would end the process outright
    (its default action; on the main thread, the only one that can catch it)
    raises _Terminated instead, so the block's cleanup runs; the process then
    dies of the signal as it would have. The output rule of the tools
    (docs/user-guide.md "Output files"): nothing half made is left."""
    if threading.current_thread() is not threading.main_thread() or \
            signal.getsignal(signal.SIGTERM) is not signal.SIG_DFL:
        yield
        return

    def unwind(sig, frame):
        raise _Terminated()

    signal.signal(signal.SIGTERM, unwind)
    try:
        yield
    except _Terminated:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGTERM)
        raise
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _merge(regions, addr, data):
    """Adds data at addr to the sorted, disjoint [addr, bytearray] list
    regions; where they overlap, data wins; touching regions join."""
    lo, hi = addr, addr + len(data)
    keep, merged_lo, merged = [], lo, None
    for r_addr, r_data in regions:
        r_hi = r_addr + len(r_data)
        if r_hi < lo or r_addr > hi:
            keep.append([r_addr, r_data])
            continue
        new_lo = min(merged_lo, r_addr)
        new_hi = max(hi if merged is None else merged_lo + len(merged), r_hi)
        buf = bytearray(new_hi - new_lo)
        buf[r_addr - new_lo:r_hi - new_lo] = r_data
        if merged is not None:
            buf[merged_lo - new_lo:merged_lo - new_lo + len(merged)] = merged
        merged_lo, merged = new_lo, buf
    if merged is None:
        merged = bytearray(data)
    else:
        merged[lo - merged_lo:hi - merged_lo] = data
    keep.append([merged_lo, merged])
    keep.sort(key=lambda r: r[0])
    regions[:] = keep


def _overlaps(regions, addr, n):
    return any(r_addr < addr + n and addr < r_addr + len(r_data) for r_addr, r_data in regions)


class Recorder:
    """Wraps device with the same write, read and execute; close() writes
    case_dir with manifest.json (sizes and SHA-256 sums), the artifacts in
    order and the operand and expected files. case_dir must be absent or an
    empty folder (FileExistsError otherwise, at construction and again at
    close: its files are someone's inputs). The case is built in a
    temporary folder beside it and renamed into place whole, so a failed
    close leaves nothing, nor does SIGINT or (on the main thread, with its
    default action) SIGTERM. name defaults to the folder's name. Its calls take
    turns (a lock), each with its record, as a Device's do; one after close()
    raises ValueError."""

    def __init__(self, device, case_dir, name=None):
        self.device = device
        if not isinstance(case_dir, (str, bytes, os.PathLike)) or not os.fspath(case_dir):
            raise ValueError("case_dir %r: not a folder path" % (case_dir,))
        self.case_dir = case_dir
        self.name = name or os.path.basename(os.path.normpath(case_dir))
        self.artifacts = []  # JSON texts, one per round
        self.writes = {}     # point -> merged regions
        self.reads = {}      # point -> merged regions
        self.notes = []      # what the case cannot replay, in words
        self._closed = False
        self._lock = threading.RLock()  # each call and its record together, as Device's calls take turns
        self._check_free()

    def _check_free(self):
        if os.path.lexists(self.case_dir) and (not os.path.isdir(self.case_dir) or os.path.islink(self.case_dir)
                                               or os.listdir(self.case_dir)):
            raise FileExistsError("%s: already exists and is not an empty folder; a recording is written to a "
                                  "new or empty one" % self.case_dir)

    @property
    def point(self):
        return len(self.artifacts)

    def _open(self):
        if self._closed:
            raise ValueError("%s: the recording is closed; a call now would not be in it" % self.case_dir)

    def write(self, addr, data):
        data = as_bytes("data", data)
        with self._lock:
            self._open()
            self.device.write(addr, data)
            if data:  # no bytes, nothing to upload: a manifest region holds at least one
                _merge(self.writes.setdefault(self.point, []), addr, data)

    def read(self, addr, n):
        with self._lock:
            self._open()
            data = self.device.read(addr, n)
            if not data:  # no bytes, nothing to compare
                return data
            if self.point == 0:
                self.notes.append("read of %d bytes at 0x%x before round 0: nothing to check" % (n, addr))
            elif _overlaps(self.writes.get(self.point, []), addr, n):
                self.notes.append("read of %d bytes at 0x%x after round %d: covers bytes the host wrote there"
                                  % (n, addr, self.point - 1))
            else:
                _merge(self.reads.setdefault(self.point, []), addr, data)
            return data

    def discard(self, addr, n):
        with self._lock:
            self._open()
            self.device.discard(addr, n)
            self.notes.append("discard of %d bytes at 0x%x %s: the replay counts them as written" % (
                n, addr, self._where()))

    def execute(self, artifact, name="artifact"):
        items = artifact if isinstance(artifact, (list, tuple)) else [artifact]
        texts = [artifact_text(a) for a in items]
        with self._lock:
            self._open()
            try:
                result, messages = self.device.execute_texts(texts, name)
            except SysNodeError as e:
                if e.result is not None and e.result.cycles:  # it ran, and its units may have written DRAM
                    self.notes.append("execute of %d artifact%s %s failed after %d cycles (%s): not in the case, "
                                      "and what it left in DRAM is not replayed" % (
                                          len(texts), "" if len(texts) == 1 else "s", self._where(), e.result.cycles,
                                          e.status_name))
                issued(None, e.warnings)
                raise
            self.artifacts.extend(texts)  # recorded before its warnings, which a filter may make errors
        return issued(result, messages)

    def _where(self):
        return "before round 0" if self.point == 0 else "after round %d" % (self.point - 1)

    def _regions(self, folder, regions, kind, point):
        out = []
        for i, (addr, data) in enumerate(regions):
            file = "%s_p%03d_%02d_%08x.bin" % (kind, point, i, addr)
            with open(os.path.join(folder, file), "wb") as f:
                f.write(data)
            out.append({"file": file, "addr": addr, "nbytes": len(data), "sha256": hashlib.sha256(data).hexdigest()})
        return out

    def close(self):
        """Writes the case folder (once: a second close does nothing);
        ValueError when the session ran nothing or read nothing after a
        round (the case would compare nothing). A call after it raises
        ValueError."""
        with self._lock:
            self._close()

    def _close(self):
        rounds = len(self.artifacts)
        if rounds == 0:
            raise ValueError("%s: the session executed no artifact" % self.case_dir)
        if not any(self.reads.get(p) for p in range(1, rounds + 1)):
            raise ValueError("%s: the session read nothing after a round: the case would compare nothing"
                             % self.case_dir)
        if self._closed:
            return
        self._check_free()
        parent = os.path.dirname(os.path.abspath(self.case_dir))
        os.makedirs(parent, exist_ok=True)
        folder = os.path.join(parent, ".%s.partial-%d-%s" % (os.path.basename(os.path.normpath(self.case_dir)),
                                                              os.getpid(), secrets.token_hex(4)))
        with _sigterm_unwinds():
            os.mkdir(folder)  # the umask's mode, as a plain mkdir of case_dir would have
            try:
                self._write(folder, rounds)
                os.rename(folder, self.case_dir)  # onto an empty folder, or none: whole or not at all
            except BaseException:
                shutil.rmtree(folder, ignore_errors=True)
                raise
        self._closed = True

    def _write(self, folder, rounds):
        names = []
        for i, text in enumerate(self.artifacts):
            names.append("artifact_%03d.json" % i)
            with open(os.path.join(folder, names[-1]), "wb") as f:
                f.write(text)
        steps = []
        for p in range(1, rounds):
            step = {"after_round": p - 1}
            if self.reads.get(p):
                step["expected_outputs"] = self._regions(folder, self.reads[p], "expected", p)
            if self.writes.get(p):
                step["uploads"] = self._regions(folder, self.writes[p], "upload", p)
            if len(step) > 1:
                steps.append(step)
        manifest = {
            "name": self.name,
            "description": "recorded by sysnode.Recorder",
            "artifacts_in_order": names,
            "rounds": rounds,
            "uploads_before_round0": self._regions(folder, self.writes.get(0, []), "upload", 0),
            "expected_outputs_after_last_round": self._regions(folder, self.reads.get(rounds, []), "expected", rounds),
        }
        if steps:
            manifest["host_steps"] = steps
        notes = self.notes + ["write of %d bytes at 0x%x after the last round: nothing runs after it"
                              % (len(data), addr) for addr, data in self.writes.get(rounds, [])]
        if notes:
            manifest["recorder_notes"] = notes
        with open(os.path.join(folder, "manifest.json"), "w") as f:
            json.dump(manifest, f, indent=1)

    def __enter__(self):
        return self

    def __exit__(self, exc_type, *exc):
        if exc_type is None:
            self.close()
