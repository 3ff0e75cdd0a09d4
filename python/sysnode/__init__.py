"""sysnode: the simulated KohakuTPU SysNode from Python, through libsysnode
(docs/user-guide.md "Python and the C library"). Device runs artifacts live; Recorder turns a
session into a case folder that `sysnode run` replays."""
from .device import Device, Result, SysNodeError, SysNodeWarning, artifact_text, mesh
from .recorder import Recorder

__all__ = ["Device", "Recorder", "Result", "SysNodeError", "SysNodeWarning", "artifact_text", "mesh"]
