"""sysnode.Device: a simulated SysNode through libsysnode (docs/user-guide.md
"Python and the C library"). Addresses are unit DRAM byte addresses; sizes
are bytes."""
import ctypes
import json
import os
import threading
import warnings

from . import _lib

_LIB = None


def lib():
    """The loaded libsysnode (loaded on first use)."""
    global _LIB
    if _LIB is None:
        _LIB = _lib.load()
    return _LIB


class SysNodeError(Exception):
    """A call the SysNode refused or a run that failed. `status` is the code
    of iface/sysnode/status.h (e.g. 0x40), `status_name` its name
    (e.g. "SN_ERR_HANG"), `diagnosis` the library's message (the runner's own
    words for a runner error: round, step, node), `result` the Result of the
    run when there was one, `warnings` the messages of the SysNodeWarnings the
    run gave before it failed (also issued as warnings)."""

    def __init__(self, status, diagnosis, result=None, warnings=()):
        self.status = status
        self.status_name = lib().sysnode_status_name(status).decode()
        self.diagnosis = diagnosis
        self.result = result
        self.warnings = list(warnings)
        super().__init__("%s (0x%02x): %s" % (self.status_name, status, diagnosis))


SN_ERR_INPUT = 0x10  # iface/sysnode/status.h


class SysNodeWarning(UserWarning):
    """A unit read of DRAM bytes that neither the host nor an earlier round
    wrote in this session (docs/user-guide.md "Python and the C library"): the message names the
    artifact, round, slot, payload, unit and address range."""


