"""sysnode.kohakutpu: the SysNode as a device for the KohakuTPU compiler's
Python API (docs/user-guide.md "From a KohakuTPU compiler session").

    dev = sysnode.kohakutpu.device(cu_version=4)

returns what `kohakutpu.ops`, `kernels`, `lang` kernels, `api` and
`sim.observe` take as a device: a `kohakutpu.rt.Holder` +
`kohakuaccel.rt.Runtime` (compiler/kohakutpu/rt.py@7703ee8,
compiler/kohakuaccel/rt.py@7703ee8) whose bytes live in a `sysnode.Device`
and whose dispatch hands each kernel's rounds, as
`kohakuaccel.dispatch.plan` deals and packs them, to `Device.execute`
instead of the driver's `kohakuaccel.runtime.execute`. KohakuTPU is
imported when device() is called, from the user's install; nothing of it is
in this package.

The machine is libsysnode's (sysnode.mesh(): rv64_mesh_2p2's matmul
clusters and vector cores, peer acks to the SysNode, artifacts-facts §5
item 4, and inst_depth), and the arena lies in DRAM below the top, where
the packed table goes. The arena's freed spans are discarded from the
device's live bytes (Device.discard): a unit read of a freed span is
reported, as a read of bytes nothing wrote, until something writes it
again."""
import os

from .device import SN_ERR_INPUT, Device, SysNodeError, mesh
from .recorder import Recorder

# The arena starts where the compiler's own cases put operands
# (artifacts/compiler/mm_silu_32x128x64 uploads at 0x20000), below it the
# hand-made cases' 0x1000..; the top MiB is left to the packed table and its
# status copy (DESIGN.md §6).
ARENA_BASE = 0x20000
TABLE_RESERVE = 1 << 20


def machine():
    """The SysNode's machine as kohakuaccel.machinespec.MachineSpec takes it:
    (units {"MG": coords, "VC": coords}, agent, inst_depth), from libsysnode
    (sysnode.mesh)."""
    m = mesh()
    return {"MG": m["MG"], "VC": m["VC"]}, m["agent"], m["inst_depth"]


def model():
    """The compiler's own model (kohakutpu.model.SimDevice,
    compiler/kohakutpu/model.py@7703ee8) built on the SysNode's mesh and
    agent: what a SysNode run is compared with."""
    from kohakutpu.model import SimDevice

    units, agent, _ = machine()
    return SimDevice(mg=units["MG"], vc=units["VC"], agent=agent)


class Unit:
    """One unit's instruction mix as `sim.observe` sums it: `counts` maps a
    payload operation (FILL, GEMM, DRAIN; IMEM, DESC, RUN) to how many the
    SysNode sent that unit."""

    def __init__(self, counts):
        self.counts = counts


