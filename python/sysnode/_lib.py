"""ctypes declarations of libsysnode (host/libsysnode/sysnode.h), and where
the shared library is found: $SYSNODE_LIB, else the tree's build/lib (this
package used from the tree or installed editable), else the library of the
prefix it was installed into (P/lib, from P/lib/python3/dist-packages;
cmake/install.cmake), else the system's libsysnode.so.1."""
import ctypes
import os

API_VERSION = 3  # SYSNODE_API_VERSION this package was written against


class Options(ctypes.Structure):
    _fields_ = [
        ("mesh", ctypes.c_char_p),
        ("cu_version", ctypes.c_uint32),
        ("image", ctypes.c_char_p),
        ("max_cycles", ctypes.c_uint64),
        ("strict", ctypes.c_int32),
        ("device", ctypes.c_char_p),
    ]


class Result(ctypes.Structure):
    _fields_ = [
        ("status", ctypes.c_int32),
        ("match", ctypes.c_int32),
        ("rounds", ctypes.c_uint32),
        ("flits", ctypes.c_uint32),
        ("completions", ctypes.c_uint32),
        ("diff_round", ctypes.c_int32),
        ("cycles", ctypes.c_uint64),
        ("output_bytes", ctypes.c_uint64),
        ("diff_offset", ctypes.c_uint64),
        ("diff_addr", ctypes.c_uint64),
        ("got", ctypes.c_uint8),
        ("want", ctypes.c_uint8),
        ("diff_file", ctypes.c_char * 128),
    ]


class Unit(ctypes.Structure):
    _fields_ = [
        ("x", ctypes.c_uint8),
        ("y", ctypes.c_uint8),
        ("cu_type", ctypes.c_uint16),
        ("inst_depth", ctypes.c_uint32),
        ("payloads", ctypes.c_uint64 * 4),
        ("saturated", ctypes.c_uint64),
    ]


class Mesh(ctypes.Structure):
    _fields_ = [
        ("agent_x", ctypes.c_uint8),
        ("agent_y", ctypes.c_uint8),
        ("unit_count", ctypes.c_uint16),
        ("units", Unit * 16),
    ]


def _candidates():
    env = os.environ.get("SYSNODE_LIB")
    if env:
        yield env
        return
    here = os.path.dirname(os.path.abspath(__file__))
    tree = os.path.join(here, "..", "..", "build", "lib", "libsysnode.so.1")
    installed = os.path.join(here, "..", "..", "..", "libsysnode.so.1")  # P/lib/python3/dist-packages/sysnode
    for path in (tree, installed):
        if os.path.exists(path):
            yield os.path.realpath(path)
    yield "libsysnode.so.1"


def load():
    errors = []
    for path in _candidates():
        try:
            lib = ctypes.CDLL(path)
            break
        except OSError as e:
            errors.append(str(e))
    else:
        raise OSError("libsysnode not found (build it with ./scripts/setup, or set SYSNODE_LIB): "
                      + "; ".join(errors))
    dev = ctypes.c_void_p
    u64, i32, size = ctypes.c_uint64, ctypes.c_int32, ctypes.c_size_t
    sigs = {
        "sysnode_api_version": (i32, []),
        "sysnode_version": (ctypes.c_char_p, []),
        "sysnode_open": (i32, [ctypes.POINTER(Options), ctypes.POINTER(dev), ctypes.c_char_p, size]),
        "sysnode_close": (None, [dev]),
        "sysnode_write": (i32, [dev, u64, ctypes.c_char_p, u64]),
        "sysnode_read": (i32, [dev, u64, ctypes.c_void_p, u64]),
        "sysnode_execute": (i32, [dev, ctypes.POINTER(ctypes.c_char_p), ctypes.POINTER(size), size,
                                  ctypes.c_char_p]),
        "sysnode_run_case": (i32, [dev, ctypes.c_char_p, i32]),
        "sysnode_last_error": (ctypes.c_char_p, [dev]),
        "sysnode_last_result": (None, [dev, ctypes.POINTER(Result)]),
        "sysnode_status_name": (ctypes.c_char_p, [i32]),
        "sysnode_discard": (i32, [dev, u64, u64]),
        "sysnode_dram_size": (u64, [dev]),
        "sysnode_mesh_get": (None, [dev, ctypes.POINTER(Mesh)]),
        "sysnode_payload_op_name": (ctypes.c_char_p, [ctypes.c_uint16, ctypes.c_uint32]),
        "sysnode_warning_count": (ctypes.c_uint32, [dev]),
        "sysnode_warning": (ctypes.c_char_p, [dev, ctypes.c_uint32]),
        "sysnode_file_read": (i32, [ctypes.c_char_p, ctypes.POINTER(ctypes.POINTER(ctypes.c_uint8)),
                                    ctypes.POINTER(u64), ctypes.c_char_p, size]),
        "sysnode_free": (None, [ctypes.c_void_p]),
    }
    for name, (res, args) in sigs.items():
        fn = getattr(lib, name)
        fn.restype, fn.argtypes = res, args
    if lib.sysnode_api_version() != API_VERSION:
        raise OSError("libsysnode API version %d, this package needs %d" % (lib.sysnode_api_version(), API_VERSION))
    return lib