def _u(name, value, bits):
    """value as an unsigned integer of `bits` bits, or SysNodeError naming
    the argument: ctypes would cut a larger one silently."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise SysNodeError(SN_ERR_INPUT, "%s %r: not an integer" % (name, value))
    if not 0 <= value < 1 << bits:
        raise SysNodeError(SN_ERR_INPUT, "%s %d: outside 0..2^%d-1" % (name, value, bits))
    return value


def _flag(name, value):
    """value as C's 0 or 1, or SysNodeError naming the argument: a truth test
    would read strict="no" or digest="false" as on."""
    if not isinstance(value, bool):
        raise SysNodeError(SN_ERR_INPUT, "%s %r: not True or False" % (name, value))
    return 1 if value else 0


def as_bytes(name, data):
    """data (any bytes-like object: bytes, bytearray, memoryview, a NumPy
    array) as bytes, or SysNodeError naming the argument: bytes() would
    read an int as that many zero bytes and a list of ints as bytes."""
    try:
        view = memoryview(data)
    except TypeError:
        raise SysNodeError(SN_ERR_INPUT, "%s %r: not a bytes-like object" % (name, type(data).__name__)) from None
    return view.tobytes()


def _c_string(name, value, path=False):
    """value (str; also bytes or os.PathLike when path) as the NUL-ended bytes
    C takes, or SysNodeError naming the argument: ctypes would end the string
    at an embedded NUL and the library would act on its head silently."""
    if path:
        value = os.fsencode(value)
    elif isinstance(value, str):
        value = value.encode()
    else:
        raise SysNodeError(SN_ERR_INPUT, "%s %r: not a string" % (name, value))
    if b"\0" in value:
        raise SysNodeError(SN_ERR_INPUT, "%s %r: contains a NUL byte" % (name, value))
    return value


def read_file(path):
    """The bytes of the regular file at path, read by the rule `sysnode run`
    reads an artifact with (host/inputs/file_read.h: no FIFO or device, at
    most 1 GiB); SysNodeError naming path otherwise."""
    data = ctypes.POINTER(ctypes.c_uint8)()
    n = ctypes.c_uint64()
    err = ctypes.create_string_buffer(512)
    st = lib().sysnode_file_read(_c_string("path", path, True), ctypes.byref(data), ctypes.byref(n), err, len(err))
    try:
        if st != 0:
            raise SysNodeError(st, err.value.decode(errors="replace"))
        return ctypes.string_at(data, n.value)
    finally:
        lib().sysnode_free(data)


def mesh(device=None):
    """The SysNode's mesh (DESIGN.md §6) as the compiler describes a machine:
    {"MG": ((x, y), ...), "VC": (...), "agent": (x, y), "inst_depth": n,
    "mix": {(x, y): {"FILL": n, ...}}, "saturated": {(x, y): n}}, the mix
    being the payloads device's executes sent each unit by operation (zeros
    without a device), saturated the FP16 elements each unit clamped to
    +-65504 since the session's boot (DRAIN; VST, VCVT; None on a card, which
    does not count them)."""
    raw = _lib.Mesh()
    if device is None:
        lib().sysnode_mesh_get(None, ctypes.byref(raw))
    else:
        with device._lock:  # the handle stays open for the call (another thread may close it)
            lib().sysnode_mesh_get(device._handle(), ctypes.byref(raw))
    out = {"agent": (raw.agent_x, raw.agent_y), "mix": {}, "saturated": {}}
    for u in raw.units[:raw.unit_count]:
        kind = chr(u.cu_type >> 8) + chr(u.cu_type & 0xFF)
        out[kind] = out.get(kind, ()) + ((u.x, u.y),)
        out["inst_depth"] = u.inst_depth
        out["mix"][(u.x, u.y)] = {lib().sysnode_payload_op_name(u.cu_type, op).decode(): u.payloads[op]
                                  for op in range(1, 4)}
        out["saturated"][(u.x, u.y)] = None if u.saturated == (1 << 64) - 1 else u.saturated
    return out


class Result:
    """What an execute or run_case did: rounds, flits (payloads sent),
    completions, cycles (simulated CPU cycles), match (run_case: whether
    every expected byte came back; execute: None, since it compares
    nothing); for a mismatch the first difference (diff_file, diff_offset,
    diff_addr, got, want, and diff_round: the round a host step compared
    after, -1 after the last)."""

    def __init__(self, raw):
        for name, _ in _lib.Result._fields_:
            value = getattr(raw, name)
            # a name the library cut ends in "..." and may end inside a UTF-8 sequence
            setattr(self, name, value.decode(errors="replace") if isinstance(value, bytes) else value)
        self.match = bool(self.match)

    def __repr__(self):
        return "Result(rounds=%d, flits=%d, completions=%d, cycles=%d, match=%s)" % (
            self.rounds, self.flits, self.completions, self.cycles, self.match)


def issued(result, messages):
    """Issues each message as a SysNodeWarning (at the caller's caller: the
    user's line), after the call's own bookkeeping, and returns result."""
    for m in messages:
        warnings.warn(SysNodeWarning(m), stacklevel=3)
    return result


def artifact_text(artifact):
    """The JSON text of an artifact given as the compiler's dict, an object
    with to_dict(), JSON text (str or bytes) or a path to a JSON file."""
    if hasattr(artifact, "to_dict"):
        artifact = artifact.to_dict()
    if isinstance(artifact, dict):
        return json.dumps(artifact).encode()
    if isinstance(artifact, bytes):
        return artifact
    if isinstance(artifact, os.PathLike) or (isinstance(artifact, str) and not artifact.lstrip().startswith("{")):
        return read_file(artifact)
    if isinstance(artifact, str):
        return artifact.encode()
    raise TypeError("an artifact is a dict, JSON text or a path, not %s" % type(artifact).__name__)


class Device:
    """A fresh simulated SysNode: mesh "rv64_mesh_2p2" (the one simulated),
    cu_version 4 or 5 (every unit's generation; None: 4, or a card's own),
    image (runner ELF; default the build's), max_cycles (cap per run,
    default 400 M). DRAM (16 MiB) keeps its bytes between calls. strict: a
    unit read of bytes nothing wrote raises SysNodeError (else it is a
    SysNodeWarning). device: None for the in-process simulator, else a
    `sysnode run --device` spec, "sim" (the simulated card) or
    "xdma:/dev/xdma0" (a card, cu_version None), reached through the card
    protocol: its DRAM is zeroed at open, and it reports no reads of bytes
    nothing wrote (a card's unit DRAM port is not visible; libsysnode's
    sysnode_open). Use as a context manager or call close(). One Device may
    be shared between threads: its calls take turns (a lock), each call and
    its result together."""

    _dev = None  # so a refused __init__ leaves nothing for __del__ to close

    def __init__(self, cu_version=None, mesh="rv64_mesh_2p2", image=None, max_cycles=0, strict=False, device=None):
        self._lock = threading.RLock()
        opts = _lib.Options(_c_string("mesh", mesh), _u("cu_version", 0 if cu_version is None else cu_version, 32),
                            _c_string("image", image, True) if image is not None else None,
                            _u("max_cycles", max_cycles, 64), _flag("strict", strict),
                            _c_string("device", device) if device is not None else None)
        handle = ctypes.c_void_p()
        err = ctypes.create_string_buffer(512)
        st = lib().sysnode_open(ctypes.byref(opts), ctypes.byref(handle), err, len(err))
        if st != 0:
            raise SysNodeError(st, err.value.decode(errors="replace"))
        self._dev = handle
        self.last_result = None
        self.dram_bytes = lib().sysnode_dram_size(handle)

    def _messages(self):
        """The last execute's or run_case's warnings, as their messages."""
        return [lib().sysnode_warning(self._dev, i).decode(errors="replace")
                for i in range(lib().sysnode_warning_count(self._dev))]

    def _check(self, st, result=None, messages=()):
        if st != 0:
            raise SysNodeError(st, lib().sysnode_last_error(self._dev).decode(errors="replace"), result, messages)

    def _handle(self):
        if self._dev is None:
            raise ValueError("the device is closed")
        return self._dev

    def write(self, addr, data):
        """Writes bytes (any bytes-like object) to DRAM at addr."""
        data = as_bytes("data", data)
        with self._lock:
            self._check(lib().sysnode_write(self._handle(), _u("address", addr, 64), data, len(data)))

    def read(self, addr, n):
        """Reads n bytes of DRAM at addr. A range a matmul cluster FILLed
        reads back as the MXFP7 the conversion wrote there (DESIGN.md §6)."""
        _u("address", addr, 64)
        _u("size", n, 64)
        if n > self.dram_bytes:  # before a buffer of n bytes is made
            raise SysNodeError(SN_ERR_INPUT, "DRAM read of %d bytes at 0x%x: more than DRAM (%d bytes)"
                               % (n, addr, self.dram_bytes))
        buf = ctypes.create_string_buffer(n)
        with self._lock:
            self._check(lib().sysnode_read(self._handle(), addr, buf, n))
        return buf.raw

    def discard(self, addr, n):
        """Forgets that the n bytes at addr are live (the compiler freed
        them; the bytes stay): a later unit read of them is reported as a
        read of bytes nothing wrote, until something writes them again."""
        with self._lock:
            self._check(lib().sysnode_discard(self._handle(), _u("address", addr, 64), _u("size", n, 64)))

    def _result(self):
        raw = _lib.Result()
        lib().sysnode_last_result(self._handle(), ctypes.byref(raw))
        self.last_result = Result(raw)
        return self.last_result

    def execute(self, artifact, name="artifact"):
        """Runs one artifact (see artifact_text), or a list of them as
        consecutive rounds, checked by the rules of `sysnode pack`; returns a
        Result or raises SysNodeError with the runner's diagnosis. Reads of
        bytes nothing wrote are SysNodeWarnings, issued last."""
        items = artifact if isinstance(artifact, (list, tuple)) else [artifact]
        try:
            res, messages = self.execute_texts([artifact_text(a) for a in items], name)
        except SysNodeError as e:
            issued(None, e.warnings)
            raise
        return issued(res, messages)

    def execute_texts(self, texts, name="artifact"):
        """execute of artifacts' JSON texts (bytes), its warnings not issued:
        (Result, the warnings' messages), or SysNodeError with them in
        .warnings. For a caller that keeps its own record of the run before
        the warnings are issued (Recorder): a filter that makes them errors
        then cannot lose a run that happened."""
        arr = (ctypes.c_char_p * len(texts))(*texts)
        lens = (ctypes.c_size_t * len(texts))(*[len(t) for t in texts])
        with self._lock:
            st = lib().sysnode_execute(self._handle(), arr, lens, len(texts), _c_string("name", name))
            res = self._result()
            res.match = None  # nothing was compared: the caller reads the outputs
            messages = self._messages()
            self._check(st, res, messages)
        return res, messages

    def run_case(self, case_dir, digest=False):
        """Replays a case folder as `sysnode run` does; returns a Result on a
        byte-exact match, else raises SysNodeError (SN_ERR_MISMATCH with the
        first difference in .result, or the error that stopped it)."""
        with self._lock:
            st = lib().sysnode_run_case(self._handle(), _c_string("case_dir", case_dir, True),
                                         _flag("digest", digest))
            res = self._result()
            messages = self._messages()
        try:
            self._check(st, res, messages)
        except SysNodeError as e:
            issued(None, e.warnings)
            raise
        return issued(res, messages)

    def close(self):
        if self._dev is None:
            return
        with self._lock:
            if self._dev is not None:
                lib().sysnode_close(self._dev)
                self._dev = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        self.close()
