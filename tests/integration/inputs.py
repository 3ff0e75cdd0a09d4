#!/usr/bin/env python3
"""inputs.py SYSNODE SYSNODE_SIM CASES_DIR RUNNER_ELF WORKDIR CHECK

Hostile inputs: each is refused quickly, by name, with a nonzero exit and
nothing placed on the SysNode; memory follows the bytes in the files, never
an address span; names cannot drive the terminal. CHECK picks one of the
checks below; WORKDIR is its own scratch folder (emptied first)."""
import json, os, resource, shutil, subprocess, sys

sysnode, sysnode_sim, cases, runner, work, check = sys.argv[1:7]
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
DRAM = 16 << 20  # the simulator's DRAM (DESIGN.md §6)
MIB = 1 << 20


def run(*args, timeout=60):
    return subprocess.run([a if isinstance(a, bytes) else str(a) for a in args], capture_output=True,
                          timeout=timeout)


def copy_case(name="vadd128"):
    dst = os.path.join(work, name)
    shutil.copytree(os.path.join(cases, name), dst)
    return dst


def edit_manifest(case, change):
    path = os.path.join(case, "manifest.json")
    m = json.load(open(path))
    change(m)
    json.dump(m, open(path, "w"))


def failed(r, code, *words):
    out = (r.stdout + r.stderr).decode(errors="replace")
    assert r.returncode == code, f"exit {r.returncode}, want {code}: {out}"
    for w in words:
        assert w in out, f"{w!r} not in: {out}"
    return out


def peak_rss_mib():
    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024


def check_upload_past_dram():
    """An upload near the top of the 40-bit space is refused when the
    manifest is read, naming the file, its address and the DRAM size; no
    allocation by address span, no trace (nothing reached the SysNode)."""
    case = copy_case()
    edit_manifest(case, lambda m: m["uploads_before_round0"][0].update(addr=0xFF_FFFF_F000))
    trace = os.path.join(work, "trace.txt")
    failed(run(sysnode, "run", case, "--trace", trace), 1,
           "upload upload_00_00001000.bin at 0xfffffff000 (256 bytes) passes the end of DRAM (16777216 bytes")
    assert not os.path.exists(trace)
    edit_manifest(case, lambda m: m["uploads_before_round0"][0].update(addr=0x1000))
    edit_manifest(case, lambda m: m["expected_outputs_after_last_round"][0].update(addr=DRAM - 128))
    failed(run(sysnode, "run", case), 1, "expected output expected_output.bin at 0xffff80 (256 bytes) passes the end")
    assert peak_rss_mib() < 512, f"peak RSS {peak_rss_mib():.0f} MiB"


def check_region_refused_before_image():
    """A region past DRAM is refused when the manifest is read, before the
    image is read or anything reaches the SysNode: with an --image that is
    not an ELF at all, the region's error is the one given, naming the
    upload, and no trace is left."""
    case = copy_case()
    edit_manifest(case, lambda m: m["uploads_before_round0"][1].update(addr=DRAM - 128))
    not_elf = os.path.join(work, "not_an_elf.bin")
    open(not_elf, "wb").write(b"not an ELF file\n")
    trace = os.path.join(work, "trace.txt")
    out = failed(run(sysnode, "run", case, "--image", not_elf, "--trace", trace), 1,
                 "upload upload_01_00002000.bin at 0xffff80 (256 bytes) passes the end of DRAM (16777216 bytes")
    assert "ELF" not in out, out
    assert not os.path.exists(trace)


def check_sparse_upload_not_read():
    """A 1 GiB (sparse) upload is refused by its region before a byte of it
    is read: the peak memory stays far below the file's size."""
    case = copy_case()
    big = os.path.join(case, "big.bin")
    with open(big, "wb") as f:
        f.truncate(1 << 30)
    edit_manifest(case, lambda m: m["uploads_before_round0"].append(
        {"file": "big.bin", "addr": 0x100000, "nbytes": 1 << 30}))
    failed(run(sysnode, "run", case), 1, "upload big.bin at 0x100000 (1073741824 bytes) passes the end of DRAM")
    # An upload of the wrong size is refused by its size, unread.
    edit_manifest(case, lambda m: m["uploads_before_round0"][2].update(nbytes=4096))
    failed(run(sysnode, "run", case), 1, "big.bin: 1073741824 bytes, but", "says nbytes 4096")
    assert peak_rss_mib() < 512, f"peak RSS {peak_rss_mib():.0f} MiB for a 1 GiB file"


def check_fifo_inputs():
    """A FIFO as --image, --table, an upload or sysnode-sim's IMAGE or --load
    file is refused at once, not waited on."""
    fifo = os.path.join(work, "fifo")
    os.mkfifo(fifo)
    case = os.path.join(cases, "vadd128")
    failed(run(sysnode, "run", case, "--image", fifo, timeout=20), 1, "not a regular file")
    failed(run(sysnode, "run", case, "--table", fifo, timeout=20), 1, "not a regular file")
    failed(run(sysnode_sim, fifo, timeout=20), 2, "not a regular file")
    failed(run(sysnode_sim, runner, "--load", f"0x1000={fifo}", timeout=20), 2, "not a readable regular file")
    own = copy_case()
    os.remove(os.path.join(own, "upload_00_00001000.bin"))
    os.mkfifo(os.path.join(own, "upload_00_00001000.bin"))
    failed(run(sysnode, "run", own, timeout=20), 1, "not a regular file")


