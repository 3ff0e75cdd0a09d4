#!/usr/bin/env python3
"""outputs.py SYSNODE SYSNODE_SIM CASES_DIR RUNNER_ELF WORKDIR CHECK

The rule for every file the CLI writes (docs/user-guide.md "Output files"): a temporary
in the target's folder, every write checked, renamed over the target only
when whole; an old file survives any failure, refusal or signal; an output
that is one of the command's inputs is refused; a failed write to stdout
fails the command. CHECK picks one of the checks below; WORKDIR is its own
scratch folder (emptied first)."""
import os, resource, shutil, signal, subprocess, sys, time

sysnode, sysnode_sim, cases, runner, work, check = sys.argv[1:7]
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
OLD = b"an old file the user keeps\n"


def run(*args, **kw):
    return subprocess.run([str(a) for a in args], capture_output=True, **kw)


def copy_case(name="vadd128"):
    dst = os.path.join(work, name)
    shutil.copytree(os.path.join(cases, name), dst)
    return dst


def leftovers(folder):
    return [f for f in os.listdir(folder) if ".tmp." in f]


def refused(r, what):
    out = (r.stdout + r.stderr).decode(errors="replace")
    assert r.returncode == 1, f"{what}: exit {r.returncode}, want 1: {out}"
    return out


def check_output_is_input():
    """--trace, pack -o, header -o naming any input are refused before
    anything is opened: the input's bytes stay."""
    case = copy_case()
    image = os.path.join(work, "runner.elf")
    shutil.copy(runner, image)
    table = os.path.join(work, "table.bin")
    assert run(sysnode, "pack", case, "-o", table).returncode == 0
    targets = ["expected_output.bin", "manifest.json", "artifact.json", "upload_00_00001000.bin"]
    for name in targets:
        path = os.path.join(case, name)
        before = open(path, "rb").read()
        for args in (["run", case, "--trace", path], ["pack", case, "-o", path], ["header", case, "-o", path]):
            out = refused(run(sysnode, *args), " ".join(args))
            assert f"{path} is the input" in out, out
            assert open(path, "rb").read() == before, f"{' '.join(args)} changed {name}"
    for flag, path in (("--image", image), ("--table", table)):
        before = open(path, "rb").read()
        out = refused(run(sysnode, "run", case, flag, path, "--trace", path), flag)
        assert f"{path} is the input {path}" in out, out
        assert open(path, "rb").read() == before, f"--trace over the {flag} file changed it"
    art = os.path.join(case, "artifact.json")
    before = open(art, "rb").read()
    refused(run(sysnode, "pack", art, "-o", art), "pack ARTIFACT -o ARTIFACT")
    assert open(art, "rb").read() == before
    assert not leftovers(case) and not leftovers(work)


def check_trace_write_fails_after_wait():
    """A trace that cannot be written whole (here: the file size limit hits
    after the wait line) fails the run, and the old trace stays."""
    case = os.path.join(cases, "vadd128")
    good = os.path.join(work, "good.txt")
    assert run(sysnode, "run", case, "--trace", good).returncode == 0
    text = open(good, "rb").read()
    limit = text.index(b"\nwait ") + 1
    limit = text.index(b"\n", limit) + 1 + 8  # 8 bytes into the first read after the wait
    assert limit < len(text)
    trace = os.path.join(work, "trace.txt")
    open(trace, "wb").write(OLD)

    def cap():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    r = run(sysnode, "run", case, "--trace", trace, preexec_fn=cap)
    out = refused(r, "run with a trace cut after its wait")
    assert f"{trace}: write failed" in out, out
    assert open(trace, "rb").read() == OLD, "the old trace was replaced by a cut one"
    assert not leftovers(work), leftovers(work)


def check_refused_run_keeps_old_trace():
    """A run refused before it starts writes no trace and keeps the old one."""
    case = copy_case()
    os.remove(os.path.join(case, "upload_01_00002000.bin"))
    trace = os.path.join(work, "trace.txt")
    open(trace, "wb").write(OLD)
    out = refused(run(sysnode, "run", case, "--trace", trace), "run of a case missing an upload")
    assert "upload_01_00002000.bin: cannot open" in out, out
    assert open(trace, "rb").read() == OLD, "a refused run emptied the trace"
    assert not leftovers(work)


