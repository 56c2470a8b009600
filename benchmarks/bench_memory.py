"""Peak memory and time of loading large or hostile inputs. Prints figures; asserts nothing.

    python benchmarks/bench_memory.py           # small sizes, a few minutes
    python benchmarks/bench_memory.py --full    # the sizes of the issue (needs ~25 GB free
                                                # disk in the temp folder, and time)

Each input is written in a temporary folder (never in the repository) and loaded by
`tuibench.ingest.load.load` in a child process, which reports its own peak resident memory
(`resource.getrusage`) and wall time. Cases:

- native CSV:        one tidy CSV file (full: 2 GB); it must load or fail with one problem.
- gbench JSON:       a Google Benchmark file (full: 500 MB); target: peak within ~3x its size.
- gzip JSON bomb:    a .json.gz that expands about 1000 times (full: 4 MB compressed).
- gzip text bomb:    go test output, gzipped and named .txt (full: 2.6 MB compressed).
The bombs must stop at the decompression ceiling with a problem naming the file.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
import zlib
from pathlib import Path

import numpy as np
import polars as pl

# Time the work itself, never a warm load cache (bench_cache.py times that).
os.environ.setdefault("TUIBENCH_NO_CACHE", "1")
# Children run as an installed tuibench does: from bytecode written once, not compiled anew.
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)

CHILD = r"""
import json, resource, sys, time
t0 = time.perf_counter()
from tuibench.ingest.load import load
t = time.perf_counter()
rs = load([sys.argv[1]]) if sys.argv[1] != "-" else None
out = {
    "seconds": time.perf_counter() - t,
    "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    "samples": rs.samples.height if rs else 0,
    "problems": [str(p) for p in rs.problems[:2]] if rs else [],
}
print(json.dumps(out))
"""

MB = 2**20


def native_csv(path: Path, size: int) -> None:
    """Tidy rows until the file has `size` bytes: blocks of 50 samples per benchmark, metric
    and iteration, 500 benchmarks x 4 metrics per iteration, as a benchmark harness writes."""
    rng = np.random.default_rng(0)
    n = 1_000_000  # 10 iterations per block
    i = np.arange(n)
    bench = (i // 200) % 500
    metric = pl.Series((i // 50) % 4).replace_strict(
        {0: "time", 1: "latency", 2: "tput", 3: "cpu"}, return_dtype=pl.String
    )
    names = "suite/bench-" + pl.Series(bench).cast(pl.String)
    with open(path, "wb") as fh:
        fh.write(b"benchmark,metric,iteration,value,unit\n")
        block = 0
        while fh.tell() < size:
            df = pl.DataFrame(
                {
                    "benchmark": names,
                    "metric": metric,
                    "iteration": i // 100_000 + 10 * block,
                    "value": np.round(100 + bench + rng.normal(0, 1, n), 4),
                    "unit": "ms",
                }
            )
            df.write_csv(fh, include_header=False)
            block += 1


def _gbench_entry(i: int, rep: int) -> str:
    return json.dumps(
        {
            "name": f"BM_Codec/encode/{i}/repeats:{rep}",
            "family_index": i,
            "per_family_instance_index": 0,
            "run_name": f"BM_Codec/encode/{i}",
            "run_type": "iteration",
            "repetitions": 10,
            "repetition_index": rep,
            "threads": 1,
            "iterations": 1000 + i,
            "real_time": 1234.5 + i + rep / 7,
            "cpu_time": 1230.25 + i + rep / 9,
            "time_unit": "ns",
            "bytes_per_second": 8.5e8 + i,
        },
        indent=2,
    )


CONTEXT = {
    "date": "2026-11-23T10:00:00+00:00",
    "host_name": "bench",
    "executable": "./codec_bench",
    "num_cpus": 2,
    "mhz_per_cpu": 3000,
    "library_build_type": "release",
}


def gbench_json(path: Path, size: int) -> None:
    with open(path, "w") as fh:
        fh.write('{\n  "context": ' + json.dumps(CONTEXT) + ',\n  "benchmarks": [\n')
        i = 0
        while fh.tell() < size:
            fh.write(",\n".join(_gbench_entry(i, rep) for rep in range(10)))
            i += 1
            fh.write(",\n" if fh.tell() < size else "\n")
        fh.write("  ]\n}\n")


def gzip_bomb(path: Path, compressed: int, head: bytes, block: bytes, tail: bytes) -> None:
    """A gzip file of about `compressed` bytes: `head`, then `block` repeated, then `tail`."""
    z = zlib.compressobj(9, zlib.DEFLATED, 31)
    chunk = block * max(1, (4 * MB) // len(block))
    with open(path, "wb") as fh:
        fh.write(z.compress(head))
        while fh.tell() < compressed:
            fh.write(z.compress(chunk))
        fh.write(z.compress(tail) + z.flush())


def run(path: Path | str) -> dict:
    out = subprocess.run(
        [sys.executable, "-c", CHILD, str(path)], capture_output=True, text=True, check=False
    )
    if out.returncode:
        tail = (out.stderr.strip().splitlines() or ["(no message)"])[-1]
        return {"failed": f"exit {out.returncode}: {tail}"}
    return json.loads(out.stdout)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--csv-mb", type=float, default=200)
    ap.add_argument("--gbench-mb", type=float, default=50)
    ap.add_argument("--json-bomb-mb", type=float, default=0.4, help="compressed size")
    ap.add_argument("--text-bomb-mb", type=float, default=0.26, help="compressed size")
    ap.add_argument("--full", action="store_true", help="2 GB CSV, 500 MB JSON, 4/2.6 MB bombs")
    ap.add_argument("--only", help="comma-separated: csv,gbench,json-bomb,text-bomb")
    args = ap.parse_args()
    if args.full:
        args.csv_mb, args.gbench_mb, args.json_bomb_mb, args.text_bomb_mb = 2048, 500, 4, 2.6
    only = set(args.only.split(",")) if args.only else {"csv", "gbench", "json-bomb", "text-bomb"}
    base = run("-")
    print(f"python + imports: {base['peak_mb']:.0f} MiB peak")
    print(f"{'case':<16} {'input':>12} {'peak':>10} {'time':>8}  result")
    with tempfile.TemporaryDirectory(prefix="tuibench-bench-memory-") as tmp:
        root = Path(tmp)
        cases = []
        if "csv" in only:
            cases.append(
                ("native CSV", root / "big.csv", lambda p: native_csv(p, args.csv_mb * MB))
            )
        if "gbench" in only:
            cases.append(
                ("gbench JSON", root / "big.json", lambda p: gbench_json(p, args.gbench_mb * MB))
            )
        if "json-bomb" in only:
            head = b'{"context": {}, "benchmarks": ['
            entry = _gbench_entry(1, 0).encode() + b",\n"
            cases.append(
                (
                    "gzip JSON bomb",
                    root / "bomb.json.gz",
                    lambda p: gzip_bomb(p, args.json_bomb_mb * MB, head, entry, b"{}]}"),
                )
            )
        if "text-bomb" in only:
            line = b"BenchmarkEncode/size=1k-8   \t 1000000\t      1234 ns/op\t  512 B/op\n"
            cases.append(
                (
                    "gzip text bomb",
                    root / "go-bench.txt",
                    lambda p: gzip_bomb(p, args.text_bomb_mb * MB, b"pkg: codec\n", line, b""),
                )
            )
        for name, path, make in cases:
            t = time.perf_counter()
            make(path)
            size = os.path.getsize(path)
            made = time.perf_counter() - t
            r = run(path)
            if "failed" in r:
                print(f"{name:<16} {size / MB:>9.1f} MiB {'-':>10} {'-':>8}  {r['failed']}")
            else:
                what = f"{r['samples']:,} samples"
                if r["problems"]:
                    what += "; problem: " + r["problems"][0]
                ratio = f" ({r['peak_mb'] * MB / size:.1f}x input)" if size > 10 * MB else ""
                print(
                    f"{name:<16} {size / MB:>9.1f} MiB {r['peak_mb']:>7.0f} MiB "
                    f"{r['seconds']:>7.1f}s  {what}{ratio}"
                )
            print(f"{'':<16} (written in {made:.0f} s)")
            path.unlink()


if __name__ == "__main__":
    main()