def device(cu_version=None, device=None, strict=False, record=None, image=None, max_cycles=0):
    """A KohakuTPU device on a simulated SysNode (cu_version 4 or 5; None:
    4), or on the SysNode behind `device`, a `sysnode run --device` spec:
    "sim" (the simulated card) or "xdma:/dev/xdma0" (a card; cu_version
    None), through the card protocol (sysnode.Device). strict: a unit read
    of bytes nothing wrote raises sysnode.SysNodeError instead of a
    SysNodeWarning (a card reports none). record: a case folder the session
    is recorded into (sysnode.Recorder), written by close(). It becomes
    `kohakutpu.api`'s current device, as `api.script_device` makes the one
    it opens. ImportError when KohakuTPU is not installed."""
    try:
        from kohakuaccel.dispatch import plan
        from kohakuaccel.machinespec import MachineSpec
        from kohakuaccel.memory import Arena
        from kohakuaccel.rt import Runtime
        from kohakutpu import api
        from kohakutpu.isa.vecemit import BATCH_BYTES
        from kohakutpu.rt import Holder
    except ImportError as e:
        raise ImportError("sysnode.kohakutpu.device() runs the KohakuTPU compiler's own Python packages "
                          "(kohakutpu, kohakuaccel), and %s: install a KohakuTPU checkout with pip, or name it in "
                          "$SYSNODE_KOHAKUTPU and call sysnode.kohakutpu.checkout() first" % e, name=e.name) from e

    class _Arena(Arena):
        """The compiler's arena, telling the SysNode which spans it frees."""

        def release(self, addr):
            nbytes = self.live.get(addr)
            super().release(addr)
            port.discard(addr, nbytes)

        def reset(self):
            super().reset()
            port.discard(self.base, self.size)

    class _Window:
        """The byte window Runtime.write/read use (driver/kohakuaccel/transport/base.py@7703ee8)."""

        def write_block(self, addr, blob):
            port.write(addr, blob)

        def read_block(self, addr, nbytes):
            return port.read(addr, nbytes)

    class SysNodeDevice(Holder, Runtime):
        """A KohakuTPU device whose units are a SysNode's."""

        def __init__(self):
            units, agent, inst_depth = machine()
            spec = MachineSpec(name="sysnode", units=units, inst_depth=inst_depth, agent=agent)
            arena = _Arena(ARENA_BASE, sn.dram_bytes - TABLE_RESERVE - ARENA_BASE, align=BATCH_BYTES,
                           mesh=spec.default)
            super().__init__(spec, arena, _Window())
            self.sysnode = sn
            self.recorder = port if record is not None else None
            self.cycles = 0  # simulated CPU cycles of every dispatch

        def dispatch(self, payloads, unit, name="kernel", nodes=None, acks=None):
            """Runtime.dispatch's rounds (kohakuaccel/rt.py@7703ee8), run in one
            Device.execute; returns the rounds executed."""
            rounds = plan(payloads, tuple(nodes) if nodes is not None else self.machine.coords(unit),
                          stage_flits=self.machine.stage_flits, name=name, acks=acks)
            self.counters["dispatches"] += 1
            self.counters["rounds"] += len(rounds)
            dicts = [a.to_dict() for a in rounds]
            for d in dicts:
                self.counters["flits"] += len(d["flits"])
            self.cycles += port.execute(dicts, name).cycles
            return len(rounds)

        def _mix(self, kind):
            m = mesh(sn)
            return [Unit(m["mix"][c]) for c in sorted(m[kind])]

        @property
        def clusters(self):
            """The matmul clusters' instruction mixes (the payloads the SysNode
            sent each), in coordinate order."""
            return self._mix("MG")

        @property
        def cores(self):
            """The vector cores' instruction mixes, in coordinate order."""
            return self._mix("VC")

        @property
        def saturated(self):
            """FP16 elements the units clamped to +-65504 (DRAIN; VST, VCVT),
            as `sim.observe` reads the model's; None on a card."""
            counts = mesh(sn)["saturated"].values()
            return None if None in counts else sum(counts)

        def close(self):
            """Writes the recorded case (record=) and closes the SysNode,
            also when the recording cannot be written (its error is raised)."""
            try:
                if self.recorder is not None:
                    recorder, self.recorder = self.recorder, None
                    recorder.close()
            finally:
                sn.close()

    sn = Device(cu_version=cu_version, strict=strict, image=image, max_cycles=max_cycles, device=device)
    try:
        port = Recorder(sn, record) if record is not None else sn
        dev = SysNodeDevice()
    except BaseException:
        sn.close()  # a refused record folder or machine leaves no SysNode open
        raise
    api._device = dev  # api.device() (compiler/kohakutpu/api.py@7703ee8) keeps its device here; no setter
    return dev


def checkout():
    """The KohakuTPU checkout named by $SYSNODE_KOHAKUTPU, with its compiler
    and driver put on sys.path, or None when the variable is unset.
    sysnode.SysNodeError (SN_ERR_INPUT), sys.path untouched, when the folder
    it names has no compiler/ or driver/ folder: the later import would only
    say that kohakutpu is missing."""
    import sys

    root = os.environ.get("SYSNODE_KOHAKUTPU")
    if not root:
        return None
    for sub in ("compiler", "driver"):
        if not os.path.isdir(os.path.join(root, sub)):
            raise SysNodeError(SN_ERR_INPUT, "SYSNODE_KOHAKUTPU %r: no folder %s/ there (a KohakuTPU checkout "
                               "has compiler/ and driver/)" % (root, sub))
    for sub in ("compiler", "driver"):
        path = os.path.join(root, sub)
        if path not in sys.path:
            sys.path.insert(0, path)
    return root