def check_signal_removes_temporary():
    """SIGINT and SIGTERM during a traced run: the process dies of the
    signal, its temporary is gone and the old trace stays."""
    case = os.path.join(cases, "matmul_512x256x512")
    trace = os.path.join(work, "trace.txt")
    for sig in (signal.SIGINT, signal.SIGTERM):
        open(trace, "wb").write(OLD)
        p = subprocess.Popen([sysnode, "run", case, "--trace", trace], stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL)
        while not leftovers(work) and p.poll() is None:
            time.sleep(0.01)
        assert p.poll() is None, "the run wrote no temporary beside the trace"
        p.send_signal(sig)
        rc = p.wait()
        assert rc == -sig, f"exit {rc} after signal {sig}"
        assert not leftovers(work), f"{leftovers(work)} left after signal {sig}"
        assert open(trace, "rb").read() == OLD, f"signal {sig} left a changed trace"


def check_signal_during_pack_and_header():
    """SIGINT and SIGTERM while pack -o or header -o holds its whole
    temporary (raised at its fsync, before the rename, by the
    signal shim named in SN_SIGNAL_SHIM): the process dies of the signal,
    no *.tmp.PID.N is left and the old file stays."""
    case = os.path.join(cases, "vadd128")
    for sig in (signal.SIGINT, signal.SIGTERM):
        for cmd, name in (("pack", "table.bin"), ("header", "table.h")):
            out = os.path.join(work, name)
            open(out, "wb").write(OLD)
            env = dict(os.environ, LD_PRELOAD=os.environ["SN_SIGNAL_SHIM"], SN_SIGNAL_AT=f"fsync:{int(sig)}")
            r = run(sysnode, cmd, case, "-o", out, env=env)
            assert r.returncode == -sig, f"{cmd}: exit {r.returncode} after signal {sig}: {r.stderr}"
            assert not leftovers(work), f"{cmd}: {leftovers(work)} left after signal {sig}"
            assert open(out, "rb").read() == OLD, f"{cmd}: signal {sig} changed {name}"


def check_signal_on_another_thread():
    """A signal sent to the process right after run --trace creates its
    temporary (the signal shim, tmp_open): the writer holds the signal, so
    another thread of the run takes it. The process dies of the signal, no
    *.tmp.PID.N is left and the old trace stays."""
    case = os.path.join(cases, "vadd128")
    trace = os.path.join(work, "trace.txt")
    for sig in (signal.SIGINT, signal.SIGTERM):
        open(trace, "wb").write(OLD)
        env = dict(os.environ, LD_PRELOAD=os.environ["SN_SIGNAL_SHIM"], SN_SIGNAL_AT=f"tmp_open:{int(sig)}")
        r = run(sysnode, "run", case, "--trace", trace, env=env)
        assert r.returncode == -sig, f"run --trace: exit {r.returncode} after signal {sig}: {r.stderr}"
        assert not leftovers(work), f"run --trace: {leftovers(work)} left after signal {sig}"
        assert open(trace, "rb").read() == OLD, f"run --trace: signal {sig} changed the trace"


