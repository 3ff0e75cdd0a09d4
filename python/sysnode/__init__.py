"""sysnode: the simulated KohakuTPU SysNode from Python, through libsysnode
(docs/user-guide.md "Python and the C library"). Device runs artifacts live;
Recorder turns a session into a case folder that `sysnode run` replays.
sysnode.__version__ is the loaded libsysnode's, the project's one version
(project() in CMakeLists.txt), read when first asked for."""
from .device import Device, Result, SysNodeError, SysNodeWarning, artifact_text, mesh
from .recorder import Recorder

__all__ = ["Device", "Recorder", "Result", "SysNodeError", "SysNodeWarning", "artifact_text", "mesh"]


def __getattr__(name):
    """__version__, from the library on first use (PEP 562), so importing
    the package does not load it."""
    if name == "__version__":
        from .device import lib
        return lib().sysnode_version().decode()
    raise AttributeError("module 'sysnode' has no attribute %r" % name)
