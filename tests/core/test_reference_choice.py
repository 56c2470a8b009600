"""A reference first only by its name is said, with a system named like a baseline and how
to choose; tuibench.toml may set `reference`."""

from __future__ import annotations

import pytest

from tuibench.analysis.reference import chosen_by_name, named_like_baseline, reference_note
from tuibench.cli import main
from tuibench.ingest.load import load


@pytest.mark.parametrize(
    "name", ["5.8-vanilla", "base", "linux_base", "Baseline", "main", "v6.1-stock", "old", "ref"]
)
def test_baseline_names(name):
    assert named_like_baseline(name)


@pytest.mark.parametrize("name", ["5.8-patched", "rebase", "oldest", "mainline", "reference2x"])
def test_other_names(name):
    assert not named_like_baseline(name)


def test_natural_order_makes_patched_the_reference_and_says_so(kernels):
    rs = load([kernels])
    assert rs.system_names == ["5.8-patched", "5.8-vanilla"]
    assert rs.first_by_name and rs.default_reference == "5.8-patched"
    assert chosen_by_name(rs, "5.8-patched")
    assert not chosen_by_name(rs, "5.8-patched", requested="5.8-patched")
    assert not chosen_by_name(rs, "5.8-vanilla")
    note = reference_note(rs, "5.8-patched")
    assert note[0] == "Reference 5.8-patched: only because its name sorts first."
    assert note[1] == "5.8-vanilla is named like a baseline: --reference 5.8-vanilla."
    assert 'reference = "NAME" in tuibench.toml' in note[2]
    assert all(len(line) <= 78 for line in reference_note(rs, "5.8-patched", keys=True))


def test_tuibench_toml_sets_the_reference(kernels):
    (kernels / "tuibench.toml").write_text('reference = "5.8-vanilla"\n')
    rs = load([kernels])
    assert rs.default_reference == "5.8-vanilla" and not rs.first_by_name
    assert not rs.problems


@pytest.mark.parametrize(
    ("line", "said"),
    [
        ('reference = "5.9"\n', "reference '5.9' is not a system here (5.8-patched, 5.8-vanilla)"),
        ("reference = 3\n", "reference must be a system's name, not 3"),
    ],
)
def test_a_bad_reference_in_tuibench_toml_is_a_problem(kernels, line, said):
    (kernels / "tuibench.toml").write_text(line)
    rs = load([kernels])
    assert [p.reason for p in rs.problems] == [said]
    assert rs.problems[0].path.endswith("tuibench.toml")
    assert rs.default_reference == "5.8-patched" and rs.first_by_name


def test_system_toml_order_is_a_choice(kernels):
    (kernels / "5.8-vanilla" / "system.toml").write_text("order = 0\n")
    rs = load([kernels])
    assert rs.system_names[0] == "5.8-vanilla" and not rs.first_by_name


@pytest.mark.parametrize("fmt", ["text", "markdown", "latex", "html"])
def test_the_report_header_says_it(kernels, fmt, capsys):
    assert main(["report", str(kernels), "--format", fmt]) == 0
    out = capsys.readouterr().out
    assert "Reference 5.8-patched: only because its name sorts first." in out
    assert "5.8-vanilla is named like a baseline: --reference 5.8-vanilla." in out
    assert main(["report", str(kernels), "--format", fmt, "--reference", "5.8-patched"]) == 0
    assert "only because its name sorts first" not in capsys.readouterr().out


def test_the_report_follows_tuibench_toml(kernels, capsys):
    (kernels / "tuibench.toml").write_text('reference = "5.8-vanilla"\n')
    assert main(["report", str(kernels), "--format", "markdown"]) == 0
    out = capsys.readouterr().out
    assert "Comparison against 5.8-vanilla" in out and "sorts first" not in out
    assert "5.8-patched vs 5.8-vanilla: ▼1 worse" in out


def test_real_mmtests_runs(fixtures_dir, capsys):
    """mmtests runs as folders 5.8-vanilla/ and 5.8-patched/ (extract-mmtests.pl output)."""
    assert main(["report", str(fixtures_dir / "mmtests-real" / "json")]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Reference 5.8-patched: only because its name sorts first.\n")
    assert "5.8-vanilla is named like a baseline" in out
    # several runs in one file keep mmtests' -n order: a choice, nothing to say
    assert main(["report", str(fixtures_dir / "mmtests-real" / "runs" / "stream.json")]) == 0
    assert "sorts first" not in capsys.readouterr().out
