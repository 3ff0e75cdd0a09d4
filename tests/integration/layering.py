#!/usr/bin/env python3
"""The tree's floors hold (issue 23, DESIGN.md §3 "One door per boundary", §4):

- the interface, iface/, includes nothing outside itself but C library and
  freestanding headers;
- common/, the neutral floor every side builds on (the window's vocabulary
  among it), includes nothing of the simulator (sim/) or the host (host/);
- no simulator file (sim/) includes a host library header (host/inputs/,
  host/session/);
- no host library file includes a simulator header;
- in the CMake link graph the host library targets reach no simulator
  target, and the simulator's targets no host library target;
- the inputs library (host/inputs/) is the lower floor: none of its files
  includes or calls into the session library (host/session/);
- the host libraries' files form no circle, by #include nor by call (an object
  file calling a function another defines), and no host library object calls
  into the simulator's libraries.

The include checks read the sources; the call checks read the symbols of the
built static libraries (nm); the link check reads the graph CMake wrote
(cmake/link_graph.cmake: "target<TAB>folder<TAB>lib;lib..." a line).

usage: layering.py REPO_ROOT --host-lib LIB.a... --sim-lib LIB.a... --link-graph FILE"""
import argparse
import os
import re
import subprocess
import sys

from tree_files import tree_files

IFACE = "iface/"
COMMON = "common/"
HOST = "host/"
INPUTS = "host/inputs/"
SESSION = "host/session/"
HOST_LIB = (INPUTS, SESSION)
SIM = "sim/"
SOURCES = (".c", ".h", ".cpp", ".hpp", ".S")
# The C library's and the freestanding headers (C11 §7.1.2).
LIBC = {"assert.h", "complex.h", "ctype.h", "errno.h", "fenv.h", "float.h", "inttypes.h", "iso646.h",
        "limits.h", "locale.h", "math.h", "setjmp.h", "signal.h", "stdalign.h", "stdarg.h", "stdatomic.h",
        "stdbool.h", "stddef.h", "stdint.h", "stdio.h", "stdlib.h", "stdnoreturn.h", "string.h", "tgmath.h",
        "threads.h", "time.h", "uchar.h", "wchar.h", "wctype.h"}
# nm -o: "LIB.a:OBJ.o: U sym" or "LIB.a:OBJ.o:ADDR T sym".
NM_LINE = re.compile(r"^(.*?\.a:[^:]+):\s*(?:[0-9a-f]+\s+)?([A-Za-z])\s+(\S+)$")
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]', re.M)


def resolver(files):
    """The tracked file an #include "name" in includer names: beside the
    includer first, else the one tracked file whose path ends in /name (of
    the includer's top folder, when several do); None for a generated or
    system header."""
    have = set(files)
    by_tail = {}
    for f in files:
        parts = f.split("/")
        for i in range(1, len(parts)):
            by_tail.setdefault("/".join(parts[i:]), []).append(f)

    def resolve(includer, name):
        local = os.path.normpath(os.path.join(os.path.dirname(includer), name))
        if local in have:
            return local
        hits = by_tail.get(name, [])
        if len(hits) > 1:
            hits = [h for h in hits if h.split("/")[0] == includer.split("/")[0]]
        if len(hits) > 1:
            sys.exit(f"layering: {includer}: #include \"{name}\" matches {', '.join(hits)}: name it by its folder")
        return hits[0] if hits else None
    return resolve


def include_graph(root, files):
    resolve = resolver(files)
    edges = []  # (includer, kind, name, resolved)
    for f in files:
        if not f.endswith(SOURCES):
            continue
        with open(os.path.join(root, f), encoding="utf-8", errors="replace") as fh:
            text = fh.read()
        for kind, name in INCLUDE.findall(text):
            edges.append((f, kind, name, resolve(f, name) if kind == '"' else None))
    return edges


def cycles(nodes, succ):
    """The strongly connected components of more than one node (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(succ.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))
    sys.setrecursionlimit(10000)
    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return out


def symbols(libs):
    """{object: (defined, undefined)} of the static libraries' global symbols."""
    objs = {}
    for lib in libs:
        nm = subprocess.run(["nm", "-o", lib], capture_output=True, text=True)
        if nm.returncode != 0:
            sys.exit(f"layering: nm {lib}: {nm.stderr.strip()}")
        for line in nm.stdout.splitlines():
            m = NM_LINE.match(line)
            if not m:
                continue
            where, kind, sym = m.groups()
            d, u = objs.setdefault(where, (set(), set()))
            if kind == "U":
                u.add(sym)
            elif kind.isupper():
                d.add(sym)
    return objs


LIB_FOLDER = {"libsn_inputs.a": INPUTS, "libsn_session.a": SESSION}


