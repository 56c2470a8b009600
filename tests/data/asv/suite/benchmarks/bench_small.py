"""A tiny asv suite: a timing, a parametrised timing, a memory and a tracked value."""


class TimeSuite:
    params = ([10, 100], ["list", "tuple"])
    param_names = ["n", "kind"]  # noqa: RUF012 (asv reads it as a plain list)

    def setup(self, n, kind):
        self.data = list(range(n)) if kind == "list" else tuple(range(n))

    def time_sum(self, n, kind):
        sum(self.data)


def time_sort():
    sorted(range(2000, 0, -1))


def mem_list():
    return [0] * 1000


def track_answer():
    return 42


track_answer.unit = "answers"
