"""A generator of hostile result folders: names, values and layouts a careless or malicious
producer could write. Used by test_hostile_corpus.py; each strategy gives the files of one
results folder as {relative path: bytes}.
"""

from __future__ import annotations

import csv
import io
import json
import unicodedata
from pathlib import Path

from hypothesis import strategies as st

# Characters that have broken names before: terminal controls, line and paragraph
# separators, bidirectional overrides, format characters (Cf: zero-width space and joiner,
# word joiner, BOM, soft hyphen, a tag character) and invisible fillers.
NASTY = list(
    "\x1b\x07\r\n\t\x00\x85\u2028\u2029\u202e\u2066\u200b\u200d\u2060\ufeff\u00ad\U000e0041"
    "\u3164\u115f\u00a0\u3000 ,;:\"'`\\*?[]{}<>|=+-@%/"
)
SPECIAL_NAMES = [
    "café",
    unicodedata.normalize("NFD", "café"),
    "base",
    "base\u200b",
    "x" * 300,
    "",
    " ",
    "=cmd|' /C calc'!A0",
    "iter-1",
    "𝔘𝔫𝔦𝔠𝔬𝔡𝔢",
]
UNITS = ["", "ms", "us", "µs", "s", "ns", "min", "furlong", "MB/s", "B", "KiB", "GiB", "tx/s"]
SPECIAL_VALUES = [
    "NaN", "nan", "inf", "-inf", "Infinity", "1e308", "-1e308", "1e309", "5e-324", "1e-300",
    "0", "-0", "-1", "9223372036854775808", "1" + "0" * 400, "", " ", "abc", "1e", "0x10",
    "1,5", "١٢٣",
]  # fmt: skip

text_names = st.one_of(
    st.sampled_from(SPECIAL_NAMES),
    st.text(
        st.one_of(
            st.characters(categories=("L", "N")),
            st.sampled_from(NASTY),
            st.characters(categories=("Cc", "Cf", "Zs", "Mn", "Co")),
        ),
        max_size=24,
    ),
)


def _fits_a_path(name: str) -> bool:
    """A name the file system takes as one component (and discovery does not skip)."""
    return (
        bool(name)
        and "/" not in name
        and "\x00" not in name
        and not name.startswith(".")
        and len(name.encode()) <= 120
    )


path_names = text_names.map(lambda s: s[:60]).filter(_fits_a_path)

numbers = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True).map(repr),
    st.integers(-(10**25), 10**25).map(str),
    st.sampled_from(SPECIAL_VALUES),
    st.floats(1e-3, 1e3).map(repr),  # ordinary values, so that something compares
)


@st.composite
def native_csv(draw) -> bytes:
    columns = ["benchmark", "metric", "value"]
    columns += draw(
        st.lists(st.sampled_from(["iteration", "sample", "unit", "better"]), unique=True)
    )
    if draw(st.booleans()):
        columns = draw(st.permutations(columns))
    if draw(st.integers(0, 9)) == 0:
        columns.remove(draw(st.sampled_from(columns)))  # a required column missing
    rows = []
    for _ in range(draw(st.integers(0, 12))):
        row = {
            "benchmark": draw(text_names),
            "metric": draw(st.sampled_from(["t", "time", draw(text_names)])),
            "value": draw(numbers),
            "iteration": draw(st.one_of(st.integers(-3, 3).map(str), numbers)),
            "sample": draw(st.one_of(st.integers(0, 3).map(str), numbers)),
            "unit": draw(st.sampled_from(UNITS)),
            "better": draw(st.sampled_from(["lower", "higher", "", "LOWER", "sideways"])),
        }
        rows.append([row[c] for c in columns])
    out = io.StringIO()
    sep = draw(st.sampled_from([",", "\t"]))
    writer = csv.writer(out, delimiter=sep, lineterminator=draw(st.sampled_from(["\n", "\r\n"])))
    writer.writerow(columns)
    writer.writerows(rows)
    return out.getvalue().encode("utf-8", "surrogatepass")


def _nested(depth: int) -> str:
    return "[" * depth + "]" * depth


@st.composite
def json_lines(draw) -> bytes:
    lines = []
    for _ in range(draw(st.integers(1, 8))):
        kind = draw(st.integers(0, 5))
        if kind == 0:
            lines.append('{"benchmark":' + _nested(draw(st.integers(1, 3000))) + ',"metric":"t"}')
        elif kind == 1:
            lines.append(draw(st.sampled_from(["[1,2]", "42", "null", "{", "", '"x"'])))
        else:
            record = {
                "benchmark": draw(text_names),
                "metric": "t",
                "value": draw(st.one_of(numbers, st.sampled_from([[1], {"a": 1}, True, None]))),
                "iteration": draw(st.one_of(st.integers(0, 3), st.sampled_from(["1", 1.5, None]))),
            }
            lines.append(json.dumps(record, allow_nan=True))
    if not lines[0].startswith("{"):
        lines.insert(0, json.dumps({"benchmark": "b", "metric": "t", "value": 1}))
    return ("\n".join(lines) + "\n").encode("utf-8", "surrogatepass")


