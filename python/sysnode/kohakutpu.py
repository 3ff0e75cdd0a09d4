"""sysnode.kohakutpu: the SysNode as a device for the KohakuTPU compiler's
Python API (README "From a KohakuTPU compiler session").

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

The machine is the SysNode's (sysnode-facts §3, rv64_mesh_2p2): matmul
clusters (MG) at (1,1) and (2,1), vector cores (VC) at (1,0) and (1,2);
peer acks go to the SysNode at (0,0) (artifacts-facts §5 item 4), unit
programs hold 512 instruction words (inst_depth), and the arena lies in the
16 MiB DRAM below the top, where the packed table goes. The arena's freed
spans are discarded from the device's live bytes (Device.discard): a unit
read of a freed span is reported, as a read of bytes nothing wrote, until
something writes it again."""
import os

from .device import Device
from .recorder import Recorder

MG = ((1, 1), (2, 1))
VC = ((1, 0), (1, 2))
AGENT = (0, 0)
INST_DEPTH = 512
# Low DRAM is where cases in artifacts/ put their operands (0x1000..); the
# top MiB holds the packed table and its status copy (DESIGN.md §3).
ARENA_BASE = 0x20000
TABLE_RESERVE = 1 << 20

# A payload's operation, bits [255:252] (sysnode-facts §3.2, §3.3).
_OPS = {"MG": {1: "FILL", 2: "GEMM", 3: "DRAIN"}, "VC": {1: "IMEM", 2: "DESC", 3: "RUN"}}


class Unit:
    """One unit's instruction mix as `sim.observe` sums it: `counts` maps a
    payload operation (FILL, GEMM, DRAIN; IMEM, DESC, RUN) to how many the
    SysNode sent that unit."""

    def __init__(self, kind, coord):
        self.kind, self.coord = kind, coord
        self.counts = dict.fromkeys(_OPS[kind].values(), 0)


def device(cu_version=4, device=None, strict=False, record=None, image=None, max_cycles=0):
    """A KohakuTPU device on a simulated SysNode (cu_version 4 or 5), or on
    the card named by `device` ("xdma:/dev/xdma0"; not simulated here:
    refused with the reason). strict: a unit read of bytes nothing wrote
    raises sysnode.SysNodeError instead of a SysNodeWarning. record: a case
    folder the session is recorded into (sysnode.Recorder), written by
    close(). It becomes `kohakutpu.api`'s current device, as
    `api.script_device` makes the one it opens. ImportError when KohakuTPU
    is not installed."""
    if device is not None:
        raise ValueError("device=%r: this build of sysnode simulates the SysNode; a card is reached with "
                         "`sysnode run --device`, not through the library" % (device,))
    from kohakuaccel.dispatch import plan
    from kohakuaccel.machinespec import MachineSpec
    from kohakuaccel.memory import Arena
    from kohakuaccel.rt import Runtime
    from kohakutpu import api
    from kohakutpu.isa.vecemit import BATCH_BYTES
    from kohakutpu.rt import Holder

    sn = Device(cu_version=cu_version, strict=strict, image=image, max_cycles=max_cycles)
    port = Recorder(sn, record) if record else sn

    class _Arena(Arena):
        """The compiler's arena, telling the SysNode which spans it frees."""

        def release(self, addr):
            nbytes = self.live.get(addr)
            super().release(addr)
            sn.discard(addr, nbytes)

        def reset(self):
            super().reset()
            sn.discard(self.base, self.size)

    class _Window:
        """The byte window Runtime.write/read use (driver/kohakuaccel/transport/base.py@7703ee8)."""

        def write_block(self, addr, blob):
            port.write(addr, blob)

        def read_block(self, addr, nbytes):
            return port.read(addr, nbytes)

    class SysNodeDevice(Holder, Runtime):
        """A KohakuTPU device whose units are a simulated SysNode's."""

        def __init__(self):
            machine = MachineSpec(name="sysnode", units={"MG": MG, "VC": VC}, inst_depth=INST_DEPTH, agent=AGENT)
            arena = _Arena(ARENA_BASE, sn.dram_bytes - TABLE_RESERVE - ARENA_BASE, align=BATCH_BYTES,
                           mesh=machine.default)
            super().__init__(machine, arena, _Window())
            self.sysnode = sn
            self.recorder = port if record else None
            self.units = {c: Unit("MG", c) for c in MG}
            self.units.update({c: Unit("VC", c) for c in VC})
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
                self._count(d)
            self.cycles += port.execute(dicts, name).cycles
            return len(rounds)

        def _count(self, artifact):
            for step in artifact["steps"]:
                if step[0] != "kick" or (step[1], step[2]) not in self.units:
                    continue
                u = self.units[(step[1], step[2])]
                for flit in artifact["flits"][step[3]:step[3] + step[4]]:
                    op = _OPS[u.kind].get(flit >> 252 & 0xF)
                    if op:
                        u.counts[op] += 1

        @property
        def clusters(self):
            """The matmul clusters' instruction mixes, in coordinate order."""
            return [self.units[c] for c in sorted(MG)]

        @property
        def cores(self):
            """The vector cores' instruction mixes, in coordinate order."""
            return [self.units[c] for c in sorted(VC)]

        @property
        def saturated(self):
            """Not measured: the SysNode does not count clamped elements
            (`sim.observe` shows None)."""
            return None

        def close(self):
            """Writes the recorded case (record=) and closes the SysNode."""
            if self.recorder is not None:
                self.recorder.close()
                self.recorder = None
            sn.close()

    dev = SysNodeDevice()
    api._device = dev  # api.device() (compiler/kohakutpu/api.py@7703ee8) keeps its device here; no setter
    return dev


def checkout():
    """The KohakuTPU checkout named by $SYSNODE_KOHAKUTPU, with its compiler
    and driver put on sys.path, or None when the variable is unset."""
    import sys

    root = os.environ.get("SYSNODE_KOHAKUTPU")
    if not root:
        return None
    for sub in ("compiler", "driver"):
        path = os.path.join(root, sub)
        if path not in sys.path:
            sys.path.insert(0, path)
    return root