def check_signal_stops_run_with_trace():
    """run --fst --report --trace with a signal sent right after the trace's
    temporary is created (the signal shim, tmp_open): the run's own stop
    keeps the signal (the output rule's handler, which opening the trace
    installs, does not replace it), so the simulation stops, the dump is
    closed and renamed, the report says exit_code 128+signal and the process
    exits with it; nothing is left beside the outputs (before: the process
    died of the signal, leaving the dump's .partial files and no report)."""
    import json
    case = os.path.join(cases, "vadd128")
    for sig in (signal.SIGINT, signal.SIGTERM):
        names = {"fst": os.path.join(work, "mesh.fst"), "trace": os.path.join(work, "trace.txt"),
                 "report": os.path.join(work, "report.json")}
        env = dict(os.environ, LD_PRELOAD=os.environ["SN_SIGNAL_SHIM"], SN_SIGNAL_AT=f"tmp_open:{int(sig)}")
        r = run(sysnode, "run", case, *[a for k, v in names.items() for a in (f"--{k}", v)], env=env)
        assert r.returncode == 128 + sig, f"exit {r.returncode} after signal {sig}: {r.stderr}"
        left = [f for f in os.listdir(work) if ".tmp." in f or ".partial" in f]
        assert not left, f"{left} left after signal {sig}"
        assert os.path.exists(names["fst"]), f"signal {sig}: the dump was not closed and renamed"
        report = json.load(open(names["report"]))
        assert report["exit_code"] == 128 + sig and report["verdict"] == "error", report
        for path in names.values():
            os.unlink(path)


def check_ignored_signal_stays_ignored():
    """A command started with SIGINT or SIGTERM ignored (a script's
    background job) keeps ignoring it: pack -o with the signal raised at its
    fsync writes the table, and run --trace --report with the signal sent
    right after a temporary is created ends in its verdict (before: the
    output rule's and the run's handlers replaced the inherited SIG_IGN, and
    the command died of the signal)."""
    case = os.path.join(cases, "vadd128")
    table, trace, report = (os.path.join(work, n) for n in ("table.bin", "trace.txt", "report.json"))
    assert run(sysnode, "pack", case, "-o", table).returncode == 0
    want = open(table, "rb").read()
    for sig in (signal.SIGINT, signal.SIGTERM):
        def ignore(s=sig):
            signal.signal(s, signal.SIG_IGN)
        open(table, "wb").write(OLD)
        env = dict(os.environ, LD_PRELOAD=os.environ["SN_SIGNAL_SHIM"], SN_SIGNAL_AT=f"fsync:{int(sig)}")
        r = run(sysnode, "pack", case, "-o", table, env=env, preexec_fn=ignore)
        assert r.returncode == 0 and open(table, "rb").read() == want, f"pack, signal {sig} ignored: exit " \
            f"{r.returncode}: {r.stderr}"
        env["SN_SIGNAL_AT"] = f"tmp_open:{int(sig)}"
        r = run(sysnode, "run", case, "--trace", trace, "--report", report, env=env, preexec_fn=ignore)
        assert r.returncode == 0 and r.stdout.endswith(b": match\n"), f"run, signal {sig} ignored: exit " \
            f"{r.returncode}: {r.stdout} {r.stderr}"
        assert os.path.exists(trace) and os.path.exists(report)
        assert not leftovers(work), f"{leftovers(work)} left, signal {sig} ignored"


def check_stdout_full():
    """dump, dump --json, run and sysnode-sim into a full device fail."""
    case = os.path.join(cases, "vadd128")
    table = os.path.join(work, "table.bin")
    assert run(sysnode, "pack", case, "-o", table).returncode == 0
    for args in ([sysnode, "dump", table], [sysnode, "dump", table, "--json"], [sysnode, "dump", case],
                 [sysnode, "run", case], [sysnode, "pack", case, "-o", table]):
        with open("/dev/full", "w") as full:
            r = subprocess.run(args, stdout=full, stderr=subprocess.PIPE)
        assert r.returncode == 1, f"{args[1:]} into /dev/full: exit {r.returncode}"
        assert b"writing to standard output failed: No space left on device" in r.stderr, r.stderr
    with open("/dev/full", "w") as full:
        r = subprocess.run([sysnode_sim, runner, "--table", f"0x10000={table}", "--load",
                            f"0x1000={case}/upload_00_00001000.bin", "--load", f"0x2000={case}/upload_01_00002000.bin"],
                           stdout=full, stderr=subprocess.PIPE)
    assert r.returncode == 1 and b"writing to standard output failed" in r.stderr, (r.returncode, r.stderr)


CHECKS = {name[len("check_"):]: f for name, f in globals().items() if name.startswith("check_")}
CHECKS[check]()
print(f"PASS: {check}")