def source_of(obj):
    """host/session/replay.c for ".../libsn_session.a:replay.c.o"."""
    lib, _, member = obj.rpartition(":")
    folder = LIB_FOLDER.get(os.path.basename(lib))
    if folder is None:
        sys.exit(f"layering: {lib}: not a host library ({', '.join(LIB_FOLDER)})")
    return folder + member.removesuffix(".o")


def link_graph(path):
    """{target: (folder, [direct link libraries])} from cmake/link_graph.cmake's file."""
    graph = {}
    with open(path, encoding="utf-8") as fh:
        for n, line in enumerate(fh, 1):
            parts = line.rstrip("\n").split("\t")
            if len(parts) != 3:
                sys.exit(f"layering: {path}:{n}: not target<TAB>folder<TAB>libraries")
            graph[parts[0]] = (parts[1] + "/", [lib for lib in parts[2].split(";") if lib])
    return graph


def reached(graph, start):
    """The targets start links, directly or through another target."""
    seen, todo = set(), [start]
    while todo:
        for lib in graph[todo.pop()][1]:
            if lib in graph and lib not in seen:
                seen.add(lib)
                todo.append(lib)
    return seen


def link_faults(graph):
    """The links from a host library target to a simulator target or back."""
    host = {t for t, (d, _) in graph.items() if d.startswith(HOST_LIB)}
    sim = {t for t, (d, _) in graph.items() if d.startswith(SIM)}
    bad = []
    if not host or not sim:
        bad.append(f"the link graph names no host library or no simulator target "
                   f"(host {sorted(host)}, sim {sorted(sim)})")
    for side, other, what in ((host, sim, "the host libraries link nothing of the simulator"),
                              (sim, host, "the simulator links nothing of the host libraries")):
        for t in sorted(side):
            for hit in sorted(reached(graph, t) & other):
                bad.append(f"{graph[t][0]}: {t} links {hit} ({graph[hit][0]}): {what}")
    return bad


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("root")
    ap.add_argument("--host-lib", nargs="+", required=True)
    ap.add_argument("--sim-lib", nargs="+", required=True)
    ap.add_argument("--link-graph", required=True)
    a = ap.parse_args()
    files = tree_files(a.root)
    bad = []
    if not any(f.startswith(IFACE + "sysnode/") for f in files):
        bad.append(f"{IFACE}sysnode/: the interface's headers are not there (the interface is the ground floor)")

    edges = include_graph(a.root, files)
    host_includes = {}
    for f, kind, name, to in edges:
        if f.startswith(IFACE):
            if kind == "<" and name not in LIBC:
                bad.append(f"{f}: includes <{name}>, not a C library or freestanding header")
            elif kind == '"' and not (to or "").startswith(IFACE):
                bad.append(f"{f}: includes \"{name}\" ({to or 'not in the tree'}), outside {IFACE}")
        if to is None:
            continue
        if f.startswith(COMMON) and to.startswith((SIM, HOST)):
            bad.append(f"{f}: includes {to}: common/ includes nothing of the simulator or the host")
        if (f.startswith(SIM) and to.startswith(HOST_LIB)) or (f.startswith(HOST_LIB) and to.startswith(SIM)):
            bad.append(f"{f}: includes {to}: the simulator and the host libraries include nothing of each other")
        if f.startswith(INPUTS) and to.startswith(SESSION):
            bad.append(f"{f}: includes {to}: the inputs library includes nothing of the session library")
        if f.startswith(HOST_LIB) and to.startswith(HOST_LIB):
            host_includes.setdefault(f, set()).add(to)
    for c in cycles(host_includes, host_includes):
        bad.append(f"host libraries: an #include circle: {' -> '.join(c)}")

    host = symbols(a.host_lib)
    sim = symbols(a.sim_lib)
    definer = {}
    for obj, (d, _) in host.items():
        for s in d:
            definer[s] = source_of(obj)
    sim_defined = set().union(*(d for d, _ in sim.values()))
    calls = {}
    for obj, (_, u) in host.items():
        src = source_of(obj)
        for s in u:
            if s in definer and definer[s] != src:
                calls.setdefault(src, set()).add(definer[s])
                if src.startswith(INPUTS) and definer[s].startswith(SESSION):
                    bad.append(f"{src}: calls {s} of {definer[s]}: the inputs library calls nothing of the session library")
            elif s in sim_defined:
                bad.append(f"{src}: calls {s}, defined in the simulator's libraries")
    for c in cycles(calls, calls):
        bad.append(f"host libraries: a call circle between {', '.join(c)}")
    graph = link_graph(a.link_graph)
    bad += link_faults(graph)

    for b in bad:
        print(b, file=sys.stderr)
    if bad:
        return 1
    print(f"layering: {len(edges)} includes, {len(host)} host library objects and {len(graph)} library targets hold")
    return 0


if __name__ == "__main__":
    sys.exit(main())