@st.composite
def gbench_json(draw) -> bytes:
    entries = []
    for _ in range(draw(st.integers(0, 6))):
        entries.append(
            {
                "name": draw(text_names),
                "run_type": draw(st.sampled_from(["iteration", "aggregate", "other", 3])),
                "iterations": draw(st.sampled_from([1, 0, -1, 10**30, "x"])),
                "real_time": draw(st.one_of(numbers.map(_as_json_number), st.just("fast"))),
                "cpu_time": draw(numbers.map(_as_json_number)),
                "time_unit": draw(st.sampled_from(["ns", "us", "ms", "s", "parsec", None])),
            }
        )
    doc = {"context": {"date": "x", "num_cpus": 2}, "benchmarks": entries}
    return json.dumps(doc, allow_nan=True).encode("utf-8", "surrogatepass")


@st.composite
def hyperfine_json(draw) -> bytes:
    results = []
    for _ in range(draw(st.integers(0, 4))):
        times = draw(st.lists(numbers.map(_as_json_number), max_size=6))
        results.append(
            {
                "command": draw(text_names),
                "times": times,
                "exit_codes": draw(st.sampled_from([[0] * len(times), [1] * len(times), None])),
            }
        )
    return json.dumps({"results": results}, allow_nan=True).encode("utf-8", "surrogatepass")


def _as_json_number(text: str) -> object:
    try:
        return float(text) if any(c in text for c in ".eEnN") else int(text)
    except ValueError:
        return text


@st.composite
def go_text(draw) -> bytes:
    lines = ["goos: linux", "pkg: example.com/x"]
    for _ in range(draw(st.integers(0, 6))):
        name = draw(text_names).replace("\n", "")
        lines.append(f"Benchmark{name}-8 \t {draw(numbers)} \t {draw(numbers)} ns/op")
    return ("\n".join(lines) + "\n").encode("utf-8", "surrogatepass")


other_files = st.sampled_from(
    [b"", b"   \n\n", b"\x00\x01\x02binary\xff\xfe", b"PAR1garbage", b"\xef\xbb\xbf", b"{", b"["]
)

file_contents = st.one_of(
    native_csv().map(lambda b: ("csv", b)),
    json_lines().map(lambda b: ("jsonl", b)),
    gbench_json().map(lambda b: ("json", b)),
    hyperfine_json().map(lambda b: ("json", b)),
    go_text().map(lambda b: ("txt", b)),
    other_files.map(lambda b: (draw_free_ext(b), b)),
)


def draw_free_ext(content: bytes) -> str:
    return "csv" if content[:1] == b"\x00" else "json" if content[:1] in b"{[" else "txt"


toml_texts = st.one_of(
    st.sampled_from(
        [
            'description = "x"\ntags = ["a"]\norder = 1\n',
            "order = 'first'\n",
            "x = " + _nested(600) + "\n",
            "x = " + "{a=" * 600 + "1" + "}" * 600 + "\n",
            "[metrics.\"*\"]\nbetter = 'sideways'\n",
            "= broken",
        ]
    ),
    st.text(max_size=40),
)


@st.composite
def results_folder(draw) -> dict[str, bytes]:
    """{relative path: content}: one to four systems, each with files at any depth, under
    iter-N folders or not (duplicates included), and sometimes a system.toml."""
    files: dict[str, bytes] = {}
    systems = draw(st.lists(path_names, min_size=1, max_size=4, unique_by=_folded))
    for system in systems:
        for k in range(draw(st.integers(1, 4))):
            parts = [system]
            if draw(st.booleans()):
                n = draw(st.sampled_from(["0", "1", "1", "01", "-1", "99999999999999999999"]))
                parts.append(f"iter-{n}")
            parts += draw(st.lists(path_names, max_size=2, unique_by=_folded))
            ext, content = draw(file_contents)
            stem = draw(st.one_of(st.just(f"r{k}"), path_names))
            files["/".join([*parts, f"{stem}.{ext}"])] = content
        if draw(st.integers(0, 4)) == 0:
            files[f"{system}/system.toml"] = draw(toml_texts).encode("utf-8", "surrogatepass")
    if draw(st.integers(0, 5)) == 0:
        files["tuibench.toml"] = draw(toml_texts).encode("utf-8", "surrogatepass")
    return _without_clashes(files)


def _folded(name: str) -> str:
    """Names a case-insensitive or normalising file system would take for one."""
    return unicodedata.normalize("NFC", name).casefold()


def _without_clashes(files: dict[str, bytes]) -> dict[str, bytes]:
    """Drop files whose path runs through another file (a file where a folder must be)."""
    paths = sorted(files)
    keep = {}
    for p in paths:
        parents = {"/".join(p.split("/")[:i]) for i in range(1, p.count("/") + 1)}
        if not parents & set(keep):
            keep[p] = files[p]
    return keep


def write(root: Path, files: dict[str, bytes]) -> list[Path]:
    """Write the folder; return the result files written (not the TOML settings)."""
    written = []
    for rel, content in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content)
        if not rel.endswith(".toml"):
            written.append(path)
    return written
