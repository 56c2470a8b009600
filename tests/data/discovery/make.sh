#!/bin/sh
# Regenerates the real outputs in this folder (needs go and pip; the tests do not).
#   autosave/<system>/.benchmarks/...: pytest-benchmark's own storage (--benchmark-autosave)
#   golog/<system>/bench.log: `go test -bench` output saved under a .log name
set -e
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
python3 -m venv "$work/venv"
"$work/venv/bin/pip" install -q pytest pytest-benchmark
mkdir -p "$work/proj"
cat > "$work/proj/test_sorts.py" <<'PY'
def test_sort_small(benchmark):
    data = list(range(200, 0, -1))
    benchmark(sorted, data)


def test_sum_range(benchmark):
    benchmark(sum, range(1000))
PY
for sys in base patched; do  # outside any git checkout: no commit in the file
    mkdir -p "$work/$sys"
    (cd "$work/$sys" && "$work/venv/bin/python" -m pytest -q -p no:cacheprovider \
        --benchmark-autosave --benchmark-save-data --benchmark-min-rounds=30 \
        --benchmark-max-time=0.0005 "$work/proj/test_sorts.py" > /dev/null)
    rm -rf "$here/autosave/$sys" && mkdir -p "$here/autosave"
    cp -r "$work/$sys" "$here/autosave/$sys"
done
mkdir -p "$work/go"
cat > "$work/go/go.mod" <<'GO'
module example.com/spin

go 1.19
GO
cat > "$work/go/spin_test.go" <<'GO'
package spin

import (
	"strconv"
	"testing"
)

func BenchmarkItoa(b *testing.B) {
	for i := 0; i < b.N; i++ {
		_ = strconv.Itoa(i)
	}
}

func BenchmarkConcat(b *testing.B) {
	s := ""
	for i := 0; i < b.N; i++ {
		s = "ab" + strconv.Itoa(i&7)
	}
	_ = s
}
GO
for sys in base patched; do
    mkdir -p "$here/golog/$sys"
    (cd "$work/go" && go test -run '^$' -bench . -count 5 -benchtime 20000x) > "$here/golog/$sys/bench.log"
done
rm -rf "$work"
