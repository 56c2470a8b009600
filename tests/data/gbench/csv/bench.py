"""Tiny Google Benchmark suite (Python binding); run with the library's own flags."""

import google_benchmark as benchmark


@benchmark.register
@benchmark.option.range_multiplier(4)
@benchmark.option.range(8, 128)
def sort_n(state):
    data = list(range(state.range(0), 0, -1))
    while state:
        sorted(data)
    state.counters["items"] = benchmark.Counter(state.range(0), benchmark.Counter.kIsRate)


@benchmark.register
def sum_list(state):
    data = list(range(1000))
    while state:
        sum(data)


if __name__ == "__main__":
    benchmark.main()
