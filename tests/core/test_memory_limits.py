"""The memory check honours the process's limits: `ulimit -v` (RLIMIT_AS) and the control
group's memory.max, not only the machine's free memory."""

from __future__ import annotations

import json
import resource
import subprocess
import sys

from tuibench.util import memory_limits

PROBE = (
    "import json, polars, numpy; from tuibench.util import memory_limits as m; "
    "print(json.dumps([m.address_space_left(), m._kib_field(m.PROC / 'self' / 'status', "
    "'VmSize:')]))"
)


def _fake_proc(tmp_path, cgroup: str, status: str = "VmSize:\t1000 kB\nVmData:\t500 kB\n"):
    proc = tmp_path / "proc"
    (proc / "self").mkdir(parents=True)
    (proc / "self" / "cgroup").write_text(cgroup)
    (proc / "self" / "status").write_text(status)
    (proc / "meminfo").write_text("MemTotal: 99999999 kB\nMemAvailable:   8000000 kB\n")
    return proc


def test_cgroup_v2_limit_and_its_parents(tmp_path, monkeypatch):
    root = tmp_path / "cgroup"
    leaf = root / "user.slice" / "job"
    leaf.mkdir(parents=True)
    (leaf / "memory.max").write_text("max\n")  # no limit of its own
    (leaf / "memory.current").write_text("100\n")
    (root / "user.slice" / "memory.max").write_text(f"{3 * 2**30}\n")
    (root / "user.slice" / "memory.current").write_text(f"{2**30}\n")
    monkeypatch.setattr(memory_limits, "PROC", _fake_proc(tmp_path, "0::/user.slice/job\n"))
    monkeypatch.setattr(memory_limits, "CGROUP_ROOT", root)
    assert memory_limits.cgroup_left() == 2 * 2**30
    assert memory_limits.machine_available() == 8000000 * 1024
    assert memory_limits.available_memory() == 2 * 2**30  # the least of the two


def test_cgroup_v1_limit_and_no_limit(tmp_path, monkeypatch):
    root = tmp_path / "cgroup"
    leaf = root / "memory" / "docker" / "abc"
    leaf.mkdir(parents=True)
    (leaf / "memory.limit_in_bytes").write_text("1073741824\n")
    (leaf / "memory.usage_in_bytes").write_text("73741824\n")
    (root / "memory" / "memory.limit_in_bytes").write_text("9223372036854771712\n")  # none
    proc = _fake_proc(tmp_path, "4:memory:/docker/abc\n3:cpu:/docker/abc\n0::/\n")
    monkeypatch.setattr(memory_limits, "PROC", proc)
    monkeypatch.setattr(memory_limits, "CGROUP_ROOT", root)
    assert memory_limits.cgroup_left() == 1_000_000_000
    (leaf / "memory.limit_in_bytes").write_text("9223372036854771712\n")
    assert memory_limits.cgroup_left() is None


def test_no_limits_known(tmp_path, monkeypatch):
    monkeypatch.setattr(memory_limits, "PROC", tmp_path / "nothing")
    assert memory_limits.available_memory() is None
    assert memory_limits.too_large(2**60) is None  # unknown: try


def _limited(soft: int):
    def set_limit():
        resource.setrlimit(resource.RLIMIT_AS, (soft, resource.RLIM_INFINITY))

    return set_limit


def test_address_space_left_under_ulimit_v():
    base = json.loads(subprocess.check_output([sys.executable, "-c", PROBE]))
    assert base[0] is None  # no limit here
    limit = base[1] + 2**30
    left, size = json.loads(
        subprocess.check_output([sys.executable, "-c", PROBE], preexec_fn=_limited(limit))
    )
    assert left == limit - size and 0 < left < 2**30 + 2**28


def test_a_csv_beyond_ulimit_v_is_a_problem_not_an_abort(tmp_path):
    """Under an address-space limit polars aborts the process (SIGABRT) when an allocation
    fails: the file must be refused before."""
    base = json.loads(subprocess.check_output([sys.executable, "-c", PROBE]))[1]
    for s in ("a", "b"):
        (tmp_path / s).mkdir()
        (tmp_path / s / "small.csv").write_text("benchmark,metric,value\nx,t,1\nx,t,2\n")
    rows = "".join(f"b{i % 997},m,{i}\n" for i in range(200_000))
    big = tmp_path / "b" / "big.csv"
    with open(big, "w") as fh:
        fh.write("benchmark,metric,value\n")
        for _ in range(12):  # about 30 MB: 30 x 8 x 2 MB + 1 GB of address space
            fh.write(rows)
    code = "import sys; from tuibench.cli import main; sys.exit(main(sys.argv[1:]))"
    run = subprocess.run(
        [sys.executable, "-c", code, "report", str(tmp_path), "--format", "json"],
        capture_output=True,
        text=True,
        preexec_fn=_limited(base + 2**30),  # 1 GB beyond what the imports take: it aborted
    )
    assert run.returncode == 0, run.stderr[-500:]
    assert f"problem: {big}: too large to load here" in run.stderr
    assert "of address space (ulimit -v)" in run.stderr
    assert json.loads(run.stdout)["rows"]
    big.write_text("benchmark,metric,value\n" + rows)  # 2.5 MB: read with 1.5 GB of room
    run = subprocess.run(
        run.args, capture_output=True, text=True, preexec_fn=_limited(base + 3 * 2**29)
    )
    assert run.returncode == 0 and "too large" not in run.stderr, run.stderr[-500:]


def _gbench(path, n: int) -> None:
    entry = {"name": "BM_x", "run_type": "iteration", "iterations": 1, "real_time": 1.0}
    entry["time_unit"] = "ns"
    path.write_text(json.dumps({"context": {}, "benchmarks": [entry] * n}))


def test_json_beyond_the_memory_left_is_a_problem(tmp_path, monkeypatch):
    from tuibench.ingest.formats import JSON_MEMORY_PER_BYTE
    from tuibench.ingest.load import load

    (tmp_path / "a").mkdir()
    _gbench(tmp_path / "a" / "g.json", 2000)
    size = (tmp_path / "a" / "g.json").stat().st_size
    monkeypatch.setattr(memory_limits, "address_space_left", lambda: None)
    monkeypatch.setattr(memory_limits, "available_memory", lambda: size * JSON_MEMORY_PER_BYTE - 1)
    [problem] = load([str(tmp_path / "a")]).problems
    assert problem.reason.startswith("too large to load here: it would need about 0.0 GiB of mem")
    assert problem.reason.endswith("(split it, or load it on a larger machine)")
    monkeypatch.setattr(memory_limits, "available_memory", lambda: size * JSON_MEMORY_PER_BYTE)
    assert load([str(tmp_path / "a")]).samples.height == 2000


def test_running_out_of_memory_in_a_reader_is_a_problem(tmp_path, monkeypatch):
    from tuibench.ingest.formats.json_readers import gbench
    from tuibench.ingest.load import load

    (tmp_path / "a").mkdir()
    _gbench(tmp_path / "a" / "g.json", 3)
    (tmp_path / "a" / "ok.csv").write_text("benchmark,metric,value\nx,t,1\n")

    def no_memory(*_args):
        raise MemoryError

    monkeypatch.setattr(gbench, "read_json", no_memory)
    rs = load([str(tmp_path / "a")])
    assert [p.reason for p in rs.problems] == [
        "not enough memory to read it (too large for this machine)"
    ]
    assert rs.samples.height == 1
