#!/bin/sh
# A real Go A/A pair: the same benchmarks on the same code, as two systems (`first`,
# `second`) of three iterations each, one `go test` process per iteration, run in turn
# (first, second, first, ...). Go 1.19; b.SetBytes, so every line has ns/op and MB/s;
# -benchmem adds B/op and allocs/op.
set -e
cd "$(dirname "$0")/aa-src"
for i in 1 2 3; do
  for system in first second; do
    mkdir -p "../aa/$system/iter-$i"
    go test -run '^$' -bench . -benchmem -count 5 -benchtime 100ms > "../aa/$system/iter-$i/go-bench.txt"
  done
done
