"""Write tests/data/tui/kernels/: what the answer must warn about, for its snapshots.

    python tests/tui/make_kernels_fixture.py

Runs named as mmtests names them, `5.8-vanilla/` and `5.8-patched/`: natural order makes
5.8-patched the reference, and the first screen must say so. Beside 20 unchanged metrics:
a throughput judged lower-is-better, a change on two iterations, one that per-iteration
medians do not confirm, and one of unknown direction (`write_warned` in tests/conftest.py;
seeded, values rounded to 6 decimals).
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]
ROOT = TESTS / "data" / "tui" / "kernels"

if __name__ == "__main__":
    sys.path.insert(0, str(TESTS))
    from conftest import write_warned

    shutil.rmtree(ROOT, ignore_errors=True)
    ROOT.mkdir(parents=True)
    write_warned(ROOT, ("5.8-vanilla", "5.8-patched"), unknown=True)