def check_sim_load_checked_before_read():
    """sysnode-sim --load checks that a file fits DRAM before reading it."""
    big = os.path.join(work, "big.bin")
    with open(big, "wb") as f:
        f.truncate(1 << 30)
    failed(run(sysnode_sim, runner, "--load", f"0x0={big}"), 2,
           f"{big} (1073741824 bytes) does not fit DRAM (16777216 bytes) at unit address 0x0")
    assert peak_rss_mib() < 512, f"peak RSS {peak_rss_mib():.0f} MiB for a 1 GiB file"


def check_symlink_out_of_case():
    """A case file that is a symlink out of the case directory is refused;
    one within it is followed."""
    case = copy_case()
    outside = os.path.join(work, "outside")
    os.makedirs(outside)
    for name in ("upload_00_00001000.bin", "artifact.json", "manifest.json"):
        shutil.move(os.path.join(case, name), os.path.join(outside, name))
        os.symlink(os.path.join(outside, name), os.path.join(case, name))
        failed(run(sysnode, "run", case), 1, f"{case}/{name}: resolves to", "outside the case directory")
        os.remove(os.path.join(case, name))
        shutil.move(os.path.join(outside, name), os.path.join(case, name))
    shutil.move(os.path.join(case, "artifact.json"), os.path.join(case, "round0.json"))
    os.symlink("round0.json", os.path.join(case, "artifact.json"))
    r = run(sysnode, "run", case)
    assert r.returncode == 0 and r.stdout.endswith(b": match\n"), r.stdout + r.stderr


def check_control_characters():
    """Names with ESC or a newline never reach the terminal raw: a manifest's
    are refused (by byte), a path's are escaped in every message."""
    forged = "\x1b[2J\nvadd128: 1 round, 26 flits, 26 completions, 33237 cycles, 256 output bytes: match"
    case = copy_case()
    edit_manifest(case, lambda m: m.update(name=forged))
    out = failed(run(sysnode, "run", case), 1, "\"name\" holds control character 0x1b at byte 0")
    edit_manifest(case, lambda m: m.update(name="vadd128"))
    edit_manifest(case, lambda m: m["artifacts_in_order"].__setitem__(0, "a\nb.json"))
    out += failed(run(sysnode, "dump", case), 1, "artifact 0 holds control character 0x0a at byte 1")
    bad_dir = os.path.join(work, forged.replace("/", "_"))
    for args in (["run", bad_dir], ["dump", bad_dir + ".bin"], ["pack", bad_dir + ".json", "-o", "x.bin"]):
        out += failed(run(sysnode, *args), 1, "\\x1b[2J")
    out += failed(run(sysnode_sim, bad_dir + ".elf"), 2, "\\x1b[2J")
    out += failed(run(sysnode_sim, runner, "--load", f"0x0={bad_dir}.bin"), 2, "\\x1b[2J")
    assert "\x1b" not in out, "a raw ESC reached the output"
    assert "\nvadd128:" not in out, "a forged verdict line starts a line"


def check_dump_json_utf8():
    """dump --json writes valid UTF-8 JSON whatever bytes a file name holds."""
    case = os.path.join(cases, "vadd128")
    name = os.path.join(work.encode(), b"round\xff\xc3(\xed\xa0\x80.json")
    shutil.copy(os.path.join(case, "artifact.json"), name)
    r = subprocess.run([sysnode.encode(), b"dump", name, b"--json"], capture_output=True)
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout.decode("utf-8"))  # strict: raises on invalid UTF-8
    # a byte outside valid UTF-8 is kept as the text \xHH (host/inputs/json_out.h)
    assert doc["source"].endswith("round\\xff\\xc3(\\xed\\xa0\\x80.json"), doc["source"]


def check_sim_usage():
    """Malformed sysnode-sim arguments exit 2 (usage)."""
    for args in (["--load", "0x1000"], ["--load", "zz=file"], ["--load", "0x1000="], ["--max-cycles", "ten"],
                 ["--max-cycles", "0"], ["--table", "0x10"], ["--bogus"]):
        failed(run(sysnode_sim, runner, *args), 2, "usage: sysnode-sim")


def check_max_cycles_decimal():
    """Numbers are decimal or 0x hex: --max-cycles "010000" is ten thousand,
    never octal (4096), for sysnode-sim and sysnode run."""
    embedded = os.path.join(os.path.dirname(runner), "runner-vadd128.elf")  # about 14 K cycles to run
    for tool, code in (([sysnode_sim, embedded], 124), ([sysnode, "run", os.path.join(cases, "vadd128")], 1)):
        r = run(*tool, "--max-cycles", "010000")
        out = failed(r, code, "stopped at the --max-cycles cap after ")
        cycles = int(out.split("cap after ")[1].split(" cycles")[0])
        assert 10000 <= cycles < 11000, f"--max-cycles 010000 stopped after {cycles} cycles: {out}"


CHECKS = {name[len("check_"):]: f for name, f in globals().items() if name.startswith("check_")}
CHECKS[check]()
print(f"PASS: {check}")
